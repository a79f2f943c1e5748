import Crypto
import Foundation

/// The files_sharing OCS API (`apps/files_sharing/api/v1/shares[/<id>]`): list, get, create,
/// update, delete, with ownCloud 10's or Nextcloud's messages.
struct ShareAPI {
    let core: ServerCore
    let user: String
    let params: [String: String]

    var nc: Bool { core.isNextcloud }

    func handle(method: String, id: String?, query: ServerRequest) -> OCSAnswer {
        switch (method, id) {
        case ("GET", nil): return list()
        case ("POST", nil): return create()
        case ("GET", let id?): return get(id)
        case ("PUT", let id?): return update(id)
        case ("DELETE", let id?): return delete(id)
        default: return .failure(nc ? 405 : 400, "Method not allowed")
        }
    }

    private var okMessage: String? { nc ? "OK" : nil }
    private var wrongID: OCSAnswer { .failure(404, nc ? "Wrong share ID, share doesn't exist" : "wrong share ID, share doesn't exist.") }
    private var wrongPath: OCSAnswer { .failure(404, nc ? "Wrong path, file/folder doesn't exist" : "wrong path, file/folder doesn't exist") }

    private func flag(_ name: String) -> Bool {
        guard let value = params[name]?.lowercased() else { return false }
        return value == "true" || value == "1" || value == "yes"
    }

    private func list() -> OCSAnswer {
        core.withState { state in
            let renderer = ShareRenderer(core: core, state: state, viewer: user)
            if flag("shared_with_me") {
                let groups = Set(core.configuration.groups.filter { $0.value.contains(user) }.keys)
                let received = state.shares.sorted { share in
                    (share.type == 0 && share.shareWith == user) || (share.type == 1 && groups.contains(share.shareWith ?? ""))
                }
                return .ok(.array(received.compactMap { renderer.render($0, received: true) }), message: okMessage)
            }
            guard let path = params["path"], !path.isEmpty else {
                return .ok(.array(state.shares.sorted { $0.owner == user }.compactMap { renderer.render($0) }), message: okMessage)
            }
            _ = state.files.root(of: user, now: ServerCore.now)
            guard let id = state.locate(user: user, NextcloudTestServer.components(path).map(\.precomposedStringWithCanonicalMapping), groups: core.configuration.groups)?.id else {
                return wrongPath
            }
            if flag("subfiles") {
                guard state.files.nodes[id]?.isFolder == true else { return .failure(400, nc ? "Not a directory" : "not a directory") }
                let inside = state.shares.sorted { $0.owner == user && state.files.nodes[$0.fileID]?.parent == id }
                return .ok(.array(inside.compactMap { renderer.render($0) }), message: okMessage)
            }
            let onPath = state.shares.sorted { $0.owner == user && $0.fileID == id }
            return .ok(.array(onPath.compactMap { renderer.render($0) }), message: okMessage)
        }
    }

    private func find(_ id: String, _ state: ServerState) -> StoredShare? {
        guard let number = Int(id), let share = state.shares.shares[number] else { return nil }
        let groups = Set(core.configuration.groups.filter { $0.value.contains(user) }.keys)
        let visible = share.owner == user || share.shareWith == user || (share.type == 1 && groups.contains(share.shareWith ?? ""))
        return visible ? share : nil
    }

    private func get(_ id: String) -> OCSAnswer {
        core.withState { state in
            guard let share = find(id, state), let value = ShareRenderer(core: core, state: state, viewer: user).render(share, received: share.owner != user)
            else { return wrongID }
            return .ok(.array([value]), message: okMessage)
        }
    }

    private func create() -> OCSAnswer {
        guard let path = params["path"], !path.isEmpty else {
            return .failure(404, nc ? "Please specify a file or folder path" : "please specify a file or folder path")
        }
        return core.withState { state -> OCSAnswer in
            let parts = NextcloudTestServer.components(path).map(\.precomposedStringWithCanonicalMapping)
            _ = state.files.root(of: user, now: ServerCore.now)
            guard !parts.isEmpty, let located = state.locate(user: user, parts, groups: core.configuration.groups),
                let node = state.files.nodes[located.id]
            else { return wrongPath }
            let fileID = located.id
            if let received = located.share, received.permissions & 16 == 0 {
                return .failure(403, nc ? "Cannot share: resharing is not allowed" : "cannot share: resharing is not allowed")
            }
            guard let type = params["shareType"].flatMap({ Int($0) }), [0, 1, 3].contains(type) else {
                return .failure(400, nc ? "Unknown share type" : "unknown share type")
            }
            let maximum = (node.isFolder ? 31 : 19) & (located.share?.permissions ?? 31)
            var share = StoredShare(
                id: 0, type: type, owner: user, fileID: fileID, permissions: 1, stime: ServerCore.now, expiration: nil, token: nil,
                shareWith: nil, passwordHash: nil)
            switch type {
            case 0:
                guard let target = params["shareWith"], core.userExists(target), target != user else {
                    return .failure(404, nc ? "Please specify a valid user" : "please specify a valid user")
                }
                share.shareWith = target
                share.permissions = params["permissions"].flatMap { Int($0) }.map { $0 & maximum } ?? maximum
            case 1:
                guard let target = params["shareWith"], core.configuration.groups[target] != nil else {
                    return .failure(404, nc ? "Please specify a valid group" : "please specify a valid group")
                }
                share.shareWith = target
                share.permissions = params["permissions"].flatMap { Int($0) }.map { $0 & maximum } ?? maximum
            default:
                share.token = Identifiers.shareToken()
                if flag("publicUpload") {
                    guard node.isFolder else { return .failure(404, nc ? "Public upload is only possible for publicly shared folders" : "public upload is only possible for publicly shared folders") }
                    share.permissions = 15
                } else if let permissions = params["permissions"].flatMap({ Int($0) }) {
                    share.permissions = node.isFolder ? permissions & 31 : 1
                }
                if let password = params["password"], !password.isEmpty { share.passwordHash = Self.hash(password, nextcloud: nc) }
                share.name = params["name"] ?? (nc ? "" : "Public link")
                share.label = params["label"] ?? ""
            }
            if let note = params["note"] { share.note = note }
            if let date = params["expireDate"], !date.isEmpty {
                guard let expiration = Self.expiration(date) else {
                    return .failure(nc ? 404 : 400, nc ? "Invalid date, date format must be YYYY-MM-DD" : "Invalid date. Format must be YYYY-MM-DD")
                }
                share.expiration = expiration
            }
            let stored = state.shares.add(share)
            state.files.propagate(from: fileID, now: ServerCore.now, touchMtime: false)
            let renderer = ShareRenderer(core: core, state: state, viewer: user)
            return .ok(renderer.render(stored, justCreated: true) ?? .null, message: okMessage)
        }
    }

    private func update(_ id: String) -> OCSAnswer {
        core.withState { state -> OCSAnswer in
            guard var share = find(id, state), share.owner == user else { return wrongID }
            let keys = ["password", "expireDate", "permissions", "note", "label", "publicUpload", "hideDownload", "name"]
            guard keys.contains(where: { params[$0] != nil }) else {
                return .failure(400, "Wrong or no update parameter given")
            }
            let isFolder = state.files.nodes[share.fileID]?.isFolder ?? false
            if let text = params["permissions"] {
                guard let permissions = Int(text) else { return .failure(400, "Wrong or no update parameter given") }
                if share.type == 3 {
                    guard isFolder || permissions == 1 else {
                        return .failure(400, nc ? "Can't change permissions for public share links" : "can't change permission for public link share")
                    }
                    share.permissions = permissions & 31
                } else {
                    share.permissions = permissions & (isFolder ? 31 : 19)
                }
            }
            if params["publicUpload"] != nil, share.type == 3 {
                guard isFolder else { return .failure(400, nc ? "Public upload is only possible for publicly shared folders" : "public upload is only possible for publicly shared folders") }
                share.permissions = flag("publicUpload") ? 15 : 1
            }
            if let password = params["password"] {
                share.passwordHash = password.isEmpty ? nil : Self.hash(password, nextcloud: nc)
            }
            if let date = params["expireDate"] {
                if date.isEmpty {
                    share.expiration = nil
                } else {
                    guard let expiration = Self.expiration(date) else {
                        return .failure(400, nc ? "Invalid date, date format must be YYYY-MM-DD" : "Invalid date. Format must be YYYY-MM-DD")
                    }
                    share.expiration = expiration
                }
            }
            if let note = params["note"] { share.note = note }
            if let label = params["label"] { share.label = label }
            if let name = params["name"] { share.name = name }
            if params["hideDownload"] != nil { share.hideDownload = flag("hideDownload") }
            state.shares.shares[share.id] = share
            return .ok(ShareRenderer(core: core, state: state, viewer: user).render(share) ?? .null, message: okMessage)
        }
    }

    private func delete(_ id: String) -> OCSAnswer {
        core.withState { state -> OCSAnswer in
            guard let share = find(id, state), share.owner == user else { return wrongID }
            state.shares.shares[share.id] = nil
            state.files.propagate(from: share.fileID, now: ServerCore.now, touchMtime: false)
            return .ok(.array([]), message: okMessage)
        }
    }

    /// `YYYY-MM-DD` → `YYYY-MM-DD 00:00:00`.
    static func expiration(_ text: String) -> String? {
        let day = String(text.prefix(10))
        let parts = day.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]), let date = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(date), year > 1970
        else { return nil }
        return day + " 00:00:00"
    }

    /// Whether `password` matches a hash made by ``hash(_:nextcloud:)``.
    static func verify(_ password: String, hash: String) -> Bool {
        let parts = hash.split(separator: "$").map(String.init)
        let saltText: String
        let nextcloud = hash.hasPrefix("2|")
        if nextcloud {
            guard parts.count == 6 else { return false }
            saltText = parts[4]
        } else {
            guard let last = parts.last, last.count >= 22 else { return false }
            saltText = String(last.prefix(22)).replacingOccurrences(of: ".", with: "+")
        }
        let padded = saltText + String(repeating: "=", count: (4 - saltText.count % 4) % 4)
        guard let salt = Data(base64Encoded: padded) else { return false }
        return hash == Self.hash(password, nextcloud: nextcloud, salt: [UInt8](salt))
    }

    /// A stored password hash in the recorded shapes: Nextcloud `2|$argon2i$…`, ownCloud `1|$2y$10$…`
    /// (salted SHA-256 underneath; nothing reads it back but a comparison).
    static func hash(_ password: String, nextcloud: Bool, salt given: [UInt8]? = nil) -> String {
        var salt = given ?? [UInt8](repeating: 0, count: 16)
        if given == nil {
            var generator = SystemRandomNumberGenerator()
            for index in salt.indices { salt[index] = generator.next() }
        }
        let digest = SHA256.hash(data: Data(salt) + Data(password.utf8))
        let trim = { (data: Data) in data.base64EncodedString().replacingOccurrences(of: "=", with: "") }
        if nextcloud {
            return "2|$argon2i$v=19$m=65536,t=4,p=1$\(trim(Data(salt)))$\(trim(Data(digest)))"
        }
        let text = (trim(Data(salt)) + trim(Data(digest))).replacingOccurrences(of: "+", with: ".")
        return "1|$2y$10$" + String(text.prefix(53))
    }
}
