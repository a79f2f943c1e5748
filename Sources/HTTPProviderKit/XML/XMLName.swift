/// An element name as ``XMLByteReader`` reports it: its namespace URI (empty for none) and its
/// local name, the prefix resolved away.
package struct XMLName: Hashable, Sendable, CustomStringConvertible {
    /// The namespace URI, such as `DAV:`; empty when the name is in no namespace.
    package var namespace: String
    /// The local name, such as `getetag`.
    package var name: String

    /// Creates a name.
    package init(_ namespace: String, _ name: String) {
        self.namespace = namespace
        self.name = name
    }

    /// `{namespace}name`, Clark notation.
    package var description: String { "{\(namespace)}\(name)" }
}
