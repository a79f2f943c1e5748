import ArgumentParser
import Foundation
import LoopbackServerKit
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
        for spec in listings { _ = try SeedSpec.listing(spec) }
        for spec in files { _ = try SeedSpec.file(spec) }
    }

    /// Seeds `server`; throws when a local file cannot be read.
    func apply(to server: PydioTestServer) throws {
        for spec in listings {
            let (folder, count) = try SeedSpec.listing(spec)
            server.seedFolder(workspace: Self.workspace, path: folder)
            for (name, contents) in SeedSpec.smallFiles(count) {
                server.seedFile(workspace: Self.workspace, path: folder + "/" + name, contents: contents)
            }
        }
        for spec in files {
            let (path, local) = try SeedSpec.file(spec)
            server.seedFile(workspace: Self.workspace, path: path, contents: try Data(contentsOf: URL(fileURLWithPath: local)))
        }
    }
}
