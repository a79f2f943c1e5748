import Foundation
import NIOCore
import ProviderAPI
import HTTPProviderKit

/// Reading raw response bytes into a `JSONValue` safely.
///
/// Every failure is a `ProviderError` with code `invalidResponse`: truncated or malformed
/// JSON, and JSON nested deeper than ``maximumDepth`` (the reader keeps its own stack, so a
/// hostile body cannot exhaust the thread's).
package enum NuxeoJSON {
    /// The deepest nesting of arrays and objects accepted; real Nuxeo answers stay far below it.
    package static let maximumDepth = 96

    /// Parses `data` as one JSON value with `JSONByteReader`.
    ///
    /// - Throws: `ProviderError` `invalidResponse` for anything that is not well-formed JSON
    ///   or nests deeper than ``maximumDepth``.
    package static func parse(_ data: Data) throws -> JSONValue {
        try JSONByteReader.value(from: data, maximumDepth: maximumDepth)
    }

    /// Parses the readable bytes of `buffer` as one JSON value, as ``parse(_:)-(Data)`` does.
    package static func parse(_ buffer: ByteBuffer) throws -> JSONValue {
        try JSONByteReader.value(from: buffer, maximumDepth: maximumDepth)
    }

    /// Encodes `value` as compact JSON with sorted keys (stable output for tests and caches).
    package static func encode(_ value: JSONValue) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            throw ProviderError(.invalidArgument, "the value cannot be encoded as JSON", underlying: describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.typeMismatch(_, let context): return context.debugDescription
        default: return String(describing: type(of: error))
        }
    }
}
