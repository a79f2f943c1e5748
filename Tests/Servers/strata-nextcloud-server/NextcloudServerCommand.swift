import ArgumentParser
import Foundation
import NextcloudTestServer

/// `strata-nextcloud-server`: runs the loopback ownCloud/Nextcloud server until SIGTERM/SIGINT.
@main
struct NextcloudServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-nextcloud-server",
        abstract: "A loopback ownCloud 10 / Nextcloud server (WebDAV, chunking v1 and v2, SEARCH, versions, OCS shares, Login Flow v2) backed by memory."
    )

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind (0 picks any free port).")
    var port = 0

    @Option(help: "User name.")
    var user = "alice"

    @Option(help: "Password.")
    var password = "secret"

    @Option(help: "nextcloud or owncloud.")
    var flavor = "nextcloud"

    @Option(help: "Per-user quota in bytes (unlimited when absent).")
    var quota: Int64?

    @Option(help: """
        An OAuth2 introspection endpoint (RFC 7662) that checks bearer tokens; the resource server's \
        client secret there is read from STRATA_INTROSPECTION_SECRET.
        """)
    var introspectionURL: String?

    @Option(help: "The resource server's client id at the introspection endpoint.")
    var introspectionClient = "strata-resource"

    func run() async throws {
        guard flavor == "nextcloud" || flavor == "owncloud" else {
            throw ValidationError("--flavor must be nextcloud or owncloud")
        }
        var configuration = NextcloudTestServer.Configuration(
            flavor: flavor == "owncloud" ? .owncloud : .nextcloud, users: [user: password], quotaBytes: quota,
            host: host, port: port)
        if let introspectionURL {
            guard let url = URL(string: introspectionURL),
                let secret = ProcessInfo.processInfo.environment["STRATA_INTROSPECTION_SECRET"]
            else { throw ValidationError("--introspection-url needs a URL and STRATA_INTROSPECTION_SECRET") }
            configuration.introspection = NextcloudTestServer.Configuration.Introspection(url: url, clientID: introspectionClient, clientSecret: secret)
        }
        let server = try await NextcloudTestServer.start(configuration)
        FileHandle.standardOutput.write(Data("listening \(server.baseURL.absoluteString)\n".utf8))
        await server.runUntilSignalled()
    }
}
