import Foundation
import ProviderAPI
import HTTPProviderKit

/// What a write (`mkdir`, `rename`, `copy`, `move`, `delete`, `upload`, …) answered.
public struct PydioChange: Sendable, Hashable {
    /// The `SUCCESS` message, when the server sent one.
    public var message: String?
    /// Nodes created (`<nodes_diff><add>`).
    public var added: [PydioNode]
    /// Nodes changed or moved (`<update>`, with `original_path` for a move).
    public var updated: [PydioNode]
    /// Paths removed (`<remove>`).
    public var removed: [String]
    /// Whether the server only acknowledged a background task (`<consume_channel/>` with no
    /// message and no diff): the change shows a little later.
    public var isPending: Bool

    /// Reads a `<tree>` answer that is not an error.
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` for a node whose size or time is out of range.
    package init(_ root: XMLElementTree) throws {
        message = root.children.first { $0.name == "message" && $0.attributes["type"] == "SUCCESS" }?.text
        let diff = root.child("nodes_diff")
        added = try diff?.children(named: "add").flatMap { try $0.children.compactMap { try PydioNode($0) } } ?? []
        updated = try diff?.children(named: "update").flatMap { try $0.children.compactMap { try PydioNode($0) } } ?? []
        removed = diff?.children(named: "remove").flatMap { $0.children.compactMap { $0.attributes["filename"] } } ?? []
        isPending = message == nil && diff == nil && root.child("consume_channel") != nil
    }
}

/// What `login` answered: `logging_result` with its value and, on success, the secure token.
public struct PydioLoginResult: Sendable, Hashable {
    /// `1` success, `-1` bad credentials, `-4` captcha required, `2` logged out, …
    public var value: Int
    /// The secure token to send with every later call.
    public var secureToken: String?
}

/// What `get_seed` answered.
public enum PydioSeed: Sendable, Hashable {
    /// A seed: `-1` to send the password as it is, else the hashing seed.
    case seed(String)
    /// The server suspects brute force: the next login needs a captcha.
    case captchaRequired(seed: String)
}
