import Foundation

/// The fuzz targets: each takes the bytes of one input and runs them through a parser the way
/// a provider does with a server's answer. Errors are expected; a trap is a finding, and so is
/// any ``FuzzOutcome/finding(_:)``.
///
/// The libFuzzer driver (`strata-fuzz`, built by `scripts/fuzz`) and the regression tests
/// (`Tests/FuzzRegressionTests`, which replay `Fuzz/Reproducers/<target>/`) both call ``run(_:)``.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// ``WebDAVFuzzTargets/multistatus(_:)``.
    case multistatus
    /// ``WebDAVFuzzTargets/xmlReader(_:)``.
    case xmlReader = "xml-reader"
    /// ``JSONFuzzTargets/jsonReader(_:)``.
    case jsonReader = "json-reader"
    /// ``PydioFuzzTargets/pydio(_:)``.
    case pydio
    /// ``NuxeoFuzzTargets/nuxeo(_:)``.
    case nuxeo
    /// ``WebDAVFuzzTargets/ocs(_:)``.
    case ocs

    /// Runs this target on one input.
    public func run(_ data: Data) -> FuzzOutcome {
        switch self {
        case .multistatus: return WebDAVFuzzTargets.multistatus(data)
        case .xmlReader: return WebDAVFuzzTargets.xmlReader(data)
        case .jsonReader: return JSONFuzzTargets.jsonReader(data)
        case .pydio: return PydioFuzzTargets.pydio(data)
        case .nuxeo: return NuxeoFuzzTargets.nuxeo(data)
        case .ocs: return WebDAVFuzzTargets.ocs(data)
        }
    }

    /// A piece size for feeding `data` in pieces, derived from the bytes so a reproducer always
    /// replays the same way: 1 to 64 bytes.
    static func pieceSize(for data: Data) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in data.prefix(256) { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % 64) + 1
    }

    /// `data` cut in pieces of `size` bytes.
    static func pieces(of data: Data, size: Int) -> [Data] {
        stride(from: data.startIndex, to: data.endIndex, by: size).map { data[$0..<min($0 + size, data.endIndex)] }
    }
}
