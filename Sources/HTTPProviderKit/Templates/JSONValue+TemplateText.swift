import Foundation
import ProviderAPI

extension JSONValue {
    /// The text this value contributes where a placeholder stands in a path, query, header or text body:
    /// strings as they are, numbers in decimal, booleans as `true`/`false`, arrays as their elements
    /// joined by commas. `nil` for `null` (treated as missing) and for objects (refused).
    var text: String? {
        switch self {
        case .string(let value): return value
        case .integer(let value): return String(value)
        case .double(let value):
            if value.rounded() == value && abs(value) < 1e15 { return String(Int(value)) }
            return "\(value)"
        case .bool(let value): return value ? "true" : "false"
        case .null, .object: return nil
        case .array(let elements):
            var parts: [String] = []
            for element in elements {
                if case .array = element { return nil }
                guard let part = element.text else { return nil }
                parts.append(part)
            }
            return parts.joined(separator: ",")
        }
    }
}
