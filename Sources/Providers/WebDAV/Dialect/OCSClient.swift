import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// Sends OCS API calls (`ocs/v2.php/…?format=json`, `OCS-APIRequest: true`) and reads their
/// envelopes: HTTP and OCS errors alike become a ``ProviderError``.
struct OCSClient: Sendable {
    let executor: RequestExecutor
    let serverRoot: URL

    /// `GET`, `POST`, `PUT` or `DELETE` on `endpoint` (relative to `ocs/v2.php/`), with form parameters
    /// for `POST` and `PUT`; returns the successful envelope.
    func call(
        _ method: HTTPMethod, _ endpoint: String, query: [(String, String)] = [], form: [(String, String)]? = nil
    ) async throws -> OCSEnvelope {
        var queryItems = query
        queryItems.append(("format", "json"))
        let queryText = queryItems.map { "\(PercentEncoding.formEncode($0.0))=\(PercentEncoding.formEncode($0.1))" }
            .joined(separator: "&")
        guard let url = URL(string: serverRoot.absoluteString + "ocs/v2.php/" + endpoint + "?" + queryText) else {
            throw ProviderError(.invalidArgument, "cannot build the OCS URL for \(endpoint)")
        }
        var headers = HTTPHeaders()
        headers.add(name: "OCS-APIRequest", value: "true")
        headers.add(name: "Accept", value: "application/json")
        var body: HTTPRequestBody?
        if let form {
            headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            let text = form.map { "\(PercentEncoding.formEncode($0.0))=\(PercentEncoding.formEncode($0.1))" }.joined(separator: "&")
            body = .bytes(ByteBuffer(string: text))
        }
        let request = TransportRequest(method: method, url: url, headers: headers, body: body)
        let response = try await executor.execute(request)
        let answer: ByteBuffer
        do {
            answer = try await response.body.collect(upTo: 16 << 20)
        } catch {
            throw ProviderError.wrap(error, request: request.summary)
        }
        let envelope: OCSEnvelope
        do {
            envelope = try OCSEnvelope.parse(Data(answer.readableBytesView))
        } catch {
            // Not an envelope at all: a proxy's page, a login redirect, a bare 401.
            if !response.isSuccess {
                throw ProviderError.http(response, body: answer, request: request)
            }
            var failure = ProviderError.wrap(error, fallback: .invalidResponse, request: request.summary)
            failure.httpStatus = response.status
            throw failure
        }
        if let failure = envelope.error(request: request.summary, httpStatus: response.status) { throw failure }
        if !response.isSuccess {
            throw ProviderError.http(response, body: nil, request: request, message: envelope.message)
        }
        return envelope
    }
}
