import Foundation

/// The result of one case of a conformance run.
public struct CaseResult: Sendable, Hashable, Codable {
    /// How a case ended.
    public enum Outcome: Sendable, Hashable, Codable {
        /// The provider did what the contract says.
        case passed
        /// The provider did not; the detail says how.
        case failed(String)
        /// The case did not apply; the reason names the capability, option or condition that excuses it.
        case skipped(SkipReason)

        /// `passed`, `failed` or `skipped`.
        package var status: String {
            switch self {
            case .passed: return "passed"
            case .failed: return "failed"
            case .skipped: return "skipped"
            }
        }

        /// The failure detail, or the skip reason as a sentence.
        package var detail: String? {
            switch self {
            case .passed: return nil
            case .failed(let detail): return detail
            case .skipped(let reason): return reason.description
            }
        }

        /// The reason of a skip; `nil` for a case that ran.
        public var skipReason: SkipReason? {
            if case .skipped(let reason) = self { return reason } else { return nil }
        }

        // A skip is written `{"status": "skipped", "detail": "provider does not declare .search",
        // "reason": {"kind": "capability", "features": ["search"]}}`: the detail for people, the reason for programs.
        private enum CodingKeys: String, CodingKey { case status, detail, reason }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let status = try container.decode(String.self, forKey: .status)
            let detail = try container.decodeIfPresent(String.self, forKey: .detail) ?? ""
            switch status {
            case "passed": self = .passed
            case "failed": self = .failed(detail)
            case "skipped": self = .skipped(try container.decode(SkipReason.self, forKey: .reason))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .status, in: container, debugDescription: "unknown outcome \(status)")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encodeIfPresent(detail, forKey: .detail)
            try container.encodeIfPresent(skipReason, forKey: .reason)
        }
    }

    /// The case's name, such as `listing.paging`.
    public var name: String
    /// The case's group, such as `listing`.
    public var group: String
    /// How it ended.
    public var outcome: Outcome
    /// How long it took, in seconds.
    package var durationSeconds: Double
    /// What a passing case observed that a reader should know (a name it had to encode, features it checked).
    public var notes: [String]

    /// Creates a result.
    package init(name: String, group: String, outcome: Outcome, durationSeconds: Double, notes: [String] = []) {
        self.name = name
        self.group = group
        self.outcome = outcome
        self.durationSeconds = durationSeconds
        self.notes = notes
    }

    /// Whether the case passed.
    public var passed: Bool { outcome == .passed }
    /// Whether the case failed.
    public var failed: Bool { if case .failed = outcome { return true } else { return false } }
    /// Whether the case was skipped.
    public var skipped: Bool { if case .skipped = outcome { return true } else { return false } }
}
