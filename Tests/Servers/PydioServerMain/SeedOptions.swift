import ArgumentParser
import Foundation
import PydioTestServer

/// `--seed-files` and `--seed-file`: data placed in the `my-files` workspace before the server
/// listens (used by `scripts/bench`).
struct SeedOptions: ParsableArguments {
    @Option(
        name: .customLong("seed-files"),
        help: ArgumentHelp(
            "Create FOLDER (a path in the my-files workspace, such as /list) holding COUNT small files "
                + "entry-00000.txt… of 0–2 KiB. Repeatable.",
            valueName: "FOLDER=COUNT"))
    var listings: [String] = []

    @Option(
        name: .customLong("seed-file"),
        help: ArgumentHelp(
            "Create the file PATH (in the my-files workspace) with the content of the local file LOCAL. Repeatable.",
            valueName: "PATH=LOCAL"))
    var files: [String] = []

    /// The workspace the seeds go to.
    static let workspace = "my-files"

    func validate() throws {
        for spec in listings { _ = try Self.listing(spec) }
        for spec in files { _ = try Self.split(spec, "--seed-file") }
    }

    /// Seeds `server`; throws when a local file cannot be read.
    func apply(to server: PydioTestServer) throws {
        for spec in listings {
            let (folder, count) = try Self.listing(spec)
            server.seedFolder(workspace: Self.workspace, path: folder)
            for index in 0..<count {
                let name = "entry-" + String(repeating: "0", count: max(0, 5 - String(index).count)) + String(index) + ".txt"
                let contents = Data(repeating: UInt8(ascii: "x"), count: (index &* 7919) % 2048)
                server.seedFile(workspace: Self.workspace, path: folder + "/" + name, contents: contents)
            }
        }
        for spec in files {
            let (path, local) = try Self.split(spec, "--seed-file")
            server.seedFile(workspace: Self.workspace, path: path, contents: try Data(contentsOf: URL(fileURLWithPath: local)))
        }
    }

    private static func listing(_ spec: String) throws -> (String, Int) {
        let (folder, text) = try split(spec, "--seed-files")
        guard let count = Int(text), count >= 0 else { throw ValidationError("--seed-files takes FOLDER=COUNT, not \(spec)") }
        return (folder, count)
    }

    private static func split(_ spec: String, _ option: String) throws -> (String, String) {
        guard let equals = spec.lastIndex(of: "="), spec[..<equals].hasPrefix("/") else {
            throw ValidationError("\(option) takes an absolute path, '=' and a value, not \(spec)")
        }
        return (String(spec[..<equals]), String(spec[spec.index(after: equals)...]))
    }
}
