import Foundation
import ProviderAPI

extension InMemoryProvider {
    /// The folder's location on the in-memory server: every ``InMemoryServer`` answers at one
    /// host, so two of them are taken for one server (as their equal ``account``s say), and the
    /// path below its root decides.
    package func location(of path: ItemPath) async throws -> TreeLocation {
        TreeLocation(
            server: ServerIdentity(family: "memory", scheme: "http", host: InMemoryWire.host, port: 80), path: path.segments,
            caseInsensitive: !capabilities.names.caseSensitive)
    }
}
