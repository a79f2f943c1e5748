import Foundation

/// Pydio answers for the hostile scenarios, the smallest sequence the Pydio adapter needs:
/// `get_seed` (`-1`: the password travels as is, as on the live 8.2.5 server),
/// `login` (a `logging_result` with a secure token), `get_xml_registry` (one `fs` workspace
/// `ws`), and `ls`, of a folder (`dir`) or of one node (`file`), from the scenario.
public enum HostilePydio {
    /// The workspace slug served.
    public static let workspace = "ws"
    /// The secure token handed out at login.
    public static let token = "HOSTILETOKEN"

    /// One node of a listing.
    public struct Node: Sendable {
        /// The path inside the workspace (`/a.txt`).
        public var path: String
        /// Whether it is a file.
        public var isFile: Bool
        /// `bytesize`.
        public var size: String
        /// `ajxp_modiftime`.
        public var modified: String

        /// A node.
        public init(path: String, isFile: Bool = true, size: String = "10", modified: String = "1672653600") {
            self.path = path
            self.isFile = isFile
            self.size = size
            self.modified = modified
        }
    }

    /// The `get_action` of a request: in the query, else in the form body.
    public static func action(_ request: HostileRequest) -> String? {
        request.queryItems["get_action"] ?? request.formItems["get_action"]
    }

    /// Signs in and lists: `get_seed`, `login` and `get_xml_registry` answered as a Pydio 8
    /// server, `ls` sent to `ls` (with the request's `dir` or `file`), everything else to `other`.
    /// Requests outside `/pydio/index.php` are 404.
    public static func route(
        login: (@Sendable (HostileRequest, HostileContext) -> HostileResponse)? = nil,
        ls: @escaping @Sendable (HostileRequest, HostileContext) -> HostileResponse,
        other: (@Sendable (HostileRequest, HostileContext) -> HostileResponse)? = nil
    ) -> @Sendable (HostileRequest, HostileContext) -> HostileResponse {
        { request, context in
            guard request.path == "/pydio/index.php" else { return .text(404, "not found") }
            switch action(request) {
            case "get_seed":
                return .text(200, "-1")
            case "login":
                if let login { return login(request, context) }
                return xml(#"<tree ><logging_result value="1" secure_token="\#(token)"/></tree>"#)
            case "get_xml_registry":
                return xml(
                    #"<ajxp_registry_part xPath="user/repositories" ><repositories><repo access_type="fs" id="1" "#
                        + #"repositorySlug="\#(workspace)" acl="rw"><label>Hostile</label></repo></repositories></ajxp_registry_part>"#)
            case "ls":
                return ls(request, context)
            default:
                if let other { return other(request, context) }
                return xml(#"<tree><message type="ERROR">unknown action</message></tree>"#)
            }
        }
    }

    /// An `ls` answer: the folder `folder`, an optional `<pagination>`, and `children`.
    public static func listing(folder: String, children: [Node], page: (current: Int, total: Int)? = nil) -> HostileResponse {
        var text = #"<tree is_file="false" filename="\#(folder)" text="" ajxp_mime="ajxp_folder" file_perms="0755" "#
            + #"ajxp_modiftime="1672653600" bytesize="0">"#
        if let page {
            text += #"<pagination count="\#(page.total * max(1, children.count))" total="\#(page.total)" current="\#(page.current)" "#
                + #"overflowMessage="\#(page.current)/\#(page.total)"/>"#
        }
        for node in children { text += self.node(node) }
        text += "</tree>"
        return xml(text)
    }

    /// A `<tree …/>` node element.
    public static func node(_ node: Node) -> String {
        let name = node.path.split(separator: "/").last.map(String.init) ?? ""
        return #"<tree is_file="\#(node.isFile)" filename="\#(escape(node.path))" text="\#(escape(name))" "#
            + #"file_perms="0644" ajxp_modiftime="\#(escape(node.modified))" bytesize="\#(escape(node.size))"/>"#
    }

    /// An XML answer with the declaration Pydio sends.
    public static func xml(_ body: String) -> HostileResponse {
        .complete(
            200, headers: [("Content-Type", "text/xml; charset=UTF-8")],
            body: Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8) + Array(body.utf8))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
    }
}
