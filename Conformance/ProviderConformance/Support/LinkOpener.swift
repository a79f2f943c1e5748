import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI

/// Opens a share's link as a stranger would: a plain `GET` without credentials (no authenticator,
/// no cookie), following redirects, through the run's base transport
/// (`ConformanceOptions.baseTransport`): the network for a real server, the in-memory server
/// itself for the reference adapter.
enum LinkOpener {
    /// The most of a link's answer read; the cases share small files.
    static let limit = 1 << 20

    /// What `GET url` answered.
    struct Answer: Sendable {
        var status: Int
        var bytes: [UInt8]
        /// Whether the answer is the file's bytes: a 2xx status and exactly `expected`.
        func delivers(_ expected: [UInt8]) -> Bool { (200..<300).contains(status) && bytes == expected }
        var summary: String { "HTTP \(status) with \(ByteSummary.describe(bytes))" }
    }

    /// The link a case opens for the file's bytes: `Share.downloadURL`, else `Share.url`.
    static func link(of share: Share, context: ConformanceContext) throws -> URL {
        guard let url = share.downloadURL ?? share.url else {
            throw ConformanceFailure("the public link has neither a url nor a downloadURL: nobody can open it")
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ConformanceFailure("the public link \(Redactor.redact(url: url)) is not an http(s) URL that anyone can open")
        }
        return url
    }

    /// `GET url` without credentials; a transport failure throws.
    static func open(_ url: URL, context: ConformanceContext) async throws -> Answer {
        let executor = RequestExecutor(transport: context.options.baseTransport, retry: .none)
        let response = try await executor.execute(TransportRequest(method: .GET, url: url))
        let body = try await response.body.collect(upTo: limit)
        return Answer(status: response.status, bytes: Array(body.readableBytesView))
    }
}
