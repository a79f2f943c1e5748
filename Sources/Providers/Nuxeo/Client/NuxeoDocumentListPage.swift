import Foundation
import NIOCore
import ProviderAPI
import HTTPProviderKit

/// A page of documents as it arrived, with what it says of the pages after it read first: the
/// answer of ``NuxeoClient/childrenPage(of:page:pageSize:enrichers:)``.
///
/// Its ``paging`` is read from a skim of the body (`JSONByteReader.skimObject(from:maximumDepth:)`),
/// which costs a fraction of decoding the entries, so a listing can ask for the next page as soon
/// as this one arrives and decode this one (``list()``) while the next is on its way. A body the
/// skim cannot read is decoded whole at once instead, and its paging taken from the decoded page.
package struct NuxeoDocumentListPage: Sendable {
    private enum Content: Sendable {
        case body(ByteBuffer, decode: @Sendable (ByteBuffer) throws -> NuxeoDocumentList)
        case decoded(NuxeoDocumentList)
    }

    private let content: Content
    /// What the page says of the pages after it: from the skim, or from the decoded page.
    package let paging: NuxeoDocumentList.Paging

    /// A page whose `body` is decoded by `decode` when ``list()`` is called: its paging is read
    /// from a skim of the body, or, when the skim cannot tell it, from `decode` at once.
    init(body: ByteBuffer, decode: @escaping @Sendable (ByteBuffer) throws -> NuxeoDocumentList) throws {
        if let skim = JSONByteReader.skimObject(from: body, maximumDepth: NuxeoJSON.maximumDepth),
           let paging = NuxeoDocumentList.Paging(skim: skim) {
            self.paging = paging
            content = .body(body, decode: decode)
        } else {
            let list = try decode(body)
            paging = list.paging
            content = .decoded(list)
        }
    }

    /// The whole page, decoded (each call decodes the body again: call it once).
    ///
    /// Its ``NuxeoDocumentList/paging`` is the same as ``paging`` for any page the standard
    /// decoder reads; an app that registered its own `documents` decoder may change the entries,
    /// and a caller then goes by the decoded page.
    ///
    /// - Throws: `ProviderError` `invalidResponse` for a body that is not a Nuxeo `documents` entity.
    package func list() throws -> NuxeoDocumentList {
        switch content {
        case .body(let body, let decode): return try decode(body)
        case .decoded(let list): return list
        }
    }
}
