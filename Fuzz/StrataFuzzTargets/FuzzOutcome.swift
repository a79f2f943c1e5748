import ProviderAPI

/// What a fuzz target made of one input.
///
/// A parser may accept an input or refuse it with a ``ProviderError``; both are fine. A
/// ``finding`` is a broken promise that is not a trap: an error that is not a `ProviderError`,
/// or two ways of reading the same bytes (whole and in pieces) that disagree. The libFuzzer
/// driver turns a finding into a crash; the regression tests expect none.
public enum FuzzOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The input was read without error.
    case accepted
    /// The input was refused with a `ProviderError` of this code.
    case rejected(ProviderError.Code)
    /// A broken promise, described.
    case finding(String)

    /// Whether this outcome is a ``finding``.
    public var isFinding: Bool {
        if case .finding = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .accepted: return "accepted"
        case .rejected(let code): return "rejected(\(code))"
        case .finding(let text): return "finding: \(text)"
        }
    }

    /// The outcome of running `body`: accepted, a `ProviderError`, or a finding for any other error.
    static func of(_ body: () throws -> Void) -> FuzzOutcome {
        do {
            try body()
            return .accepted
        } catch let error as ProviderError {
            return .rejected(error.code)
        } catch {
            return .finding("an error that is not a ProviderError: \(String(describing: type(of: error)))")
        }
    }

    /// The first finding of `outcomes`, else the first outcome (or `.accepted` when there is none).
    static func combined(_ outcomes: [FuzzOutcome]) -> FuzzOutcome {
        outcomes.first(where: \.isFinding) ?? outcomes.first ?? .accepted
    }
}
