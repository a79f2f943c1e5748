import ArgumentParser
import Foundation
import PydioTestServer

/// `strata-pydio-server`: runs the loopback Pydio server until SIGTERM/SIGINT.
@main
struct PydioServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-pydio-server",
        abstract: "A loopback pydio-core 8.2.5 server backed by memory."
    )

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind (0 picks any free port).")
    var port = 0

    @Option(help: "Login name.")
    var user = "admin"

    @Option(help: "Password.")
    var password = "admin"

    @OptionGroup var seed: SeedOptions

    func run() async throws {
        var configuration = PydioTestServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.users = [user: password]
        let server = try await PydioTestServer.start(configuration)
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
