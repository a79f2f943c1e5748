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
