/// What an ``XMLByteReader`` reports: elements as they open and close, with namespaces
/// already resolved.
///
/// In ``didStart(_:reader:)`` the reader's text is the character data read since the last tag
/// before this start tag (inside the parent element), and ``XMLByteReader/attributes`` are the
/// new element's attributes when the reader was asked to report them; in ``didEnd(_:reader:)`` the
/// text is the character data since the last tag, the end of the element's content.
package protocol XMLByteReaderDelegate: AnyObject {
    /// An element opened (for `<a/>`, just before it closes).
    func didStart(_ name: XMLName, reader: XMLByteReader) throws
    /// An element closed.
    func didEnd(_ name: XMLName, reader: XMLByteReader) throws
}
