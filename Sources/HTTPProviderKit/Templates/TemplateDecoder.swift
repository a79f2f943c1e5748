import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI

/// The head of a successful response, as a ``TemplateDecoder`` sees it.
public struct TemplateResponseHead: Sendable {
    /// The status code.
    public var status: Int
    /// The headers.
    public var headers: HTTPHeaders
    /// The URL that answered, after any redirects.
    public var url: URL
    /// The request that was sent, as `METHOD path` with secrets removed, for error messages.
    public var request: String

    /// Creates a response head.
    package init(status: Int, headers: HTTPHeaders, url: URL, request: String) {
        self.status = status
        self.headers = headers
        self.url = url
        self.request = request
    }
}

/// Reads a successful response of a ``RequestTemplate`` into a value.
///
/// A decoder that throws anything but a `ProviderError` has its error reported as
/// `ProviderError.Code.invalidResponse`.
public struct TemplateDecoder: Sendable {
    /// Whether the body is read and passed in; when `false` it is discarded and the decoder gets an empty buffer.
    package var readsBody: Bool
    /// Turns the response into a value.
    package var decode: @Sendable (TemplateResponseHead, ByteBuffer) throws -> any Sendable

    /// Creates a decoder.
    public init(readsBody: Bool = true, decode: @escaping @Sendable (TemplateResponseHead, ByteBuffer) throws -> any Sendable) {
        self.readsBody = readsBody
        self.decode = decode
    }

    /// The built-in `json` decoder: the body as a ``JSONValue``.
    public static let json = TemplateDecoder { head, body in
        do {
            return try JSONByteReader.value(from: body)
        } catch var error as ProviderError {
            error.request = head.request
            throw error
        }
    }

    /// The built-in `raw` decoder: the body's bytes as a `ByteBuffer`.
    public static let raw = TemplateDecoder { _, body in body }

    /// The built-in `none` decoder: the body is discarded and the result is `()`.
    public static let none = TemplateDecoder(readsBody: false) { _, _ in () }

    /// A decoder of `Decodable` JSON into `type`.
    ///
    /// - Parameters:
    ///   - type: the type decoded.
    ///   - makeDecoder: makes the `JSONDecoder` for each response, so its strategies can be set.
    public static func decodable<T: Decodable & Sendable>(
        _ type: T.Type, makeDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() }
    ) -> TemplateDecoder {
        TemplateDecoder { head, body in
            do {
                return try makeDecoder().decode(T.self, from: Data(body.readableBytesView))
            } catch {
                throw ProviderError(.invalidResponse, "cannot decode \(T.self)", request: head.request, underlying: "\(error)")
            }
        }
    }
}
