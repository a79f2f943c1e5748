import ProviderConformance
import Testing

/// Temporary.
public func probeRecord() {
    Issue.record("probe")
}
