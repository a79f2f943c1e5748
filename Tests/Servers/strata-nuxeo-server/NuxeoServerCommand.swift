import ArgumentParser
import Foundation
import NuxeoTestServer

/// `strata-nuxeo-server`: runs the loopback Nuxeo server until SIGTERM/SIGINT.
@main
struct NuxeoServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-nuxeo-server",
        abstract: "A loopback Nuxeo 10.10 REST server backed by memory."
    )

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind (0 picks any free port).")
    var port = 0

    @Option(help: "Basic user name.")
    var user = "Administrator"

    @Option(help: "Basic password.")
    var password = "Administrator"

    @OptionGroup var seed: SeedOptions

    func run() async throws {
        var configuration = NuxeoTestServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.users = [user: password]
        let server = try await NuxeoTestServer.start(configuration)
        do {
            try seed.apply(to: server)
        } catch {
            await server.stop()
            throw error
        }
        FileHandle.standardOutput.write(Data("listening \(server.baseURL.absoluteString)\n".utf8))
        await server.runUntilSignalled()
    }
}
