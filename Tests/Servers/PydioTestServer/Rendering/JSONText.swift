import Foundation

/// Minimal JSON writing in PHP `json_encode` style (with unescaped slashes and unicode).
enum JSONText {
    /// A JSON string literal.
    static func string(_ text: String, escapeSlashes: Bool = false) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += escapeSlashes ? "\\/" : "/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `{"k":v,…}` from already-rendered values, in order.
    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
