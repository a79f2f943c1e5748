import Foundation
import ProviderAPI

/// Reading raw response bytes into a ``JSONValue`` safely.
///
/// Every failure is a ``ProviderError`` with code `invalidResponse`: truncated or malformed
/// JSON, and JSON nested deeper than ``maximumDepth`` (refused before decoding, so a hostile
/// body cannot exhaust the stack).
public enum NuxeoJSON {
    /// The deepest nesting of arrays and objects accepted; real Nuxeo answers stay far below it.
    public static let maximumDepth = 96

    /// Parses `data` as one JSON value.
    ///
    /// - Throws: ``ProviderError`` `invalidResponse` for anything that is not well-formed JSON
    ///   or nests deeper than ``maximumDepth``.
    public static func parse(_ data: Data) throws -> JSONValue {
        let depth = nestingDepth(of: data)
        guard depth <= maximumDepth else {
            throw ProviderError(.invalidResponse, "the JSON answer nests \(depth) levels deep, more than \(maximumDepth)")
        }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ProviderError(.invalidResponse, "the answer is not valid JSON", underlying: describe(error))
        }
    }

    /// Encodes `value` as compact JSON with sorted keys (stable output for tests and caches).
    public static func encode(_ value: JSONValue) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            throw ProviderError(.invalidArgument, "the value cannot be encoded as JSON", underlying: describe(error))
        }
    }

    /// The deepest nesting of `[` and `{` outside string literals.
    static func nestingDepth(of data: Data) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default: break
            }
        }
        return deepest
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.typeMismatch(_, let context): return context.debugDescription
        default: return String(describing: type(of: error))
        }
    }
}
