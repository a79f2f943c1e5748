import Foundation
import NIOCore
import ProviderAPI
import ProviderKit
import HTTPProviderKit

/// What a Nuxeo token is acquired for: the token servlet's `applicationName`, `deviceId`,
/// `deviceDescription` and `permission`. The server hands back the same token for the same
/// user, application and device, so a stable ``deviceId`` avoids piling up tokens.
package struct NuxeoTokenRequest: Sendable, Hashable {
    /// The application name shown to the user in Nuxeo's token list.
    package var application: String
    /// A stable id of this device.
    package var deviceId: String
    /// A description of the device, shown to the user.
    package var deviceDescription: String?
    /// The permission asked for (`rw`, `r`, `ReadWrite`; stored, not enforced, by the server).
    package var permission: String

    /// Creates a request; the default device id is derived from the host name and user, so it is stable.
    package init(application: String = "Strata", deviceId: String? = nil, deviceDescription: String? = nil, permission: String = "rw", user: String? = nil) {
        self.application = application
        self.deviceId = deviceId ?? Self.stableDeviceId(user: user, application: application)
        self.deviceDescription = deviceDescription ?? ProcessInfo.processInfo.hostName
        self.permission = permission
    }

    /// A UUID-shaped id from the host name, user and application.
    static func stableDeviceId(user: String?, application: String) -> String {
        let seed = "\(ProcessInfo.processInfo.hostName)|\(user ?? "")|\(application)"
        let hex = Digester.hex(.sha256, of: Array(seed.utf8)) ?? String(repeating: "0", count: 64)
        let chars = Array(hex.prefix(32))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
    }
}

extension NuxeoClient {
    /// Acquires a token from the token servlet, authenticated by `executor` (usually Basic).
    ///
    /// Only a `201` with a single-line body is a token: a proxy or login page that answers
    /// with HTML is `unauthorized`, as the Python client treats it.
    package static func acquireToken(
        _ request: NuxeoTokenRequest, baseURL: URL, executor: RequestExecutor, catalog: RequestTemplateCatalog? = nil
    ) async throws -> String {
        var executor = executor
        executor.defaultHeaders.replaceOrAdd(name: "X-No-Basic-Header", value: "true")
        let templates = RequestTemplateExecutor(
            executor: executor, baseURL: baseURL, catalog: try catalog ?? NuxeoEndpoints.standard(),
            errorMapper: { head, body in
                NuxeoErrorMapper.error(status: head.status, body: Data(body.readableBytesView), request: head.request)
            })
        var arguments: [String: JSONValue] = [
            "application": .string(request.application), "device": .string(request.deviceId),
            "permission": .string(request.permission),
        ]
        if let description = request.deviceDescription { arguments["deviceDescription"] = .string(description) }
        let body = try await templates.execute("tokenAcquire", arguments: TemplateArguments(named: arguments), as: ByteBuffer.self)
        let text = String(decoding: body.readableBytesView, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, !text.contains("\n"), !text.contains("<"), text.utf8.count <= 512 else {
            throw ProviderError(.unauthorized, "the token servlet did not answer with a token")
        }
        return text
    }

    /// Revokes the token of `request`'s application and device.
    package func revokeToken(_ request: NuxeoTokenRequest) async throws {
        _ = try await templates.execute(
            "tokenRevoke", arguments: ["application": .string(request.application), "device": .string(request.deviceId)],
            as: Void.self)
    }
}
