import Foundation
import HTTPProviderKit
import ProviderAPI

/// Reads the message of a WebDAV error body (`<d:error><s:message>…`) as sabre/dav,
/// ownCloud and Nextcloud send it; other bodies (HTML pages) give `nil`.
package enum DAVErrorBody {
    package struct Parsed {
        package var message: String?
        package var exception: String?
        /// Names of the DAV:error precondition elements (`lock-token-submitted`, …).
        package var conditions: [String]
    }

    /// Longest message or exception kept, in characters.
    static let maxText = 4096

    /// The `DAV:error` document in `data`, or `nil` when it is not one or is malformed before
    /// its root element closes. The message is a courtesy to the user, so the body is read as
    /// leniently as that allows: one cut short (error bodies are read up to a limit) gives what
    /// was complete before the cut, and whatever follows the root element is not read.
    package static func parse(_ data: Data) -> Parsed? {
        let delegate = Delegate()
        let reader = XMLByteReader(delegate: delegate, maxDepth: 32, maxTextLength: 16 << 20)
        do {
            try data.withUnsafeBytes { try reader.feed($0) }
            // A body that ends early is read as far as it went.
            try? reader.finish()
        } catch {
            // Malformed inside the root element: nothing is trusted. After it: ignored.
            guard reader.isComplete else { return nil }
        }
        guard delegate.isError else { return nil }
        return Parsed(message: delegate.message, exception: delegate.exception, conditions: delegate.conditions)
    }

    private final class Delegate: XMLByteReaderDelegate {
        var isError = false
        var message: String?
        var exception: String?
        var conditions: [String] = []

        func didStart(_ name: XMLName, reader: XMLByteReader) throws {
            if reader.depth == 1 { isError = name.namespace == "DAV:" && name.name == "error" }
            if reader.depth == 2, name.namespace == "DAV:" { conditions.append(name.name) }
        }

        func didEnd(_ name: XMLName, reader: XMLByteReader) throws {
            guard reader.depth == 2, name.name == "message" || name.name == "exception" else { return }
            let value = String(reader.rawText.prefix(DAVErrorBody.maxText)).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !value.isEmpty else { return }
            if name.name == "message" { message = value } else { exception = value }
        }
    }
}
