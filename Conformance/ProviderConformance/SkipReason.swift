import Foundation
import ProviderAPI

/// Why a case was skipped: every skip names what excuses it.
///
/// A case is skipped by the runner (``capability(_:)`` for the features in
/// `ConformanceCase.requires`, ``opted(_:)`` for what the run's options leave out,
/// ``cancelled``) or by its body, which throws a `ConformanceSkip` carrying a reason.
/// There is no skip without a reason; `recordIssues()` (ProviderConformanceTesting) still records
/// an issue for a reason that names nothing (see `isEmpty`).
///
/// The reason prints as a sentence (``description``), which is what the report's text and
/// the `detail` of its JSON show; the JSON also carries the reason itself, as
/// `{"kind": "capability", "features": ["search"]}`.
public enum SkipReason: Sendable, Hashable, CustomStringConvertible {
    /// The provider does not declare these features: `provider does not declare .search`.
    case capability(Capabilities.Features)
    /// The provider declares a share kind other than this one: `capabilities.shareKinds does not contain .publicLink`.
    case shareKind(ShareKind.Tag)
    /// `Capabilities.modifiedTimePrecision` is `nil`: the provider keeps no modified times.
    case noModifiedTimes
    /// `Capabilities.maxUploadSize` is below what the case must upload.
    case uploadLimit(maximum: Int64, needed: Int64)
    /// The run's options leave the case out; the text says which option and how to turn it on,
    /// as `large files are off (set ConformanceOptions.largeFiles or STRATA_CONFORMANCE_LARGE=1)`.
    case opted(String)
    /// The provider never sent a request through the transport the suite offered
    /// (``ConformanceEnvironment/transport``), so transport faults cannot be injected: an adapter
    /// that is not HTTP-based. Its sink and source fault cases still run.
    case noTransport
    /// The run was cancelled before the case started.
    case cancelled

    /// The reason as a sentence, for reports.
    public var description: String {
        switch self {
        case .capability(let features): return "provider does not declare \(features)"
        case .shareKind(let kind): return "capabilities.shareKinds does not contain .\(kind.rawValue)"
        case .noModifiedTimes: return "capabilities.modifiedTimePrecision is nil (the provider keeps no modified times)"
        case .uploadLimit(let maximum, let needed): return "capabilities.maxUploadSize is \(maximum) bytes, below \(needed)"
        case .opted(let what): return what
        case .noTransport:
            return "the provider sent no request through the transport it was given, so faults cannot be injected"
        case .cancelled: return "the run was cancelled"
        }
    }

    /// Whether the reason names nothing: no feature, or an empty option.
    ///
    /// The public cases cannot be built without a reason except as `.capability([])` or
    /// `.opted("")`; ``ConformanceReport`` JSON from elsewhere can hold anything.
    package var isEmpty: Bool {
        switch self {
        case .capability(let features): return features.isEmpty
        case .opted(let what): return what.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        case .shareKind, .noModifiedTimes, .uploadLimit, .noTransport, .cancelled: return false
        }
    }

    /// Whether a declared capability excuses the case (a feature left out, a share kind, a limit),
    /// as opposed to the run (``opted(_:)``, ``cancelled``) or the provider's use of the transport
    /// (``noTransport``).
    package var isCapability: Bool {
        switch self {
        case .capability, .shareKind, .noModifiedTimes, .uploadLimit: return !isEmpty
        case .opted, .noTransport, .cancelled: return false
        }
    }
}

extension SkipReason: Codable {
    private enum CodingKeys: String, CodingKey { case kind, features, unnamedFeatureBits, shareKind, maximum, needed, option }

    /// The name of the case in JSON.
    private var kind: String {
        switch self {
        case .capability: return "capability"
        case .shareKind: return "shareKind"
        case .noModifiedTimes: return "noModifiedTimes"
        case .uploadLimit: return "uploadLimit"
        case .opted: return "opted"
        case .noTransport: return "noTransport"
        case .cancelled: return "cancelled"
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "capability":
            let names = try container.decode([String].self, forKey: .features)
            var features = Capabilities.Features(rawValue: try container.decodeIfPresent(UInt64.self, forKey: .unnamedFeatureBits) ?? 0)
            for name in names {
                guard let feature = Capabilities.Features.named.first(where: { $0.name == name })?.feature else {
                    throw DecodingError.dataCorruptedError(forKey: .features, in: container, debugDescription: "unknown feature \(name)")
                }
                features.formUnion(feature)
            }
            self = .capability(features)
        case "shareKind":
            let name = try container.decode(String.self, forKey: .shareKind)
            guard let tag = ShareKind.Tag(rawValue: name) else {
                throw DecodingError.dataCorruptedError(forKey: .shareKind, in: container, debugDescription: "unknown share kind \(name)")
            }
            self = .shareKind(tag)
        case "noModifiedTimes": self = .noModifiedTimes
        case "uploadLimit":
            self = .uploadLimit(
                maximum: try container.decode(Int64.self, forKey: .maximum), needed: try container.decode(Int64.self, forKey: .needed))
        case "opted": self = .opted(try container.decode(String.self, forKey: .option))
        case "noTransport": self = .noTransport
        case "cancelled": self = .cancelled
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown skip reason \(kind)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .capability(let features):
            try container.encode(Capabilities.Features.named.filter { features.contains($0.feature) }.map(\.name), forKey: .features)
            let known = Capabilities.Features.named.reduce(into: Capabilities.Features()) { $0.formUnion($1.feature) }
            let unnamed = features.subtracting(known).rawValue
            if unnamed != 0 { try container.encode(unnamed, forKey: .unnamedFeatureBits) }
        case .shareKind(let tag): try container.encode(tag.rawValue, forKey: .shareKind)
        case .uploadLimit(let maximum, let needed):
            try container.encode(maximum, forKey: .maximum)
            try container.encode(needed, forKey: .needed)
        case .opted(let what): try container.encode(what, forKey: .option)
        case .noModifiedTimes, .noTransport, .cancelled: break
        }
    }
}
