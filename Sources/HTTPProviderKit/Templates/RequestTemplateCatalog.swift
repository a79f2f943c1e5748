import Foundation
import ProviderAPI

/// A set of ``RequestTemplate`` values found by name, loaded from JSON or a property list.
///
/// Three layouts are read, in JSON and in property lists alike:
/// - an array of templates, each with its `name`;
/// - an object keyed by template name (Nemo Connect's layout), each template taking its key as its name
///   unless it sets one;
/// - either of those under a top-level `templates` key (so no template may be named `templates`).
///
/// ```swift
/// let catalog = try RequestTemplateCatalog(contentsOf: url)
/// let request = try catalog.template(named: "children").makeRequest(baseURL: base, arguments: ["uid": uid])
/// ```
public struct RequestTemplateCatalog: Sendable, Hashable, Codable {
    /// The templates, in the order given (sorted by name when read from an object).
    public private(set) var templates: [RequestTemplate]
    private var index: [String: Int]

    /// An empty catalog.
    public init() {
        templates = []
        index = [:]
    }

    /// Creates a catalog, checking every template.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for an invalid template or a repeated name.
    public init(_ templates: [RequestTemplate]) throws {
        self.templates = []
        index = [:]
        for template in templates { try add(template) }
    }

    /// Adds `template`.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when it is invalid or its name is taken.
    public mutating func add(_ template: RequestTemplate) throws {
        try template.validate()
        guard index[template.name] == nil else {
            throw ProviderError(.invalidArgument, "two request templates are named \"\(template.name)\"")
        }
        index[template.name] = templates.count
        templates.append(template)
    }

    /// The template named `name`, if any.
    public subscript(name: String) -> RequestTemplate? {
        index[name].map { templates[$0] }
    }

    /// The template named `name`.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when there is none.
    public func template(named name: String) throws -> RequestTemplate {
        guard let template = self[name] else {
            throw ProviderError(.invalidArgument, "no request template named \"\(name)\"")
        }
        return template
    }

    /// The names of the templates, in order.
    package var names: [String] { templates.map(\.name) }

    // MARK: Loading

    /// Reads a catalog from JSON.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when the data is not a valid catalog.
    package init(json data: Data) throws {
        self = try RequestTemplateCatalog.load { try JSONDecoder().decode(RequestTemplateCatalog.self, from: data) }
    }

    /// Reads a catalog from a property list, XML or binary.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when the data is not a valid catalog.
    package init(propertyList data: Data) throws {
        self = try RequestTemplateCatalog.load { try PropertyListDecoder().decode(RequestTemplateCatalog.self, from: data) }
    }

    /// Reads a catalog from JSON or a property list, telling them apart by their first bytes.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when the data is not a valid catalog.
    public init(data: Data) throws {
        let head = String(decoding: data.prefix(64), as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if head.hasPrefix("bplist") || head.hasPrefix("<?xml") || head.hasPrefix("<!DOCTYPE") || head.hasPrefix("<plist") {
            try self.init(propertyList: data)
        } else {
            try self.init(json: data)
        }
    }

    /// Reads a catalog file: a `.plist` as a property list, a `.json` as JSON, anything else by its content.
    ///
    /// - Throws: `ProviderError.Code.notFound` when the file cannot be read,
    ///   `ProviderError.Code.invalidArgument` when it is not a valid catalog.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ProviderError(.notFound, "cannot read request templates at \(url.lastPathComponent)", underlying: "\(error)")
        }
        switch url.pathExtension.lowercased() {
        case "plist": try self.init(propertyList: data)
        case "json": try self.init(json: data)
        default: try self.init(data: data)
        }
    }

    /// Reads the catalog resource `name` from `bundle` (for example `Bundle.module`), trying `.json` then `.plist`
    /// when `fileExtension` is `nil`.
    ///
    /// - Throws: `ProviderError.Code.notFound` when the bundle has no such resource,
    ///   `ProviderError.Code.invalidArgument` when it is not a valid catalog.
    public init(resource name: String, withExtension fileExtension: String? = nil, subdirectory: String? = nil, in bundle: Bundle) throws {
        let extensions = fileExtension.map { [$0] } ?? ["json", "plist"]
        for candidate in extensions {
            if let url = bundle.url(forResource: name, withExtension: candidate, subdirectory: subdirectory) {
                try self.init(contentsOf: url)
                return
            }
        }
        throw ProviderError(.notFound, "no request template resource named \(name)")
    }

    private static func load(_ decode: () throws -> RequestTemplateCatalog) throws -> RequestTemplateCatalog {
        do {
            return try decode()
        } catch let error as ProviderError {
            throw error
        } catch {
            throw ProviderError(.invalidArgument, "malformed request templates", underlying: "\(error)")
        }
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case templates
    }

    /// Decodes any of the three layouts.
    public init(from decoder: any Decoder) throws {
        if (try? decoder.unkeyedContainer()) != nil {
            try self.init(try [RequestTemplate](from: decoder))
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.templates) {
            self = try container.decode(RequestTemplateCatalog.self, forKey: .templates)
            return
        }
        let byName = try [String: RequestTemplate](from: decoder)
        try self.init(
            byName.sorted { $0.key < $1.key }.map { key, template in
                var named = template
                if named.name.isEmpty { named.name = key }
                return named
            })
    }

    /// Encodes `{"templates": [...]}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(templates, forKey: .templates)
    }
}
