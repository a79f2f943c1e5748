import Foundation

/// The `Authorization: Digest …` answer to a ``DigestChallenge`` (RFC 7616 section 3.4, and the
/// RFC 2069 form without `qop` for old servers).
package struct DigestAnswer: Sendable {
    package var username: String
    package var password: String
    package var method: String
    /// The request-target exactly as sent on the wire (``requestTarget(of:)``).
    package var uri: String
    /// The nonce count: how many requests this nonce has signed, this one included.
    package var nonceCount: UInt32
    /// The client nonce (fresh for each request).
    package var cnonce: String

    package init(username: String, password: String, method: String, uri: String, nonceCount: UInt32, cnonce: String) {
        self.username = username
        self.password = password
        self.method = method
        self.uri = uri
        self.nonceCount = nonceCount
        self.cnonce = cnonce
    }

    /// `nc`: the nonce count as eight lowercase hex digits.
    package var nc: String {
        let hex = String(nonceCount, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }

    /// The `response` parameter: `KD(H(A1), nonce:nc:cnonce:qop:H(A2))`, or `KD(H(A1), nonce:H(A2))`
    /// without `qop`.
    package func response(to challenge: DigestChallenge) -> String {
        let algorithm = challenge.algorithm
        var ha1 = algorithm.hex("\(username):\(challenge.realm):\(password)")
        if algorithm.isSession { ha1 = algorithm.hex("\(ha1):\(challenge.nonce):\(cnonce)") }
        let ha2 = algorithm.hex("\(method):\(uri)")
        if challenge.qopAuth {
            return algorithm.hex("\(ha1):\(challenge.nonce):\(nc):\(cnonce):auth:\(ha2)")
        }
        return algorithm.hex("\(ha1):\(challenge.nonce):\(ha2)")
    }

    /// The whole `Authorization` header value.
    package func header(for challenge: DigestChallenge) -> String {
        var parts: [String] = []
        if challenge.userhash {
            parts.append("username=\(Self.quoted(challenge.algorithm.hex("\(username):\(challenge.realm)")))")
        } else if let quoted = Self.quotedIfPlain(username) {
            parts.append("username=\(quoted)")
        } else {
            // RFC 7616 section 3.4.4: a name a quoted-string cannot carry goes as `username*` (RFC 5987).
            parts.append("username*=UTF-8''\(Self.extendedValue(username))")
        }
        parts.append("realm=\(Self.quoted(challenge.realm))")
        parts.append("nonce=\(Self.quoted(challenge.nonce))")
        parts.append("uri=\(Self.quoted(uri))")
        if let algorithm = challenge.declaredAlgorithm { parts.append("algorithm=\(algorithm.rawValue)") }
        parts.append("response=\(Self.quoted(response(to: challenge)))")
        if let opaque = challenge.opaque { parts.append("opaque=\(Self.quoted(opaque))") }
        if challenge.qopAuth {
            parts.append("qop=auth")
            parts.append("nc=\(nc)")
            parts.append("cnonce=\(Self.quoted(cnonce))")
        } else if challenge.algorithm.isSession {
            parts.append("cnonce=\(Self.quoted(cnonce))")
        }
        if challenge.userhash { parts.append("userhash=true") }
        return "Digest " + parts.joined(separator: ", ")
    }

    /// The request-target a transport puts on the request line for `url`: its percent-encoded
    /// path (`/` when empty) and `?query`, as AsyncHTTPClient sends it (and as Apache and lighttpd
    /// compare the `uri` parameter against).
    package static func requestTarget(of url: URL) -> String {
        let parsed = URL(string: url.absoluteString) ?? url
        var target =
            parsed.path.isEmpty
            ? "/" : (URLComponents(url: parsed, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? parsed.path)
        if target.isEmpty { target = "/" }
        if let query = parsed.query { target += "?" + query }
        return target
    }

    /// A fresh client nonce: 16 random bytes in hex.
    package static func makeCnonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for _ in 0..<16 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }

    /// `text` quoted, when it is printable ASCII (what every server reads in a quoted string).
    private static func quotedIfPlain(_ text: String) -> String? {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f } ? quoted(text) : nil
    }

    /// RFC 5987 `value-chars`: attr-char kept, every other byte of the UTF-8 as `%XX`.
    private static func extendedValue(_ text: String) -> String {
        let kept = Set("!#$&+-.^_`|~".utf8)
        var out = ""
        for byte in text.utf8 {
            let isAlphanumeric =
                (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
            if isAlphanumeric || kept.contains(byte) {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
