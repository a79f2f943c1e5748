import Foundation
import Hummingbird

extension PydioRouter {
    /// `GET /public/<hash>/dl/<name>` (also `?dl=true`): the shared file's
    /// bytes; unknown, expired or exhausted links → 404; a password link
    /// wants `password=` (or Basic credentials with that password) → else 401.
    func publicDownload(_ req: ActionRequest, hash: String, name: String?) -> Response {
        let notFound = Reply.bytes(Data("<html><body><h1>Not Found</h1></body></html>".utf8), status: 404,
                                   headers: [("Content-Type", "text/html; charset=UTF-8")])
        let found: (ShareStore.Link, StoredNode)? = core.withState { state in
            guard let link = state.shares.links[hash], let node = state.workspaces[link.workspace]?[link.path], !node.isFolder else {
                return nil
            }
            return (link, node)
        }
        guard let (link, node) = found, !ShareJSON.isExpired(link, now: UnixTime.now) else { return notFound }
        guard name != nil || req.param("dl") == "true" else {
            let html = "<html><head><title>\(XMLText.escape(PathTools.name(link.path)))</title></head><body></body></html>"
            return Reply.bytes(Data(html.utf8), headers: [("Content-Type", "text/html; charset=UTF-8")])
        }
        if let password = link.password, !offered(req).contains(password) {
            return Reply.bytes(Data("<html><body>Password required</body></html>".utf8), status: 401,
                               headers: [("Content-Type", "text/html; charset=UTF-8")])
        }
        core.withState { $0.shares.countDownload(hash) }
        return FileServing.serve(name: PathTools.name(link.path), data: node.data, mtime: node.mtime,
                                 range: req.header("Range"), dropAfter: core.faults.takeDownloadDrop())
    }

    /// Passwords a public request offers: `password`/`pass` params and Basic credentials.
    private func offered(_ req: ActionRequest) -> [String] {
        var values = [req.param("password"), req.param("pass")].compactMap { $0 }
        if let auth = req.header("Authorization"), auth.lowercased().hasPrefix("basic "),
           let data = Data(base64Encoded: String(auth.dropFirst(6))),
           let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":") {
            values.append(String(text[text.index(after: colon)...]))
        }
        return values
    }
}
