import Foundation

/// A key for a value in ``ProviderServices``, with the value used when none was set.
///
/// An adapter family declares its own keys: the HTTP kit declares the transport, so the
/// contract needs no HTTP type.
///
/// ```swift
/// enum ClockKey: ProviderServiceKey {
///     static var defaultValue: any Clock<Duration> { ContinuousClock() }
/// }
/// ```
public protocol ProviderServiceKey {
    /// The type of the value.
    associatedtype Value: Sendable
    /// The value read when none was set.
    static var defaultValue: Value { get }
}

/// Typed values passed through a ``ProviderRegistry`` to the adapters it makes providers of,
/// such as the HTTP transport (`HTTPProviderKit` adds `transport`).
public struct ProviderServices: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// No values: every key reads its default.
    public init() {}

    /// The value of `key`, or its ``ProviderServiceKey/defaultValue`` when none was set.
    public subscript<Key: ProviderServiceKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether a value was set for `key`.
    package func contains<Key: ProviderServiceKey>(_ key: Key.Type) -> Bool {
        values[ObjectIdentifier(key)] != nil
    }
}

/// What ``ProviderFactory/probe(_:context:)`` may use to look at an unknown server.
public struct ProbeContext: Sendable {
    /// The credentials to present, if the server asks.
    public var credentials: Credentials
    /// The registry's services (the HTTP kit reads its transport here).
    public var services: ProviderServices

    /// Creates a context.
    public init(credentials: Credentials = .none, services: ProviderServices = ProviderServices()) {
        self.credentials = credentials
        self.services = services
    }
}
