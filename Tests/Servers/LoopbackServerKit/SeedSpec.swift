import ArgumentParser
import Foundation

/// The loopback servers' `--seed-files FOLDER=COUNT` and `--seed-file PATH=LOCAL` values (used
/// by `scripts/bench`), and the files a `--seed-files` folder holds. Each server's command
/// declares the options with its own help and places the seeds in its own store.
public enum SeedSpec {
    /// `FOLDER=COUNT` of `--seed-files`.
    public static func listing(_ spec: String) throws -> (folder: String, count: Int) {
        let (folder, text) = try split(spec, "--seed-files")
        guard let count = Int(text), count >= 0 else { throw ValidationError("--seed-files takes FOLDER=COUNT, not \(spec)") }
        return (folder, count)
    }

    /// `PATH=LOCAL` of `--seed-file`.
    public static func file(_ spec: String) throws -> (path: String, local: String) {
        try split(spec, "--seed-file")
    }

    /// `entry-00000.txt`… with deterministic sizes between 0 and 2047 bytes.
    public static func smallFiles(_ count: Int) -> [(name: String, contents: Data)] {
        (0..<count).map { index in
            let name = "entry-" + String(repeating: "0", count: max(0, 5 - String(index).count)) + String(index) + ".txt"
            return (name, Data(repeating: UInt8(ascii: "x"), count: (index &* 7919) % 2048))
        }
    }

    private static func split(_ spec: String, _ option: String) throws -> (String, String) {
        guard let equals = spec.lastIndex(of: "="), spec[..<equals].hasPrefix("/") else {
            throw ValidationError("\(option) takes an absolute remote path, '=' and a value, not \(spec)")
        }
        return (String(spec[..<equals]), String(spec[spec.index(after: equals)...]))
    }
}
