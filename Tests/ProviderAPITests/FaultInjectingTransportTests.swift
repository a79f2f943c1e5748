import Foundation
import NIOCore
import ProviderAPI
import Testing
import HTTPProviderKit
import ProviderTesting

@Suite("FaultInjectingTransport")
struct FaultInjectingTransportTests {
    private func read(_ response: TransportResponse) async throws -> Int {
        try await response.body.collect(upTo: 1 << 20).readableBytes
    }

    @Test("dropBody waits for a body longer than its cut, then cuts it")
    func dropBodyWaitsForLongBody() async throws {
        let short = Array(repeating: UInt8(1), count: 100)
        let long = Array(repeating: UInt8(2), count: 5000)
        let base = ScriptedTransport([
            .respond(status: 200, headers: [("Content-Length", "100")], pieces: [short]),
            .respond(status: 200, headers: [("Content-Length", "5000")], pieces: [Array(long[..<2500]), Array(long[2500...])]),
            .respond(status: 200, headers: [("Content-Length", "5000")], pieces: [long]),
        ])
        let faults = FaultInjectingTransport(base)
        faults.inject(.dropBody(after: 1000), method: "GET")
        let url = URL(string: "http://127.0.0.1:1/x")!
        // The metadata-sized answer passes whole and leaves the fault armed.
        #expect(try await read(try await faults.send(TransportRequest(method: .GET, url: url))) == 100)
        // The first long body is cut.
        let cut = try await faults.send(TransportRequest(method: .GET, url: url))
        await #expect(throws: ProviderError.self) { _ = try await read(cut) }
        // The fault is used up.
        #expect(try await read(try await faults.send(TransportRequest(method: .GET, url: url))) == 5000)
    }

    @Test("dropBody also cuts an answer without a length, and waits past one whose body is too short")
    func dropBodyWithoutLength() async throws {
        let base = ScriptedTransport([
            .respond(status: 200, headers: [], pieces: [Array(repeating: 1, count: 300)]),
            .respond(status: 200, headers: [], pieces: [Array(repeating: 2, count: 2000), Array(repeating: 3, count: 2000)]),
        ])
        let faults = FaultInjectingTransport(base)
        faults.inject(.dropBody(after: 1000), method: "GET")
        let url = URL(string: "http://127.0.0.1:1/x")!
        #expect(try await read(try await faults.send(TransportRequest(method: .GET, url: url))) == 300)
        #expect(faults.armedFaults == 1)
        #expect(faults.appliedFaults == 0, "a body too short to cut is not a fault applied")
        let cut = try await faults.send(TransportRequest(method: .GET, url: url))
        #expect(faults.appliedFaults == 0, "chosen, not yet applied: nothing was cut")
        await #expect(throws: ProviderError.self) { _ = try await read(cut) }
        #expect(faults.armedFaults == 0)
        #expect(faults.appliedFaults == 1)
    }

    @Test("truncateBody removes the length and ends the body cleanly after the cut")
    func truncateBody() async throws {
        let long = (0..<5000).map { UInt8(truncatingIfNeeded: $0) }
        let base = ScriptedTransport([
            .respond(status: 200, headers: [("Content-Length", "100")], pieces: [Array(long[..<100])]),
            .respond(status: 200, headers: [("Content-Length", "5000")], pieces: [Array(long[..<700]), Array(long[700...])]),
            .respond(status: 200, headers: [("Content-Length", "5000")], pieces: [long]),
        ])
        let faults = FaultInjectingTransport(base)
        faults.inject(.truncateBody(after: 1000), method: "GET")
        let url = URL(string: "http://127.0.0.1:1/x")!
        let short = try await faults.send(TransportRequest(method: .GET, url: url))
        #expect(short.contentLength == 100)
        #expect(try await read(short) == 100)
        let cut = try await faults.send(TransportRequest(method: .GET, url: url))
        #expect(cut.contentLength == nil)
        let body = try await cut.body.collect(upTo: 1 << 20)
        #expect(Array(body.readableBytesView) == Array(long[..<1000]))
        #expect(faults.armedFaults == 0)
        #expect(faults.appliedFaults == 1)
        #expect(try await read(try await faults.send(TransportRequest(method: .GET, url: url))) == 5000)
    }
}
