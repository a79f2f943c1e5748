import ArgumentParser
import Foundation
import NuxeoTestServer

/// `--seed-files` and `--seed-file`: data placed in the repository before the server listens
/// (used by `scripts/bench`).
struct SeedOptions: ParsableArguments {
    @Option(
        name: .customLong("seed-files"),
        help: ArgumentHelp(
            "Create FOLDER (a repository path such as /default-domain/workspaces/strata/list) holding COUNT small "
                + "files entry-00000.txt… of 0–2 KiB. Repeatable.",
            valueName: "FOLDER=COUNT"))
    var listings: [String] = []

    @Option(
        name: .customLong("seed-file"),
        help: ArgumentHelp(
            "Create a File document at PATH (a repository path) with the content of the local file LOCAL. Repeatable.",
            valueName: "PATH=LOCAL"))
    var files: [String] = []

    func validate() throws {
        for spec in listings { _ = try Self.listing(spec) }
        for spec in files { _ = try Self.split(spec, "--seed-file") }
    }

    /// Seeds `server`; throws when a local file cannot be read or a folder cannot be made.
    func apply(to server: NuxeoTestServer) throws {
        for spec in listings {
            let (folder, count) = try Self.listing(spec)
            guard server.seedFiles(in: folder, Self.smallFiles(count)) else {
                throw ValidationError("--seed-files: \(folder) cannot be a folder")
            }
        }
        for spec in files {
            let (path, local) = try Self.split(spec, "--seed-file")
            let data = try Data(contentsOf: URL(fileURLWithPath: local))
            let parent = path.split(separator: "/").dropLast().joined(separator: "/")
            let name = path.split(separator: "/").last.map(String.init) ?? ""
            guard !name.isEmpty, server.seedFiles(in: "/" + parent, [(name, data)]) else {
                throw ValidationError("--seed-file: \(path) cannot be a file")
            }
        }
    }

    /// `entry-00000.txt`… with deterministic sizes between 0 and 2047 bytes.
    static func smallFiles(_ count: Int) -> [(name: String, contents: Data)] {
        (0..<count).map { index in
            let name = "entry-" + String(repeating: "0", count: max(0, 5 - String(index).count)) + String(index) + ".txt"
            return (name, Data(repeating: UInt8(ascii: "x"), count: (index &* 7919) % 2048))
        }
    }

    private static func listing(_ spec: String) throws -> (String, Int) {
        let (folder, text) = try split(spec, "--seed-files")
        guard let count = Int(text), count >= 0 else { throw ValidationError("--seed-files takes FOLDER=COUNT, not \(spec)") }
        return (folder, count)
    }

    private static func split(_ spec: String, _ option: String) throws -> (String, String) {
        guard let equals = spec.lastIndex(of: "="), spec[..<equals].hasPrefix("/") else {
            throw ValidationError("\(option) takes an absolute remote path, '=' and a value, not \(spec)")
        }
        return (String(spec[..<equals]), String(spec[spec.index(after: equals)...]))
    }
}
