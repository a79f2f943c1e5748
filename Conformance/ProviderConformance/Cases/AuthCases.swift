import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderTesting

/// A server that stops taking the login: the call fails as `.unauthorized`, soon, and says so
/// without a secret.
///
/// The case answers every request with `401` and a `WWW-Authenticate: Basic` challenge once the
/// provider is made (a password changed on the server, a token revoked, an app password
/// removed). An adapter may try to sign in again or renew a token once, but it must not loop,
/// must not report the refusal as another error (a network failure that a caller would retry
/// forever, a `notFound` that a sync would read as "deleted"), and must not put what it sent to
/// sign in (a header value of `Authorization`, a cookie, a token header) into the error a user
/// sees. Adapters that send no HTTP skip it with ``SkipReason/noTransport``.
enum AuthCases {
    static var all: [ConformanceCase] { [refusedLogin] }

    /// The most requests a refused call may send: the call, a sign-in or token renewal and its
    /// replay, with room for an adapter that looks the path up first.
    static let requestLimit = 8

    static let refusedLogin = ConformanceCase(
        "auth.refusedLogin",
        summary: "A server that refuses the login (401 to every request) fails the call with .unauthorized after a few requests, no secret in the error"
    ) { context in
        let uploaded = try await context.upload(text: "signed in", as: "login.txt")
        let faults = FaultInjectingTransport(context.transport)
        let recorder = RecordingTransport(passingTo: faults)
        let provider = try await context.makeProvider(over: recorder)
        let before = (applied: faults.appliedFaults, sent: recorder.requests.count)
        faults.inject(count: 1_000) { _ in .status(401, retryAfter: nil) }

        let path = uploaded.path
        let outcome = try await TimeLimit.run(.seconds(120), "item(at:) against a server that refuses every login") {
            await TransportChecks.outcome { try await provider.item(at: path) }
        }
        try TransportChecks.expectUsed(faults, context: context)
        try TransportChecks.expectApplied(faults, since: before.applied, "401 to every request")
        let sent = Array(recorder.requests.dropFirst(before.sent))
        try context.expect(
            sent.count <= requestLimit,
            "item(at:) sent \(sent.count) requests to a server refusing every one (at most \(requestLimit)): \(sent.prefix(12).map(\.summary))")
        let error: any Error
        switch outcome {
        case .success: throw ConformanceFailure("item(at:) succeeded although the server answered 401 to every request")
        case .failure(let thrown): error = thrown
        }
        guard let providerError = error as? ProviderError else {
            throw ConformanceFailure("item(at:) threw \(type(of: error)), not ProviderError .unauthorized")
        }
        try context.expect(providerError.code == .unauthorized, "item(at:) threw \(providerError.code), not .unauthorized")

        // Nothing the adapter signed in with is in what a user sees.
        let shown = [String(describing: providerError), providerError.message ?? "", String(reflecting: providerError)].joined(separator: "\n")
        let secretNames = Redactor.allSecretHeaders
        for request in recorder.requests {
            for (name, value) in request.headers where secretNames.contains(name.lowercased()) {
                for secret in Self.secretParts(of: value) where shown.contains(secret) {
                    throw ConformanceFailure("the error shows the value of the \(name) header a request sent")
                }
            }
        }
        context.note("\(sent.count) requests before .unauthorized")
    }

    /// The parts of a secret header's value worth looking for: the whole value and each piece of
    /// it long enough not to match by chance (a scheme's credentials, a cookie's value), or of a
    /// Digest answer only its `response` (its realm, nonce and uri are no secret, and the uri is in
    /// any error's request line).
    static func secretParts(of value: String) -> [String] {
        if value.lowercased().hasPrefix("digest ") {
            return (try? AuthChallenge.parse([value]).first?["response"]).flatMap { $0 }.map { [$0] } ?? []
        }
        var parts = [value]
        for piece in value.split(whereSeparator: { " ;,".contains($0) }).map(String.init) {
            parts.append(piece.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
            if let equals = piece.firstIndex(of: "=") {
                parts.append(String(piece[piece.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
            }
        }
        return parts.filter { $0.count >= 12 }
    }
}
