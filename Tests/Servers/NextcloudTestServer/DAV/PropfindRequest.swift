import Foundation

/// What a PROPFIND (or SEARCH `d:select`) asks for.
enum PropfindRequest {
    case allprop
    case props([QName])

    /// Reads a PROPFIND body; an empty body is `allprop`.
    static func parse(_ body: Data) throws -> PropfindRequest {
        if body.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) { return .allprop }
        let root = try DAVElement.parse(body)
        guard root.name == .d("propfind") else { throw SabreError.badRequest("The root element of a PROPFIND must be {DAV:}propfind") }
        if let prop = root.child(.d("prop")) { return .props(prop.children.map(\.name)) }
        return .allprop
    }

    /// The properties of one node, split into found (200) and missing (404) as Sabre answers.
    func split(_ node: FileNode, context: PropertyContext, isRoot: Bool) -> (found: [(QName, PropValue)], missing: [QName]) {
        switch self {
        case .allprop:
            var found: [(QName, PropValue)] = []
            var missing: [QName] = []
            for name in PropertyContext.allprop {
                if let value = context.value(name, of: node) { found.append((name, value)) } else { missing.append(name) }
            }
            return (found, isRoot ? [] : missing)
        case .props(let names):
            var found: [(QName, PropValue)] = []
            var missing: [QName] = []
            for name in names where !context.isOmitted(name, node) {
                if let value = context.value(name, of: node) { found.append((name, value)) } else { missing.append(name) }
            }
            return (found, missing)
        }
    }
}
