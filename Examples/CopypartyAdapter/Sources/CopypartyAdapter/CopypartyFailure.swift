import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI

/// How copyparty's error answers become `ProviderError`s.
///
/// copyparty answers an error with a status and a short text (`<pre>mv2: target file exists`,
/// then the URL). The kit's `ProviderError.http` makes the error (the status's code, the
/// request's summary, `Retry-After`, an excerpt of the text); the one answer whose code the
/// status does not tell is a move or copy onto a taken name, a 400 like any malformed request:
/// its text makes it `.alreadyExists`.
enum CopypartyFailure {
    /// The most of an error's body read.
    static let excerptBytes = 4096

    /// The error an answer to `request` with a status other than 2xx means.
    static func error(for response: TransportResponse, request: TransportRequest) async -> ProviderError {
        let body = (try? await response.body.collect(upTo: excerptBytes)) ?? ByteBuffer()
        return error(for: response, body: body, request: request)
    }

    /// The error an answer to `request` with a status other than 2xx means, given its body's start.
    static func error(for response: TransportResponse, body: ByteBuffer, request: TransportRequest) -> ProviderError {
        var error = ProviderError.http(response, body: body, request: request)
        if response.status == 400, String(buffer: body).contains("target file exists") { error.code = .alreadyExists }
        return error
    }
}
