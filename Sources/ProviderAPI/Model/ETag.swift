/// Entity tags compared as HTTP compares them (RFC 9110, section 8.8.3.2).
///
/// A weak tag (`W/"…"`) names content that is equivalent, not byte for byte the same, and some
/// servers give the same file a weak tag first and a strong one later: Apache marks the etag of a
/// file changed within the last second weak, and the same tag turns strong a second later. So
/// "is this still the version I saw" compares tags weakly (``weaklyEqual(_:_:)``), while a
/// precondition sent to a server (`If-Match`) needs a strong tag (``isWeak(_:)``): the server
/// compares strongly and a weak tag never matches.
package enum ETag {
    /// Whether `tag` is weak (`W/"…"`).
    package static func isWeak(_ tag: String) -> Bool { tag.hasPrefix("W/") }

    /// `tag` without its weakness indicator: the opaque part that both comparisons look at.
    package static func opaque(_ tag: String) -> Substring { isWeak(tag) ? tag.dropFirst(2) : Substring(tag) }

    /// The weak comparison: the same opaque tag, whether either is weak or not.
    package static func weaklyEqual(_ one: String, _ other: String) -> Bool { opaque(one) == opaque(other) }

    /// The strong comparison: both strong and the same.
    package static func stronglyEqual(_ one: String, _ other: String) -> Bool { !isWeak(one) && !isWeak(other) && one == other }
}
