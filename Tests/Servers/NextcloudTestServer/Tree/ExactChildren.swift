/// A folder's children by the exact bytes of their names, as Nextcloud on a Linux disk keeps
/// them: `café` in NFC and in NFD are two children (a `[String: Int64]` took them for one and
/// refused the second, while the provider declares names byte-exact).
struct ExactChildren: Sendable, ExpressibleByDictionaryLiteral, Sequence {
    private var byName: [[UInt8]: (name: String, id: Int64)] = [:]

    init(dictionaryLiteral elements: (String, Int64)...) {
        for (name, id) in elements { self[name] = id }
    }

    /// The child named exactly `name`.
    subscript(name: String) -> Int64? {
        get { byName[Array(name.utf8)]?.id }
        set { byName[Array(name.utf8)] = newValue.map { (name, $0) } }
    }

    /// The names, each as stored.
    var keys: [String] { byName.values.map(\.name) }
    /// The children's ids.
    var values: [Int64] { byName.values.map(\.id) }
    var isEmpty: Bool { byName.isEmpty }
    var count: Int { byName.count }

    /// The children as (name, id).
    func makeIterator() -> IndexingIterator<[(name: String, id: Int64)]> { Array(byName.values).makeIterator() }
}
