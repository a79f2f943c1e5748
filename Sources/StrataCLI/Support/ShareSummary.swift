import Foundation
import ProviderAPI

/// A share as `strata shares` prints it: flat fields, in text or JSON.
struct ShareSummary: Encodable {
    var id: String
    var path: String
    var kind: String
    var recipient: String?
    var permissions: [String]
    var url: URL?
    /// Where the shared file's bytes download without credentials, for a public link on a file.
    var downloadURL: URL?
    var expires: Date?
    var passwordProtected: Bool
    var properties: [String: String]

    init(_ share: Share) {
        id = share.id
        path = share.path.description
        kind = share.kind.tag.rawValue
        switch share.kind {
        case .publicLink: recipient = nil
        case .user(let name), .group(let name), .email(let name): recipient = name
        }
        let names: [(SharePermissions, String)] = [
            (.read, "read"), (.write, "write"), (.create, "create"), (.delete, "delete"), (.reshare, "reshare"),
        ]
        permissions = names.filter { share.permissions.contains($0.0) }.map(\.1)
        url = share.url
        downloadURL = share.downloadURL
        expires = share.expires
        passwordProtected = share.passwordProtected
        properties = share.properties
    }

    /// One line: id, who, permissions, expiry, link, `password` when protected, the direct download link.
    var line: String {
        var fields = [id, recipient.map { "\(kind):\($0)" } ?? kind, permissions.joined(separator: ",")]
        fields.append(expires.map { "expires " + Output.date($0) } ?? "no expiry")
        if let url { fields.append(url.absoluteString) }
        if passwordProtected { fields.append("password") }
        if let downloadURL, downloadURL != url { fields.append(downloadURL.absoluteString) }
        return fields.map(TerminalText.escape).joined(separator: "\t")
    }
}
