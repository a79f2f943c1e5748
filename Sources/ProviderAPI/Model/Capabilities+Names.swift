import Foundation

extension Capabilities.Features: CustomStringConvertible {
    /// Every named feature with its name as written in code (`search` for ``search``), in declaration order.
    package static let named: [(feature: Capabilities.Features, name: String)] = [
        (.paging, "paging"), (.rangeDownload, "rangeDownload"), (.resumeDownload, "resumeDownload"),
        (.preconditions, "preconditions"), (.exclusiveCreate, "exclusiveCreate"), (.move, "move"), (.copy, "copy"),
        (.setModifiedTime, "setModifiedTime"), (.etags, "etags"), (.digests, "digests"), (.mimeTypes, "mimeTypes"),
        (.stableIDs, "stableIDs"), (.search, "search"), (.fullTextSearch, "fullTextSearch"), (.shares, "shares"),
        (.changes, "changes"), (.quota, "quota"), (.emptyFolders, "emptyFolders"), (.permissions, "permissions"),
        (.recursiveETags, "recursiveETags"),
    ]

    /// The features as written in code, such as `.search, .fullTextSearch`; unnamed bits as `.rawValue(N)`.
    public var description: String {
        var names = Self.named.filter { contains($0.feature) }.map { "." + $0.name }
        let known = Self.named.reduce(into: Capabilities.Features()) { $0.formUnion($1.feature) }
        let unknown = subtracting(known)
        if !unknown.isEmpty { names.append(".rawValue(\(unknown.rawValue))") }
        return names.joined(separator: ", ")
    }
}
