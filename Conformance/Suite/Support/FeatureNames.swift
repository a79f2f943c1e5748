import ProviderAPI

/// Names of ``Capabilities/Features`` for reports, as written in code (`.search`).
public enum FeatureNames {
    /// Every feature with its name, in declaration order.
    public static let all: [(feature: Capabilities.Features, name: String)] = [
        (.paging, "paging"), (.rangeDownload, "rangeDownload"), (.resumeDownload, "resumeDownload"),
        (.preconditions, "preconditions"), (.exclusiveCreate, "exclusiveCreate"), (.move, "move"), (.copy, "copy"),
        (.setModifiedTime, "setModifiedTime"), (.etags, "etags"), (.digests, "digests"), (.mimeTypes, "mimeTypes"),
        (.stableIDs, "stableIDs"), (.search, "search"), (.fullTextSearch, "fullTextSearch"), (.shares, "shares"),
        (.changes, "changes"), (.quota, "quota"), (.emptyFolders, "emptyFolders"), (.permissions, "permissions"),
    ]

    /// The names of the features in `features`, such as `.search, .fullTextSearch`.
    public static func list(_ features: Capabilities.Features) -> String {
        var names = all.filter { features.contains($0.feature) }.map { "." + $0.name }
        let known = all.reduce(into: Capabilities.Features()) { $0.formUnion($1.feature) }
        let unknown = features.subtracting(known)
        if !unknown.isEmpty { names.append(".rawValue(\(unknown.rawValue))") }
        return names.joined(separator: ", ")
    }
}
