import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// A server's answer as a ``ResponseRecognizer`` sees it: status, headers, the whole body, and
/// the body read as XML once, on first demand, for every recognizer of the chain.
package final class RecognizableAnswer: Sendable {
    /// The HTTP status.
    package let status: Int
    /// The headers.
    package let headers: HTTPHeaders
    /// The body.
    package let body: Data
    /// The request that was answered, as `METHOD path` with secrets removed.
    package let request: String
    private let parsed = NIOLockedValueBox<Result<XMLElementTree, ProviderError>?>(nil)

    /// Creates an answer.
    package init(status: Int, headers: HTTPHeaders = [:], body: Data, request: String = "") {
        self.status = status
        self.headers = headers
        self.body = body
        self.request = request
    }

    /// The media type, lowercased, without parameters (`text/xml`); empty when none was sent.
    package var mediaType: String {
        let value = headers.first(name: "content-type") ?? ""
        return value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// Whether the body is empty or only white space.
    package var isEmpty: Bool { body.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 } }

    /// Whether the body looks like XML: an XML media type, or a body starting with `<`.
    package var looksLikeXML: Bool {
        if mediaType.hasSuffix("/xml") || mediaType.hasSuffix("+xml") { return true }
        return body.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) } == UInt8(ascii: "<")
            && !mediaType.hasPrefix("text/html")
    }

    /// The body as text (UTF-8, invalid bytes replaced).
    package var text: String { String(decoding: body, as: UTF8.self) }

    /// The body read as an XML document, once.
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` when it is not a well-formed, safe document.
    package func xml() throws -> XMLElementTree {
        if let cached = parsed.withLockedValue({ $0 }) { return try cached.get() }
        let result: Result<XMLElementTree, ProviderError>
        do {
            result = .success(try XMLElementTree.parse(body))
        } catch let error as ProviderError {
            result = .failure(error)
        } catch {
            result = .failure(ProviderError(.invalidResponse, "unreadable XML"))
        }
        parsed.withLockedValue { $0 = result }
        return try result.get()
    }

    /// The body as XML, or `nil` when it is not XML or not readable.
    package var xmlIfAny: XMLElementTree? { looksLikeXML ? try? xml() : nil }
}
