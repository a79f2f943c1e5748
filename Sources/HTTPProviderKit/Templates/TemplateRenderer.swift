import ProviderAPI
/// Fills a ``TemplateString`` from ``TemplateArguments`` and encodes each value for where it stands.
struct TemplateRenderer: Sendable {
    /// Where the text goes, which decides how values are encoded.
    enum Position: Sendable {
        /// The URL path: literal text keeps its `/`; a value is one encoded segment (`/` → `%2F`),
        /// or with `*` a path whose segments are each encoded.
        case path
        /// Raw text that the caller form-encodes afterwards (query names and values, form bodies).
        case raw
        /// A header value: raw, but CR, LF and NUL are refused.
        case header
    }

    /// Rendered text, and whether the template asked to be left out: it has placeholders and every one
    /// of them is optional and missing.
    struct Rendered: Sendable {
        var text: String
        var omitted: Bool
    }

    let arguments: TemplateArguments
    /// The template's name, for error messages.
    let templateName: String

    func fail(_ message: String) -> ProviderError {
        ProviderError(.invalidArgument, "template \(templateName): \(message)")
    }

    /// The value of `placeholder`, `nil` when it is optional and missing.
    ///
    /// `null` counts as missing.
    func value(of placeholder: TemplatePlaceholder) throws -> JSONValue? {
        let value = arguments.resolve(placeholder.reference)
        guard let value, !value.isNull else {
            if placeholder.isOptional { return nil }
            throw fail("missing argument \(placeholder.reference)")
        }
        return value
    }

    /// The text of `placeholder`, `nil` when it is optional and missing.
    func text(of placeholder: TemplatePlaceholder) throws -> String? {
        guard let value = try value(of: placeholder) else { return nil }
        guard let text = value.text else { throw fail("argument \(placeholder.reference) cannot be written as text") }
        return text
    }

    func render(_ template: TemplateString, in position: Position) throws -> Rendered {
        var output = ""
        var placeholders = 0
        var missing = 0
        for part in template.parts {
            switch part {
            case .literal(let literal):
                output += position == .path ? PercentEncoding.encode(literal, allowing: PercentEncoding.isPathLiteral) : literal
            case .placeholder(let placeholder):
                placeholders += 1
                guard let text = try text(of: placeholder) else {
                    missing += 1
                    continue
                }
                output += position == .path ? try pathText(text, for: placeholder) : text
            }
        }
        if position == .header, output.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) {
            throw fail("a header value may not contain CR, LF or NUL")
        }
        return Rendered(text: output, omitted: placeholders > 0 && missing == placeholders)
    }

    private func pathText(_ text: String, for placeholder: TemplatePlaceholder) throws -> String {
        if text.isEmpty, !placeholder.isOptional { throw fail("argument \(placeholder.reference) is empty in the path") }
        let segments = placeholder.isPath ? text.split(separator: "/", omittingEmptySubsequences: false).map(String.init) : [text]
        for segment in segments where segment == "." || segment == ".." {
            throw fail("argument \(placeholder.reference) has a dot segment in the path")
        }
        return segments.map { PercentEncoding.encode($0, allowing: PercentEncoding.isSegment) }.joined(separator: "/")
    }
}
