import Foundation
import ProviderAPI

/// The decoders a ``RequestTemplate`` names in ``RequestTemplate/decoder``.
///
/// It starts with the built-ins `json` (a ``JSONValue``), `raw` (a `ByteBuffer`) and `none`
/// (`()`, body discarded); an adapter adds its own:
///
/// ```swift
/// var decoders = TemplateDecoderRegistry()
/// decoders.register("document", as: NuxeoDocument.self)
/// decoders.register("etag", TemplateDecoder { head, _ in head.headers.first(name: "etag") ?? "" })
/// ```
public struct TemplateDecoderRegistry: Sendable {
    private var decoders: [String: TemplateDecoder]

    /// A registry holding the built-in `json`, `raw` and `none` decoders.
    public init() {
        decoders = ["json": .json, "raw": .raw, "none": .none]
    }

    /// Registers `decoder` under `name`, replacing any decoder of that name.
    public mutating func register(_ name: String, _ decoder: TemplateDecoder) {
        decoders[name] = decoder
    }

    /// Registers a decoder of `Decodable` JSON into `type` under `name`.
    public mutating func register<T: Decodable & Sendable>(
        _ name: String, as type: T.Type, makeDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() }
    ) {
        decoders[name] = .decodable(type, makeDecoder: makeDecoder)
    }

    /// The decoder named `name`, if registered.
    package subscript(name: String) -> TemplateDecoder? { decoders[name] }

    /// The registered names, sorted.
    package var names: [String] { decoders.keys.sorted() }

    /// The decoder named `name`.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when no decoder has that name.
    package func decoder(named name: String) throws -> TemplateDecoder {
        guard let decoder = decoders[name] else {
            throw ProviderError(.invalidArgument, "no template decoder named \"\(name)\"")
        }
        return decoder
    }
}
