import ArgumentParser
import Foundation
import ProviderAPI

struct ConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run the Strata conformance suite against a live server (it works in a scratch folder it removes).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A folder on the server to work under, e.g. webdav://host/dav/") var target: String

    func run() async throws {
        throw ProviderError(.unsupported, "conformance is not wired yet")
    }
}
