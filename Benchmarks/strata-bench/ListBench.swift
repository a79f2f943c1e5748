import ArgumentParser
import Foundation
import ProviderAPI

/// Lists a folder once through `listAll` and checks the number of entries.
struct ListBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List a folder.")

    @OptionGroup var target: BenchTarget
    @Argument(help: "The folder.") var url: String
    @Option(help: "The number of entries the listing must have.") var expect: Int?
    @Flag(help: "Ask for every item field (MIME types too); by default only what `strata ls` shows.") var allFields = false

    func run() async throws {
        let (provider, path) = try await target.open(url)
        let items = try await provider.listAll(path, fields: allFields ? .all : [])
        if let expect, items.count != expect {
            throw CheckFailed("listed \(items.count) entries, expected \(expect)")
        }
        print(String(items.count))  // a String: printing an Int looks up its conformances at run time
    }
}
