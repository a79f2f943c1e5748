import Foundation
import HTTPProviderKit
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderTesting

/// What a case body works with: the provider, the transport it sends through,
/// the case's own scratch folder on the server and its own local temporary folder.
package struct ConformanceContext: Sendable {
    /// The provider under test, made over ``transport``.
    package let provider: any StorageProvider
    /// The transport the provider sends through; cases read its counts to prove that no request was sent.
    package let transport: CountingTransport
    /// The case's own folder on the server, empty when the case starts.
    package let folder: ItemPath
    /// The run's scratch folder, which holds every case's folder and is deleted at the end.
    package let scratch: ItemPath
    /// The options of the run.
    package let options: ConformanceOptions
    /// The case's own local folder for temporary files, deleted at the end of the run.
    package let temporaryDirectory: URL

    let factory: ConformanceSuite.MakeProvider
    let log: NoteLog

    /// The provider's declared capabilities.
    package var capabilities: Capabilities { provider.capabilities }

    /// Makes another provider over `transport`, for cases that must wrap the transport
    /// (a `FaultInjectingTransport` around ``transport``, for example).
    ///
    /// The new provider talks to the same server and root as ``provider``.
    package func makeProvider(over transport: any HTTPTransport) async throws -> any StorageProvider {
        try await factory(ConformanceEnvironment(transport: transport))
    }

    /// A second provider whose requests pass through a new `FaultInjectingTransport` wrapped
    /// around ``transport``, and that fault transport.
    package func makeFaultInjectingProvider() async throws -> (provider: any StorageProvider, faults: FaultInjectingTransport) {
        let faults = FaultInjectingTransport(transport)
        return (try await makeProvider(over: faults), faults)
    }

    /// Adds a note to the case's result, for something a reader should know even when it passes.
    package func note(_ text: String) { log.append(text) }

    /// The path of `name` inside the case's folder.
    package func path(_ name: String) throws -> ItemPath { try folder.appending(name) }

    /// A local file URL inside the case's temporary folder.
    package func localURL(_ name: String) -> URL { temporaryDirectory.appendingPathComponent(name, isDirectory: false) }
}

/// The notes of one case, collected from its body.
final class NoteLog: Sendable {
    private let notes = NIOLockedValueBox<[String]>([])
    func append(_ text: String) { notes.withLockedValue { $0.append(text) } }
    var all: [String] { notes.withLockedValue { $0 } }
}
