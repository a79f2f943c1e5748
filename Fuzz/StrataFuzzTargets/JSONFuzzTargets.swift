import Foundation
import NIOCore
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
        if let value {
            if let finding = skimDisagreement(data, value) { return .finding(finding) }
            visit(value)
        }
        return outcome
    }

    /// What is wrong with the skim of a document the whole read took as `value`, if anything: an
    /// object must skim to its top-level members (arrays by their length, objects by at least
    /// their number of distinct names, values as read), anything else to nothing.
    static func skimDisagreement(_ data: Data, _ value: JSONValue) -> String? {
        let skim = JSONByteReader.skimObject(from: ByteBuffer(bytes: data))
        guard case .object(let members) = value else {
            return skim == nil ? nil : "a JSON document that is not an object was skimmed as one"
        }
        guard let skim else { return "a JSON object the whole read takes was not skimmed" }
        guard Set(skim.members.keys) == Set(members.keys) else { return "the skim names other top-level members" }
        for (name, member) in members {
            switch (member, skim[name]) {
            case (.array(let elements), .array(let count)?) where count == elements.count: continue
            case (.object(let nested), .object(let count)?) where count >= nested.count: continue
            case (_, .value(let skimmed)?) where skimmed == member: continue
            default: return "the skim of the top-level member \(name.debugDescription) differs from the whole read"
            }
        }
        return nil
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
