import Foundation

/// XML escaping as pydio's `StringHelper::xmlEntities`: `&`, `<`, `>` and `"`
/// are escaped; everything else (apostrophes, UTF-8) is written raw.
enum XMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `<tag a="1" b="2"/>` (or `…>` with `selfClosing == false`), values escaped.
    static func element(_ tag: String, _ attributes: [(String, String)], selfClosing: Bool = true) -> String {
        let rendered = attributes.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: " ")
        return "<\(tag) \(rendered)" + (selfClosing ? "/>" : ">")
    }
}
