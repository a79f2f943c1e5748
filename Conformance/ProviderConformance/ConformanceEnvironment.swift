import Foundation
import HTTPProviderKit
import ProviderAPI

/// What the suite offers the factory that makes the provider under test.
///
/// An HTTP adapter sends its requests through ``transport`` (the suite counts them and, for
/// the fault cases, wraps it to cut answers); any other adapter ignores it and the fault
/// cases that need a transport skip for it with ``SkipReason/noTransport``, while the fault
/// cases that go through its sinks and sources (`resume.afterSinkFailure`,
/// `retries.afterSourceFailure`) still run.
public struct ConformanceEnvironment: Sendable {
    /// The transport an HTTP adapter must send every request through.
    public let transport: any HTTPTransport

    /// Creates an environment offering `transport`.
    package init(transport: any HTTPTransport) {
        self.transport = transport
    }

    /// ``transport`` as registry services, for factories that take a `ProviderConfiguration`.
    public var services: ProviderServices { .transport(transport) }
}
