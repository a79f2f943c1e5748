/// The properties of a `propstat` or of a listing entry, in document order, each name once.
///
/// Short lists (the usual 4–10 properties) are searched linearly, which is cheaper than hashing
/// every name; past ``indexThreshold`` entries a dictionary from name to position is kept, so a
/// server answering thousands of distinct properties costs linear time, not quadratic.
struct PropertyList {
    /// The entries, in the order their names first came.
    private(set) var items: [(name: DAVPropertyName, value: DAVPropertyValue)] = []
    /// Each name's position in ``items``, kept once ``items`` is longer than ``indexThreshold``.
    private var positions: [DAVPropertyName: Int] = [:]
    static let indexThreshold = 16

    /// Empties the list, keeping its storage.
    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
    }

    /// Sets the value of `name`: replaced in place when present (a name given twice keeps its last
    /// value, as a dictionary would), else appended.
    mutating func set(_ name: DAVPropertyName, _ value: DAVPropertyValue) {
        if let index = position(of: name) {
            items[index].value = value
        } else {
            append(name, value)
        }
    }

    /// Appends `name` unless it is present (the first value stays).
    mutating func add(_ name: DAVPropertyName, _ value: DAVPropertyValue) {
        if position(of: name) == nil { append(name, value) }
    }

    private func position(of name: DAVPropertyName) -> Int? {
        items.count > Self.indexThreshold ? positions[name] : items.firstIndex { $0.name == name }
    }

    private mutating func append(_ name: DAVPropertyName, _ value: DAVPropertyValue) {
        items.append((name, value))
        if items.count > Self.indexThreshold {
            if positions.isEmpty {
                for (index, item) in items.enumerated() { positions[item.name] = index }
            } else {
                positions[name] = items.count - 1
            }
        }
    }
}
