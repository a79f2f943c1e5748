import Foundation
import ProviderAPI

/// One challenge of a `WWW-Authenticate` header (RFC 9110 section 11.6.1): a scheme, and either a
/// `token68` or a list of parameters.
///
/// Scheme and parameter names are compared without regard to case (they are kept lowercased);
/// values are kept as sent, quoted strings unescaped.
package struct AuthChallenge: Sendable, Equatable {
    /// The scheme, lowercased (`basic`, `digest`, `bearer`, `negotiate`).
    package var scheme: String
    /// The `token68` that follows the scheme (`Negotiate YIIG…`), when there is one.
    package var token68: String?
    /// The parameters in the order sent, names lowercased; a name sent twice keeps its first value.
    package var parameters: [(name: String, value: String)]

    package init(scheme: String, token68: String? = nil, parameters: [(name: String, value: String)] = []) {
        self.scheme = scheme.lowercased()
        self.token68 = token68
        self.parameters = parameters
    }

    /// The value of the parameter `name` (any case), if sent.
    package subscript(_ name: String) -> String? {
        let name = name.lowercased()
        return parameters.first { $0.name == name }?.value
    }

    package static func == (lhs: AuthChallenge, rhs: AuthChallenge) -> Bool {
        lhs.scheme == rhs.scheme && lhs.token68 == rhs.token68 && lhs.parameters.map(\.name) == rhs.parameters.map(\.name)
            && lhs.parameters.map(\.value) == rhs.parameters.map(\.value)
    }

    /// Every challenge of the `WWW-Authenticate` header values `values` (one header may hold
    /// several challenges, and a response may send several headers), in order.
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` naming what is malformed (the value itself is
    ///   not quoted: a challenge holds no secret, but it is the server's text, kept out of messages).
    package static func parse(_ values: [String]) throws -> [AuthChallenge] {
        var challenges: [AuthChallenge] = []
        for value in values {
            var parser = AuthChallengeParser(Array(value.utf8))
            challenges += try parser.challenges()
        }
        return challenges
    }
}

/// The RFC 9110 `challenge` grammar over the bytes of one header value:
/// `1#( auth-scheme [ 1*SP ( token68 / #auth-param ) ] )`, where `auth-param` is
/// `token BWS "=" BWS ( token / quoted-string )`.
///
/// Lenient where servers are known to be sloppy (an unquoted value holding `/` or `:`, empty list
/// elements), strict where a wrong guess would mislead (an unterminated quoted string, a parameter
/// without a value, text where a comma must be).
struct AuthChallengeParser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func challenges() throws -> [AuthChallenge] {
        var result: [AuthChallenge] = []
        while true {
            skipListSeparators()
            if atEnd { return result }
            guard let scheme = token() else { throw malformed("expected an authentication scheme") }
            var challenge = AuthChallenge(scheme: scheme)
            let spaced = skipWhitespace()
            var nextChallenge = false
            if !atEnd, peek != UInt8(ascii: ",") {
                guard spaced else { throw malformed("expected a space after the scheme \(scheme)") }
                let mark = index
                if let value = token68(), atListEnd() {
                    challenge.token68 = value
                } else {
                    index = mark
                    try parameter(into: &challenge)
                    while true {
                        let beforeComma = index
                        skipWhitespace()
                        guard !atEnd, peek == UInt8(ascii: ",") else {
                            index = beforeComma
                            break
                        }
                        skipListSeparators()
                        if atEnd { break }
                        let next = index
                        if parameterAhead() {
                            try parameter(into: &challenge)
                        } else {
                            index = next  // the next challenge's scheme
                            nextChallenge = true
                            break
                        }
                    }
                }
            }
            skipWhitespace()
            if !nextChallenge, !atEnd, peek != UInt8(ascii: ",") { throw malformed("unexpected text after the \(scheme) challenge") }
            result.append(challenge)
        }
    }

    // MARK: Pieces

    /// `name BWS "=" BWS value` into `challenge`.
    private mutating func parameter(into challenge: inout AuthChallenge) throws {
        guard let name = token() else { throw malformed("expected a parameter name in the \(challenge.scheme) challenge") }
        skipWhitespace()
        guard !atEnd, peek == UInt8(ascii: "=") else {
            throw malformed("expected '=' after the parameter \(name) of the \(challenge.scheme) challenge")
        }
        index += 1
        skipWhitespace()
        let value: String
        if !atEnd, peek == UInt8(ascii: "\"") {
            value = try quotedString()
        } else {
            // A token, leniently: anything up to a comma or white space (`domain=/dav/`, `nc=00000001`).
            let start = index
            while !atEnd, let byte = peek, byte != UInt8(ascii: ","), !Self.isWhitespace(byte), byte != UInt8(ascii: "\"") {
                index += 1
            }
            guard index > start else { throw malformed("the parameter \(name) of the \(challenge.scheme) challenge has no value") }
            value = String(decoding: bytes[start..<index], as: UTF8.self)
        }
        let lowered = name.lowercased()
        if !challenge.parameters.contains(where: { $0.name == lowered }) {
            challenge.parameters.append((lowered, value))
        }
    }

    /// Whether a parameter (`token BWS "="`) starts here; the position is left unchanged.
    private mutating func parameterAhead() -> Bool {
        let mark = index
        defer { index = mark }
        guard token() != nil else { return false }
        skipWhitespace()
        return !atEnd && peek == UInt8(ascii: "=")
    }

    /// A quoted string, unescaped (`\x` is `x`); the opening quote is at the current position.
    private mutating func quotedString() throws -> String {
        index += 1
        var value: [UInt8] = []
        while !atEnd {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard !atEnd else { throw malformed("a quoted string ends with a lone backslash") }
                value.append(bytes[index])
                index += 1
            default:
                value.append(byte)
            }
        }
        throw malformed("a quoted string is not closed")
    }

    /// `1*tchar`, or `nil` (nothing consumed) when none is here.
    private mutating func token() -> String? {
        let start = index
        while !atEnd, Self.isTokenCharacter(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`, or `nil`.
    private mutating func token68() -> String? {
        let start = index
        while !atEnd, Self.isToken68Character(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        while !atEnd, bytes[index] == UInt8(ascii: "=") { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Whether only white space remains before the end or a comma; the position is left unchanged.
    private mutating func atListEnd() -> Bool {
        let mark = index
        defer { index = mark }
        skipWhitespace()
        return atEnd || peek == UInt8(ascii: ",")
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while !atEnd, Self.isWhitespace(bytes[index]) { index += 1 }
        return index > start
    }

    private mutating func skipListSeparators() {
        while !atEnd, Self.isWhitespace(bytes[index]) || bytes[index] == UInt8(ascii: ",") { index += 1 }
    }

    private var atEnd: Bool { index >= bytes.count }
    private var peek: UInt8? { atEnd ? nil : bytes[index] }

    private func malformed(_ what: String) -> ProviderError {
        ProviderError(.invalidResponse, "malformed WWW-Authenticate header: \(what) (at byte \(index))")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private static func isToken68Character(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("-._~+/".utf8).contains(byte)
        }
    }
}
