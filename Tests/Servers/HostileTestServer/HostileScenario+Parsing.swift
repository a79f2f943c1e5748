import Foundation

extension HostileScenario {
    /// Bytes of the 40 MB unterminated comment.
    public static let fortyMegabytes = 40 << 20

    /// `PROPFIND` answered 207 by a multistatus that opens a comment and never closes it: `bytes`
    /// of comment text streamed in 64 KiB pieces (no length; the body ends when the connection closes).
    public static func unterminatedComment(bytes: Int = fortyMegabytes) -> HostileScenario {
        streamedMultistatus("a multistatus that is an unterminated comment", opening: "<!--", filler: UInt8(ascii: "x"), bytes: bytes)
    }

    /// `PROPFIND` answered 207 by a multistatus whose first element has an attribute value of
    /// `bytes` that never closes.
    public static func hugeAttribute(bytes: Int = 20 << 20) -> HostileScenario {
        streamedMultistatus("a multistatus with an endless attribute", opening: #"<d:response a=""#, filler: UInt8(ascii: "a"), bytes: bytes)
    }

    private static func streamedMultistatus(_ name: String, opening: String, filler: UInt8, bytes: Int) -> HostileScenario {
        HostileScenario(name) { request, _ in
            if request.method == "OPTIONS" { return .complete(200, headers: [("DAV", "1,2"), ("Server", "hostile")]) }
            let piece = 64 << 10
            let start = #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">"# + opening
            return HostileResponse([
                .bytes(HostileResponse.head(207, headers: [("Content-Type", "application/xml; charset=utf-8")]) + Array(start.utf8)),
                .repeating(Array(repeating: filler, count: piece), count: bytes / piece, interval: .zero),
            ])
        }
    }
}

/// How a Nuxeo `@children` answer that never ends is built.
public enum EndlessJSON: String, Sendable, CaseIterable {
    /// `[[[[…` without end.
    case nesting
    /// A string value that never closes.
    case string
    /// A number of endless digits.
    case number
    /// An object of about a million distinct keys (15 MiB: under the 16 MiB a Nuxeo answer may
    /// have, so it is parsed whole), then its end.
    case keys
}

extension HostileScenario {
    /// Bytes of the endless JSON answers.
    public static let endlessJSONBytes = 64 << 20

    /// A Nuxeo server whose `@children` answer is ``endlessJSONBytes`` of `shape`, streamed without
    /// length in 64 KiB pieces.
    public static func nuxeoEndlessJSON(_ shape: EndlessJSON) -> HostileScenario {
        HostileScenario(
            "a Nuxeo @children answer of endless \(shape.rawValue)",
            route: HostileNuxeo.route { _, _, _ in
                let piece = 64 << 10
                let opening: String
                let filler: [UInt8]
                switch shape {
                case .nesting:
                    opening = #"{"entity-type":"documents","entries":"#
                    filler = Array(repeating: UInt8(ascii: "["), count: piece)
                case .string:
                    opening = #"{"entity-type":"documents","entries":[],"x":""#
                    filler = Array(repeating: UInt8(ascii: "a"), count: piece)
                case .number:
                    opening = #"{"entity-type":"documents","entries":[],"x":1"#
                    filler = Array(repeating: UInt8(ascii: "7"), count: piece)
                case .keys:
                    opening = #"{"entity-type":"documents","entries":[],"k":0"#
                    // Distinct keys: 4096 of 16 bytes per piece, numbered in base 36.
                    filler = []
                }
                var steps: [HostileResponse.Step] = [
                    .bytes(HostileResponse.head(200, headers: [("Content-Type", "application/json")]) + Array(opening.utf8))
                ]
                if shape == .keys {
                    let perPiece = piece / 16
                    for block in 0..<((15 << 20) / piece) {
                        var text = ""
                        text.reserveCapacity(piece)
                        for number in 0..<perPiece {
                            let key = String(block * perPiece + number, radix: 36)
                            text += ",\"" + String(repeating: "k", count: max(0, 10 - key.count)) + key + "\":0"
                        }
                        steps.append(.bytes(Array(text.utf8)))
                    }
                    steps.append(.bytes(Array("}".utf8)))
                } else {
                    steps.append(.repeating(filler, count: endlessJSONBytes / piece, interval: .zero))
                }
                return HostileResponse(steps)
            })
    }

    /// A WebDAV folder whose `PROPFIND` multistatus (listing `file.bin`) starts with a UTF-8 byte
    /// order mark, or is sent whole in UTF-16 (big-endian, with its mark, and declared so).
    public static func webdavEncoding(utf16: Bool) -> HostileScenario {
        HostileScenario(utf16 ? "a multistatus in UTF-16" : "a multistatus with a UTF-8 byte order mark") { request, _ in
            if request.method == "OPTIONS" { return .complete(200, headers: [("DAV", "1,2"), ("Server", "hostile")]) }
            guard request.method == "PROPFIND" else { return .text(404, "not found") }
            let declaration = #"<?xml version="1.0" encoding="\#(utf16 ? "utf-16" : "utf-8")"?>"#
            let xml = declaration + #"<d:multistatus xmlns:d="DAV:">"# + HostileDAV.response(href: "/", entry: nil)
                + HostileDAV.response(href: "/" + fileName, entry: .file(fileName, size: fileSize)) + "</d:multistatus>"
            let body: [UInt8] = utf16
                ? [0xFE, 0xFF] + xml.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                : [0xEF, 0xBB, 0xBF] + Array(xml.utf8)
            return .complete(207, headers: [("Content-Type", "application/xml; charset=\(utf16 ? "utf-16" : "utf-8")")], body: body)
        }
    }
}
