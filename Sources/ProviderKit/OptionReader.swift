import Foundation
import ProviderAPI

/// Reads an adapter's string options (`ProviderConfiguration.options`, `-o name=value` on the
/// command line) into typed values, once, at the registry's edge.
///
/// Each read names the option and says what it takes; a value that does not fit fails with
/// `ProviderError.Code.invalidArgument` naming the option. The reader remembers which names
/// were asked for, so that ``rejectUnread(adapter:)`` can fail on a name the adapter does not
/// know (a typo such as `chunksize`) instead of ignoring it.
///
/// ```swift
/// var reader = OptionReader(["chunkSize": "1048576", "auth": "token"])
/// let chunkSize = try reader.integer("chunkSize", minimum: 1024) ?? 8 << 20
/// let auth = try reader.choice("auth", as: Authentication.self) ?? .basic
/// try reader.rejectUnread(adapter: "nuxeo")
/// ```
///
/// Most adapters use it through ``ProviderAPI/ProviderConfiguration/readingOptions(for:_:)``, which also
/// reads the page limits and rejects unknown names.
public struct OptionReader: Sendable {
    /// The options being read.
    package let options: [String: String]
    /// The names asked for so far, present or not.
    package private(set) var askedNames: Set<String> = []

    /// A reader of `options`.
    public init(_ options: [String: String]) {
        self.options = options
    }

    /// The text of `name`, as given; `nil` when absent.
    public mutating func text(_ name: String) -> String? {
        askedNames.insert(name)
        return options[name]
    }

    /// The text of `name`.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when it is absent or blank.
    public mutating func required(_ name: String) throws -> String {
        guard let text = text(name), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ProviderError(.invalidArgument, "the \(name) option is required")
        }
        return text
    }

    /// `name` as a yes/no value: `true`, `yes`, `on` or `1`; `false`, `no`, `off` or `0` (any case).
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for any other text.
    public mutating func flag(_ name: String) throws -> Bool? {
        guard let text = text(name) else { return nil }
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw Self.invalid(name, takes: "true or false", text)
        }
    }

    /// `name` as a whole number from `minimum` to `maximum`.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for text that is not such a number.
    public mutating func integer(_ name: String, minimum: Int, maximum: Int = .max) throws -> Int? {
        try integer(name, as: Int.self, minimum: minimum, maximum: maximum)
    }

    /// `name` as a whole number of type `Value` from `minimum` to `maximum`.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for text that is not such a number.
    public mutating func integer<Value: FixedWidthInteger & Sendable>(
        _ name: String, as type: Value.Type, minimum: Value, maximum: Value = .max
    ) throws -> Value? {
        guard let text = text(name) else { return nil }
        guard let value = Value(text.trimmingCharacters(in: .whitespaces)), value >= minimum, value <= maximum else {
            let range = maximum == .max ? "of at least \(minimum)" : "from \(minimum) to \(maximum)"
            throw Self.invalid(name, takes: "a whole number \(range)", text)
        }
        return value
    }

    /// `name` as a number of seconds (decimals allowed, at most a year), to the millisecond.
    ///
    /// - Parameters:
    ///   - name: the option's name.
    ///   - allowZero: whether `0` is accepted (a value that turns a check off).
    /// - Throws: `ProviderError.Code.invalidArgument` for text that is not such a number.
    public mutating func seconds(_ name: String, allowZero: Bool = false) throws -> Duration? {
        guard let text = text(name) else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0,
            allowZero || value > 0, value <= 31_536_000
        else {
            throw Self.invalid(name, takes: "a number of seconds\(allowZero ? "" : " above 0")", text)
        }
        return .milliseconds(Int64((value * 1000).rounded()))
    }

    /// `name` as one of `Value`'s cases, by raw value in any case.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` naming the cases for any other text.
    public mutating func choice<Value: RawRepresentable & CaseIterable>(_ name: String, as type: Value.Type) throws -> Value?
    where Value.RawValue == String {
        guard let text = text(name) else { return nil }
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let value = Value.allCases.first(where: { $0.rawValue.lowercased() == wanted }) { return value }
        let names = Value.allCases.map(\.rawValue)
        let spoken = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") : names.joined()
        throw Self.invalid(name, takes: spoken, text)
    }

    /// `name` as a comma-separated list, each element trimmed, empty ones dropped.
    public mutating func list(_ name: String) -> [String]? {
        text(name).map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }

    /// `name` as the segments of a path: `/nuxeo/` is `["nuxeo"]`, `/` is none.
    public mutating func pathSegments(_ name: String) -> [String]? {
        text(name).map { $0.split(separator: "/").map(String.init) }
    }

    /// The names of options present but not asked for, sorted.
    package var unreadNames: [String] {
        options.keys.filter { !askedNames.contains($0) }.sorted()
    }

    /// Fails on the first option nobody asked for.
    ///
    /// - Parameter adapter: the adapter's name, for the message (`webdav`).
    /// - Throws: `ProviderError.Code.invalidArgument` naming the option and those `adapter` knows.
    public func rejectUnread(adapter: String) throws {
        guard let name = unreadNames.first else { return }
        let known = askedNames.sorted().joined(separator: ", ")
        throw ProviderError(
            .invalidArgument, "the \(adapter) adapter has no option '\(Self.shown(name))' (its options: \(known))")
    }

    private static func invalid(_ name: String, takes what: String, _ text: String) -> ProviderError {
        ProviderError(.invalidArgument, "the \(name) option takes \(what), not '\(shown(text))'")
    }

    /// At most 40 characters of `text`, secrets masked, for a message.
    private static func shown(_ text: String) -> String {
        Redactor.redact(String(text.prefix(40)))
    }
}
