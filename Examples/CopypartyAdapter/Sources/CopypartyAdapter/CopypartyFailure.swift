import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI

/// How copyparty's error answers become `ProviderError`s.
///
/// copyparty answers an error with a status and a short text, `<pre>mv2: target file exists`
/// then the URL: the text's first line becomes the error's message.
enum CopypartyFailure {
    /// The most of an error's body read for its message.
    static let excerptBytes = 4096

    /// The error an answer with a status other than 2xx means.
    static func error(for response: TransportResponse, request: String) async -> ProviderError {
        let body = (try? await response.body.collect(upTo: excerptBytes)) ?? ByteBuffer()
        return error(for: response, body: body, request: request)
    }

    /// The error an answer with a status other than 2xx means, given the start of its body.
    static func error(for response: TransportResponse, body: ByteBuffer, request: String) -> ProviderError {
        let message = firstLine(of: String(buffer: body))
        let code: ProviderError.Code =
            if response.status == 400, message.hasSuffix("target file exists") { .alreadyExists }
            else { ProviderError.code(forHTTPStatus: response.status) }
        let retryAfter = response.headers.first(name: "retry-after").flatMap(Int.init).map { Duration.seconds($0) }
        return ProviderError(
            code, message.isEmpty ? "HTTP \(response.status)" : "HTTP \(response.status): \(Redactor.redact(message))",
            httpStatus: response.status, request: request, retryAfter: retryAfter)
    }

    /// The first line of an error text, without copyparty's `<pre>` and at most 200 characters.
    static func firstLine(of text: String) -> String {
        let line = text.replacingOccurrences(of: "<pre>", with: "").split(whereSeparator: \.isNewline).first ?? ""
        return String(line.trimmingCharacters(in: .whitespaces).prefix(200))
    }
}
