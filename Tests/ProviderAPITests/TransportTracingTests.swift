import ProviderAPI
import Testing
import HTTPProviderKit

@Suite("AsyncHTTPClientTransport tracing")
struct TransportTracingTests {
    @Test("with no tracer bootstrapped, the transport's clients make no span per request")
    func noSpanWithoutTracer() async throws {
        let transport = AsyncHTTPClientTransport()
        #expect(!transport.tracesRequests)
        #expect(!AsyncHTTPClientTransport.shared.tracesRequests)
        try await transport.shutdown()
    }
}
