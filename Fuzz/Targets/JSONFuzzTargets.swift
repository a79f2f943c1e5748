import Foundation
import ProviderAPI
import HTTPProviderKit

/// The JSON byte reader every JSON answer goes through.
public enum JSONFuzzTargets {
    /// Any bytes as JSON: read with the default depth limit and with a shallow one (what the
    /// shallow read accepts, the default read must accept and read the same), then every value
    /// read through the lenient accessors providers use for sizes, times and counts.
    public static func jsonReader(_ data: Data) -> FuzzOutcome {
        var value: JSONValue?
        let outcome = FuzzOutcome.of { value = try JSONByteReader.value(from: data) }
        var shallow: JSONValue?
        let shallowOutcome = FuzzOutcome.of { shallow = try JSONByteReader.value(from: data, maximumDepth: 4) }
        if outcome.isFinding || shallowOutcome.isFinding { return FuzzOutcome.combined([outcome, shallowOutcome]) }
        if let shallow, shallow != value {
            return .finding("JSON read with depth 4 and with the default depth gave different values")
        }
        if let value { visit(value) }
        return outcome
    }

    /// Reads every value the way callers do; iterative, so a deep document cannot exhaust the stack.
    static func visit(_ root: JSONValue) {
        var pending = [root]
        while let value = pending.popLast() {
            _ = value.stringValue
            _ = value.int64Value
            _ = value.intValue
            _ = value.doubleValue
            _ = value.boolValue
            switch value {
            case .array(let elements): pending.append(contentsOf: elements)
            case .object(let members): pending.append(contentsOf: members.values)
            default: break
            }
        }
    }
}
