import ArgumentParser
import Foundation
import ProviderAPI

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List a folder.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The folder, e.g. webdav://host/dav/folder") var target: String
    @Option(help: "Fetch the listing in pages of this many entries.") var pageSize: Int?

    func run() async throws {
        let (provider, path) = try await global.open(target)
        // The plain listing shows no MIME type: the server need not look them up.
        let items = try await provider.listAll(path, pageSize: pageSize, fields: global.json ? .all : [])
        try Output.items(items, json: global.json)
    }
}

struct StatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stat", abstract: "Show an item's metadata.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The item.") var target: String

    func run() async throws {
        let (provider, path) = try await global.open(target)
        let item = try await provider.item(at: path)
        if global.json { try Output.json(item) } else { Output.describe(item) }
    }
}

struct MkdirCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mkdir", abstract: "Create a folder.")

    @OptionGroup var global: GlobalOptions
    @Flag(name: .short, help: "Create missing parents too, and succeed if the folder exists.") var parents = false
    @Argument(help: "The folder to create.") var target: String

    func run() async throws {
        let (provider, path) = try await global.open(target)
        guard !path.isRoot else { throw ValidationError("the root always exists") }
        var created: Item?
        if parents {
            var current = ItemPath.root
            for name in path.segments {
                let next = try current.appending(name)
                if let existing = try await provider.itemIfExists(at: next) {
                    guard existing.isFolder else { throw ProviderError(.conflict, "\(next) is a file") }
                    created = existing
                } else {
                    created = try await provider.createFolder(named: name, in: current)
                }
                current = next
            }
        } else {
            created = try await provider.createFolder(named: path.name, in: path.parent)
        }
        if global.json, let created { try Output.json(created) }
    }
}

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a file or a folder with its contents.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The item to delete.") var target: String

    func run() async throws {
        let (provider, path) = try await global.open(target)
        try await provider.delete(path)
    }
}

struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect", abstract: "Probe an http(s) server and say which adapter fits it.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The server, e.g. http://127.0.0.1:8081/") var url: String

    func run() async throws {
        guard let parsed = URL(string: url) else { throw ValidationError("not a URL: \(url)") }
        let results = try await global.registry().detect(
            parsed, credentials: try global.credentials(for: parsed), transport: try global.transport())
        if global.json {
            try Output.json(results.map { ["kind": $0.kind, "confidence": "\($0.confidence)", "detail": $0.detail, "url": $0.url.absoluteString] })
            return
        }
        guard !results.isEmpty else { throw ProviderError(.unsupported, "no registered adapter recognises \(url)") }
        for result in results { Output.line("\(result.kind)\t\(result.confidence)\t\(result.url.absoluteString)\t\(result.detail)") }
    }
}
