import Foundation

/// The error the suite's own sinks and sources throw to simulate a local failure (a dropped
/// connection seen by the sink, a broken pipe under a source). It is not a `ProviderError`: the
/// provider must turn it into one, as it must every error its caller sees.
struct InjectedFault: Error, CustomStringConvertible {
    /// What failed.
    let what: String

    var description: String { "\(what) (injected by the conformance suite)" }
}
