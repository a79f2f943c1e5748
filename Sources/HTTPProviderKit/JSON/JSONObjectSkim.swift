import ProviderAPI

/// The top-level members of a JSON object, read without building the arrays and objects nested
/// in them: their strings, numbers, booleans and nulls as ``JSONValue``s, their arrays and
/// objects as a count of elements or members.
///
/// A skim is what a pager reads of a big page before decoding it whole: the paging members
/// (`isNextPageAvailable`, `resultsCount`, …) and the number of entries, in a fraction of the
/// time the whole tree takes, so that the next page can be asked for while this one is decoded.
/// Made by ``JSONByteReader/skimObject(from:maximumDepth:)``, which reads every top-level value
/// of the skim as strictly as `JSONByteReader` does, but steps over nested containers by their
/// brackets and strings only: a document the skim accepts may still be malformed inside a
/// container, so the skim is advice, and the whole read stays the authority on what the
/// document says.
///
/// ```swift
/// if let skim = JSONByteReader.skimObject(from: body), case .value(.bool(true)) = skim["isNextPageAvailable"] {
///     startNextPage()
/// }
/// let page = try JSONByteReader.value(from: body)
/// ```
package struct JSONObjectSkim: Sendable, Hashable {
    /// One top-level member.
    package enum Member: Sendable, Hashable {
        /// A string, number, boolean or `null`, read as `JSONByteReader` reads it.
        case value(JSONValue)
        /// An array of `count` elements.
        case array(count: Int)
        /// An object of `count` members (repeated names counted each time).
        case object(count: Int)
    }

    /// The members by name; a repeated name keeps its first value, as `JSONByteReader` does.
    package var members: [String: Member]

    /// Creates a skim of `members`.
    package init(members: [String: Member]) {
        self.members = members
    }

    /// The member `name`, if the object has one.
    package subscript(name: String) -> Member? {
        members[name]
    }

    /// The members that are strings, numbers, booleans or `null`, as ``JSONValue``s.
    package var values: [String: JSONValue] {
        members.compactMapValues { member in
            if case .value(let value) = member { return value }
            return nil
        }
    }
}
