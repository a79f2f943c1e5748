import Foundation
import ProviderAPI

/// Names that are taken: folders, and each upload conflict policy.
enum ConflictCases {
    static var all: [ConformanceCase] {
        [createFolderExists, uploadFail, exclusiveCreate, uploadOverwrite, uploadRename, staleIfMatch, staleIfMatchDownload]
    }

    static let createFolderExists = ConformanceCase(
        "conflicts.createFolderExists", summary: "createFolder where a folder or a file already is throws .alreadyExists"
    ) { context in
        try await context.makeFolder("dir")
        try await context.upload(text: "x", as: "file")
        try await context.expectError(.alreadyExists, "createFolder(dir) a second time") {
            try await context.makeFolder("dir")
        }
        try await context.expectError(.alreadyExists, "createFolder(file) over a file") {
            try await context.makeFolder("file")
        }
        try await context.expectContent(try context.path("file"), Array("x".utf8), "after createFolder over it")
    }

    static let uploadFail = ConformanceCase(
        "conflicts.uploadFail", summary: "Uploading with .fail over a file throws .alreadyExists and keeps the old content"
    ) { context in
        let first = try await context.upload(text: "old", as: "f.txt", options: UploadOptions(conflict: .fail))
        try await context.expectError(.alreadyExists, "upload(.fail) over an existing file") {
            try await context.upload(text: "new content", as: "f.txt", options: UploadOptions(conflict: .fail))
        }
        try await context.expectContent(first.path, Array("old".utf8), "after the refused upload")
        let entries = try await context.children()
        try context.expect(entries.map(\.name) == ["f.txt"], "the folder holds \(entries.map(\.name))")
    }

    static let exclusiveCreate = ConformanceCase(
        "conflicts.exclusiveCreate", requires: .exclusiveCreate,
        summary: """
            Creating a taken name with .fail throws .alreadyExists and keeps the first content, and of two uploads \
            racing to create one name with .fail exactly one wins, whole
            """
    ) { context in
        let first = Array("the first content".utf8)
        let created = try await context.upload(first, as: "once.txt", options: UploadOptions(conflict: .fail))
        try await context.expectError(.alreadyExists, "upload(.fail) over a file made by upload(.fail)") {
            try await context.upload(text: "a second content, longer", as: "once.txt", options: UploadOptions(conflict: .fail))
        }
        try await context.expectContent(created.path, first, "after the refused exclusive create")

        // Two creates of the same new name, at once, several times: the server decides, so exactly
        // one may win. A check-then-write adapter lets both through now and then (the later one replaces).
        let rounds = 5
        for round in 1...rounds {
            let name = "race-\(round).bin"
            let contents = [RandomBytes.make(40_000 + round), RandomBytes.make(50_000 + round)]
            let provider = context.provider
            let folder = context.folder
            let outcomes = await withTaskGroup(of: (Int, Result<Item, any Error>).self) { group in
                for (index, bytes) in contents.enumerated() {
                    group.addTask {
                        let outcome = await TransportChecks.outcome {
                            try await provider.upload(DataSource(bytes: bytes), to: folder, name: name, options: UploadOptions(conflict: .fail))
                        }
                        return (index, outcome)
                    }
                }
                var outcomes: [(Int, Result<Item, any Error>)] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
            }
            var winners: [Int] = []
            for (index, outcome) in outcomes.enumerated() {
                switch outcome {
                case .success: winners.append(index)
                case .failure(let error):
                    guard let providerError = error as? ProviderError, providerError.code == .alreadyExists else {
                        throw ConformanceFailure("a racing upload(.fail) of \(name) threw \(error), not .alreadyExists")
                    }
                }
            }
            try context.expect(winners.count == 1, "\(winners.count) of 2 uploads racing to create \(name) with .fail succeeded, not exactly one")
            try await context.expectContent(try context.path(name), contents[winners[0]], "(the winner of the race)")
        }
        let names = try await context.children().map(\.name).sorted()
        let wanted = (["once.txt"] + (1...rounds).map { "race-\($0).bin" }).sorted()
        try context.expect(names == wanted, "after the races the folder holds \(names), not \(wanted)")
    }

    static let uploadOverwrite = ConformanceCase(
        "conflicts.uploadOverwrite", summary: "Uploading with .overwrite replaces the content and size"
    ) { context in
        let first = try await context.upload(text: "old", as: "f.txt")
        let second = try await context.upload(text: "new content", as: "f.txt", options: UploadOptions(conflict: .overwrite))
        try context.expect(second.path == first.path, "the overwrite returned the path \(second.path)")
        try await context.expectContent(first.path, Array("new content".utf8), "after the overwrite")
        let stat = try await context.provider.item(at: first.path)
        try context.expect(stat.size == 11, "item(at:) says size \(String(describing: stat.size)) after the overwrite, not 11")
        let entries = try await context.children()
        try context.expect(entries.map(\.name) == ["f.txt"], "the folder holds \(entries.map(\.name))")
    }

    static let uploadRename = ConformanceCase(
        "conflicts.uploadRename", summary: "Uploading with .rename keeps the old file and creates another name"
    ) { context in
        let first = try await context.upload(text: "old", as: "f.txt")
        let second = try await context.upload(text: "new content", as: "f.txt", options: UploadOptions(conflict: .rename))
        try context.expect(second.path != first.path, "upload(.rename) returned the taken path \(second.path)")
        try context.expect(second.path.parent == context.folder, "upload(.rename) put the file at \(second.path)")
        try await context.expectContent(first.path, Array("old".utf8), "after upload(.rename)")
        try await context.expectContent(second.path, Array("new content".utf8), "(the renamed upload)")
        let names = try await context.children().map(\.name).sorted()
        try context.expect(names == [first.name, second.name].sorted(), "the folder holds \(names)")
        context.note("renamed to \(second.name.debugDescription)")
    }

    static let staleIfMatch = ConformanceCase(
        "conflicts.staleIfMatch", requires: [.preconditions, .etags],
        summary: "Uploading with a stale ifMatch throws .preconditionFailed; the current etag succeeds"
    ) { context in
        let (path, stale, current) = try await rewritten(context)
        try await context.expectError(.preconditionFailed, "upload(ifMatch: stale etag)") {
            try await context.upload(text: "three", as: "f.txt", options: UploadOptions(conflict: .overwrite, ifMatch: stale))
        }
        try await context.expectContent(path, Array("two!".utf8), "after the refused conditional upload")
        try await context.upload(text: "three", as: "f.txt", options: UploadOptions(conflict: .overwrite, ifMatch: current))
        try await context.expectContent(path, Array("three".utf8), "after a conditional upload with the current etag")
    }

    static let staleIfMatchDownload = ConformanceCase(
        "conflicts.staleIfMatchDownload", requires: [.preconditions, .etags],
        summary: "Downloading with a stale ifMatch throws .preconditionFailed and writes nothing; the current etag succeeds"
    ) { context in
        let (path, stale, current) = try await rewritten(context)
        let sink = MemorySink()
        try await context.expectError(.preconditionFailed, "download(ifMatch: stale etag)") {
            _ = try await context.provider.download(path, to: sink, options: DownloadOptions(ifMatch: stale))
        }
        let leaked = await sink.data.count
        try context.expect(leaked == 0, "the refused download wrote \(leaked) bytes to the sink")
        let fresh = MemorySink()
        _ = try await context.provider.download(path, to: fresh, options: DownloadOptions(ifMatch: current))
        let bytes = await Array(fresh.data)
        try context.expect(bytes == Array("two!".utf8), "download(ifMatch: current etag) gave \(bytes.count) bytes, not \"two!\"")
    }

    /// `f.txt` written as "one", then rewritten as "two!": its path, the etag of "one" (now
    /// stale) and the etag of "two!" (current).
    private static func rewritten(_ context: ConformanceContext) async throws -> (path: ItemPath, stale: String, current: String) {
        let path = try context.path("f.txt")
        try await context.upload(text: "one", as: "f.txt")
        guard let stale = try await context.provider.item(at: path).etag else { throw ConformanceFailure("item(at:) has no etag") }
        try await context.upload(text: "two!", as: "f.txt")
        guard let current = try await context.provider.item(at: path).etag else { throw ConformanceFailure("item(at:) has no etag") }
        return (path, stale, current)
    }
}
