import Foundation
import ProviderAPI

/// The body of a ``RequestTemplate``.
///
/// In JSON or a property list a plain string is a ``text(_:)`` body; otherwise an object with one
/// key says the kind: `{"json": {…}}`, `{"text": "…"}` or `{"form": […]}`.
public enum TemplateBody: Sendable, Hashable {
    /// Text with placeholders, substituted as they are (no encoding); `text/plain; charset=utf-8` by default.
    case text(String)
    /// A JSON document whose strings may hold placeholders; `application/json` by default.
    ///
    /// A string that is exactly one placeholder (`"{count}"`) becomes the argument's own JSON value —
    /// a number stays a number, an object an object, an explicit `null` stays `null` — and a missing
    /// optional one (`"{note?}"`) leaves its member or element out. Any other string is filled in
    /// as text and written JSON-escaped, so quotes, backslashes and newlines in a value are safe.
    case json(JSONValue)
    /// Form fields, `application/x-www-form-urlencoded` with `+` as `%2B` and space as `%20`.
    /// A field whose placeholders are all optional and missing is left out.
    case form([TemplateField])
}

extension TemplateBody: Codable {
    private enum CodingKeys: String, CodingKey {
        case text, json, form
    }

    /// Decodes a string (text) or an object with a single `text`, `json` or `form` key.
    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .text(text)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "a body is a string or an object with one key: text, json or form"))
        }
        switch key {
        case .text: self = .text(try container.decode(String.self, forKey: .text))
        case .json: self = .json(try container.decode(JSONValue.self, forKey: .json))
        case .form: self = .form(try TemplateField.decodeList(from: container, forKey: .form))
        }
    }

    /// Encodes the keyed form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .text(let text): try container.encode(text, forKey: .text)
        case .json(let value): try container.encode(value, forKey: .json)
        case .form(let fields): try container.encode(fields, forKey: .form)
        }
    }

    /// The content type sent when the template does not set one.
    var defaultContentType: String {
        switch self {
        case .text: return "text/plain; charset=utf-8"
        case .json: return "application/json"
        case .form: return "application/x-www-form-urlencoded"
        }
    }

    /// Checks that every template string in the body parses.
    func validate() throws {
        switch self {
        case .text(let text): _ = try TemplateString(parsing: text)
        case .json(let value): try TemplateBody.validate(json: value)
        case .form(let fields):
            for field in fields {
                _ = try TemplateString(parsing: field.name)
                _ = try TemplateString(parsing: field.value)
            }
        }
    }

    private static func validate(json value: JSONValue) throws {
        switch value {
        case .string(let text): _ = try TemplateString(parsing: text)
        case .array(let elements): for element in elements { try validate(json: element) }
        case .object(let members):
            for (key, member) in members {
                _ = try TemplateString(parsing: key)
                try validate(json: member)
            }
        default: break
        }
    }

    /// The body's bytes, filled from the renderer's arguments; `nil` when a JSON body is left out entirely.
    func render(with renderer: TemplateRenderer) throws -> [UInt8]? {
        switch self {
        case .text(let text):
            return Array(try renderer.render(TemplateString(parsing: text), in: .raw).text.utf8)
        case .json(let value):
            guard let filled = try TemplateBody.fill(value, with: renderer) else { return nil }
            return Array(try filled.jsonData())
        case .form(let fields):
            var pairs: [String] = []
            for field in fields {
                let name = try renderer.render(TemplateString(parsing: field.name), in: .raw)
                let value = try renderer.render(TemplateString(parsing: field.value), in: .raw)
                if name.omitted || value.omitted { continue }
                pairs.append(PercentEncoding.formEncode(name.text) + "=" + PercentEncoding.formEncode(value.text))
            }
            return Array(pairs.joined(separator: "&").utf8)
        }
    }

    private static func fill(_ value: JSONValue, with renderer: TemplateRenderer) throws -> JSONValue? {
        switch value {
        case .string(let text):
            let template = try TemplateString(parsing: text)
            if let placeholder = template.soloPlaceholder {
                guard let argument = renderer.arguments.resolve(placeholder.reference) else {
                    if placeholder.isOptional { return nil }
                    throw renderer.fail("missing argument \(placeholder.reference)")
                }
                return argument
            }
            let rendered = try renderer.render(template, in: .raw)
            return rendered.omitted ? nil : .string(rendered.text)
        case .array(let elements):
            return .array(try elements.compactMap { try fill($0, with: renderer) })
        case .object(let members):
            var filled: [String: JSONValue] = [:]
            for (key, member) in members {
                let name = try renderer.render(TemplateString(parsing: key), in: .raw)
                guard !name.omitted, let value = try fill(member, with: renderer) else { continue }
                guard filled[name.text] == nil else { throw renderer.fail("JSON body has the key \"\(name.text)\" twice") }
                filled[name.text] = value
            }
            return .object(filled)
        default:
            return value
        }
    }
}
