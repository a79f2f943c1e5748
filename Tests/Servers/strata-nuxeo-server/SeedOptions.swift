import ArgumentParser
import Foundation
import LoopbackServerKit
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
        for spec in listings { _ = try SeedSpec.listing(spec) }
        for spec in files { _ = try SeedSpec.file(spec) }
    }

    /// Seeds `server`; throws when a local file cannot be read or a folder cannot be made.
    func apply(to server: NuxeoTestServer) throws {
        for spec in listings {
            let (folder, count) = try SeedSpec.listing(spec)
            guard server.seedFiles(in: folder, SeedSpec.smallFiles(count)) else {
                throw ValidationError("--seed-files: \(folder) cannot be a folder")
            }
        }
        for spec in files {
            let (path, local) = try SeedSpec.file(spec)
            let data = try Data(contentsOf: URL(fileURLWithPath: local))
            let parent = path.split(separator: "/").dropLast().joined(separator: "/")
            let name = path.split(separator: "/").last.map(String.init) ?? ""
            guard !name.isEmpty, server.seedFiles(in: "/" + parent, [(name, data)]) else {
                throw ValidationError("--seed-file: \(path) cannot be a file")
            }
        }
    }
}
