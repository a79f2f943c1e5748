import Foundation
import ProviderAPI
import HTTPProviderKit

/// Maps OCS Share API objects (`share_type`, `permissions`, `expiration`, …) to portable
/// `Share` values and `ShareRequest`s to OCS parameters.
///
/// OCS share types: 0 user, 1 group, 3 public link, 4 e-mail, 6 federated. OCS permissions
/// are a bit field: 1 read, 2 update, 4 create, 8 delete, 16 share.
package enum OCSShareMapper {
    /// The OCS `shareType` of a portable kind.
    package static func shareType(_ kind: ShareKind) -> Int {
        switch kind {
        case .user: return 0
        case .group: return 1
        case .publicLink: return 3
        case .email: return 4
        }
    }

    /// The OCS permission bits of portable permissions (read is always included).
    package static func bits(_ permissions: SharePermissions) -> Int {
        var bits = 1
        if permissions.contains(.write) { bits |= 2 }
        if permissions.contains(.create) { bits |= 4 }
        if permissions.contains(.delete) { bits |= 8 }
        if permissions.contains(.reshare) { bits |= 16 }
        return bits
    }

    /// Portable permissions of OCS permission bits.
    package static func permissions(_ bits: Int) -> SharePermissions {
        var permissions: SharePermissions = []
        if bits & 1 != 0 { permissions.insert(.read) }
        if bits & 2 != 0 { permissions.insert(.write) }
        if bits & 4 != 0 { permissions.insert(.create) }
        if bits & 8 != 0 { permissions.insert(.delete) }
        if bits & 16 != 0 { permissions.insert(.reshare) }
        return permissions
    }

    /// `2020-12-04 00:00:00` (server time, read as UTC) or `2020-12-04`.
    package static func date(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 10 else { return nil }
        let day = trimmed.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard day.count == 3 else { return nil }
        var time = [0, 0, 0]
        if trimmed.count >= 19 {
            let parts = trimmed.dropFirst(11).prefix(8).split(separator: ":").compactMap { Int($0) }
            if parts.count == 3 { time = parts }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(from: DateComponents(
            year: day[0], month: day[1], day: day[2], hour: time[0], minute: time[1], second: time[2]))
    }

    /// `YYYY-MM-DD` in UTC, as `expireDate` takes it.
    package static func expireDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let pad = { (value: Int?, width: Int) -> String in
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
    }

    /// A share from one OCS share object; `path` maps the server's user-relative path
    /// (`/Photos/Paris.jpg`) to the provider's item path, `nil` when it lies outside the provider's root.
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` when the object has no id or share type.
    package static func share(_ object: JSONValue, path: (String) throws -> ItemPath?) throws -> Share? {
        guard let id = object["id"]?.stringValue, !id.isEmpty, let type = object["share_type"]?.intValue else {
            throw ProviderError(.invalidResponse, "an OCS share without an id or share_type")
        }
        guard let serverPath = object["path"]?.stringValue, let itemPath = try path(serverPath) else { return nil }
        let recipient = object["share_with"]?.stringValue ?? ""
        let password = object["password"]?.stringValue ?? ""
        let kind: ShareKind
        var protected = !password.isEmpty
        switch type {
        case 0: kind = .user(recipient)
        case 1: kind = .group(recipient)
        case 3:
            kind = .publicLink
            // ownCloud puts the password hash in share_with for links.
            if !recipient.isEmpty { protected = true }
        case 4: kind = .email(recipient)
        default: kind = .user(recipient)
        }
        var properties: [String: String] = ["share_type": String(type)]
        for key in ["uid_owner", "token", "name", "label", "note", "item_type", "mimetype", "share_with_displayname", "file_target"] {
            if let value = object[key]?.stringValue, !value.isEmpty { properties[key] = value }
        }
        if let source = object["file_source"]?.stringValue ?? object["item_source"]?.stringValue { properties["file_source"] = source }
        let url = object["url"]?.stringValue.flatMap { $0.isEmpty ? nil : URL(string: $0) }
        // A link's `url` is its page (`/s/TOKEN`); a file's bytes are at `/s/TOKEN/download`.
        let download = type == 3 && properties["item_type"] == "file" ? url.flatMap(downloadURL) : nil
        return Share(
            id: id, path: itemPath, kind: kind, permissions: permissions(object["permissions"]?.intValue ?? 1), url: url,
            downloadURL: download, expires: object["expiration"]?.stringValue.flatMap(date), passwordProtected: protected, properties: properties)
    }

    /// The direct download of a link page `…/s/TOKEN`: `…/s/TOKEN/download`.
    static func downloadURL(_ page: URL) -> URL? {
        var text = page.absoluteString
        guard !text.contains("?"), !text.contains("#") else { return nil }
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/download")
    }

    /// The shares in an OCS `data` value: an array, a single object, or (OCS v1 XML) an object
    /// holding an `element` list.
    package static func shares(_ data: JSONValue, path: (String) throws -> ItemPath?) throws -> [Share] {
        let objects: [JSONValue]
        switch data {
        case .array(let list): objects = list
        case .object(let members):
            if let element = members["element"] {
                objects = element.arrayValue ?? [element]
            } else if members.isEmpty {
                objects = []
            } else {
                objects = [data]
            }
        case .string(let text) where text.isEmpty: objects = []
        case .null: objects = []
        default: throw ProviderError(.invalidResponse, "OCS share data of an unexpected shape")
        }
        return try objects.compactMap { try share($0, path: path) }
    }

    /// The form parameters that create `request` on the server path `path`.
    package static func createParameters(_ request: ShareRequest, path: String) -> [(String, String)] {
        var parameters: [(String, String)] = [("path", path), ("shareType", String(shareType(request.kind)))]
        switch request.kind {
        case .user(let name), .group(let name), .email(let name): parameters.append(("shareWith", name))
        case .publicLink: break
        }
        parameters.append(("permissions", String(bits(request.permissions))))
        if let password = request.password { parameters.append(("password", password)) }
        if let expires = request.expires { parameters.append(("expireDate", expireDate(expires))) }
        if let note = request.note { parameters.append(("note", note)) }
        return parameters
    }
}
