import Foundation
import NIOCore
import ProviderAPI

extension ProviderError {
    /// The most bytes of a response body quoted in an error's message.
    static let bodyExcerptLimit = 512

    /// The error for an unexpected answer to `request`, reading the start of its body.
    ///
    /// The error has the code a generic HTTP server means by the status
    /// (``code(forHTTPStatus:)``), the status, the request's summary (method and path, secrets
    /// masked), the `Retry-After` delay (delta-seconds or an HTTP date) that the transfer engine's
    /// retries wait for, and a message: `message`, or `unexpected HTTP status <status>`, followed
    /// by an excerpt of the body when it is text (at most 512 bytes, cut on a character boundary,
    /// on one line, its secrets masked by `Redactor`).
    ///
    /// At most 512 bytes of the body are read; the rest is left unread, and the connection is
    /// not reused. An adapter that reads the body itself (to parse the server's error document)
    /// passes it to ``http(_:body:request:message:)`` instead.
    ///
    /// ```swift
    /// let response = try await executor.execute(request)
    /// guard response.isSuccess else { throw await ProviderError.http(response, request: request) }
    /// ```
    ///
    /// - Parameters:
    ///   - response: the unexpected answer; its body is read.
    ///   - request: the request it answers.
    ///   - message: what the adapter knows of the failure, put before the excerpt; never a secret.
    public static func http(_ response: TransportResponse, request: TransportRequest, message: String? = nil) async -> ProviderError {
        var body = ByteBuffer()
        do {
            for try await var piece in response.body {
                body.writeBuffer(&piece)
                if body.readableBytes > bodyExcerptLimit { break }
            }
        } catch {
            // What was read before the failure is enough for an excerpt.
        }
        return http(response, body: body, request: request, message: message)
    }

    /// The error for an unexpected answer to `request` whose body the adapter already read
    /// (`nil` when it did not): as ``http(_:request:message:)``, without reading anything.
    public static func http(_ response: TransportResponse, body: ByteBuffer?, request: TransportRequest, message: String? = nil) -> ProviderError {
        var text = message.map(Redactor.redact) ?? "unexpected HTTP status \(response.status)"
        if let body, Self.isText(response), let excerpt = excerpt(of: body), !excerpt.isEmpty {
            text += ": " + excerpt
        }
        return ProviderError(
            code(forHTTPStatus: response.status), text, httpStatus: response.status, request: request.summary,
            retryAfter: response.retryAfter)
    }

    /// Whether the body is text to quote: no `Content-Type`, or a textual one.
    private static func isText(_ response: TransportResponse) -> Bool {
        guard let type = response.headers.first(name: "content-type")?.lowercased() else { return true }
        return type.hasPrefix("text/") || type.contains("json") || type.contains("xml") || type.contains("x-www-form-urlencoded")
    }

    /// The first ``bodyExcerptLimit`` bytes of `body` as one line of text, cut before a
    /// character the limit splits, control characters as spaces, secrets masked; `nil` when empty.
    static func excerpt(of body: ByteBuffer) -> String? {
        let truncated = body.readableBytes > bodyExcerptLimit
        var bytes = Array(body.readableBytesView.prefix(bodyExcerptLimit))
        // Drop the start of a character the cut split: its lead byte and the continuation after it.
        if truncated, let lead = bytes.indices.suffix(4).last(where: { bytes[$0] & 0xC0 != 0x80 }), bytes[lead] >= 0xC0 {
            let length = bytes[lead] >= 0xF0 ? 4 : bytes[lead] >= 0xE0 ? 3 : 2
            if bytes.count - lead < length { bytes.removeSubrange(lead...) }
        }
        let decoded = String(decoding: bytes, as: UTF8.self)
        let oneLine = String(
            String.UnicodeScalarView(decoded.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : $0 }))
        let squeezed = oneLine.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        guard !squeezed.isEmpty else { return nil }
        return Redactor.redact(squeezed) + (truncated ? "…" : "")
    }
}
