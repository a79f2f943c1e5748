import ProviderAPI
import Testing

@Suite("Capabilities.Features names")
struct FeatureNamesTests {
    @Test("every feature bit in use has a name, and each name is used once")
    func everyFeatureNamed() {
        let named = Capabilities.Features.named
        #expect(Set(named.map(\.name)).count == named.count)
        #expect(Set(named.map(\.feature.rawValue)).count == named.count)
        // The bits are given in order from 1 << 0: a gap or a bit past the last name is a feature someone forgot to name.
        let union = named.reduce(into: Capabilities.Features()) { $0.formUnion($1.feature) }
        #expect(union.rawValue == (1 << named.count) - 1, "named bits \(String(union.rawValue, radix: 2))")
        #expect(Capabilities.Features.recursiveETags.description == ".recursiveETags")
        #expect(!Capabilities.Features(rawValue: 1 << named.count).description.isEmpty)
    }
}
