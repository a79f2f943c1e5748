import Crypto
import Foundation
import ProviderAPI

/// A hash algorithm of HTTP Digest authentication (RFC 7616 section 3.3), as the challenge's
/// `algorithm` names it.
package enum DigestAuthAlgorithm: String, Sendable, CaseIterable {
    case md5 = "MD5"
    case md5Session = "MD5-sess"
    case sha256 = "SHA-256"
    case sha256Session = "SHA-256-sess"

    /// The algorithm a challenge's `algorithm` names (any case); `nil` when Strata has none of
    /// that name (`SHA-512-256`, a vendor's own).
    package init?(named name: String) {
        guard let known = Self.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(name) == .orderedSame }) else { return nil }
        self = known
    }

    /// Whether A1 is hashed again with the nonce and cnonce (the `-sess` variants).
    package var isSession: Bool { self == .md5Session || self == .sha256Session }

    /// Preference when a server offers several: SHA-256 before MD5, the plain form before its
    /// `-sess` variant (same hash; RFC 7616 lists them in that order).
    package var strength: Int {
        switch self {
        case .sha256: 4
        case .sha256Session: 3
        case .md5: 2
        case .md5Session: 1
        }
    }

    /// The lowercase hex digest of `text`'s UTF-8 bytes.
    package func hex(_ text: String) -> String {
        let data = Data(text.utf8)
        switch self {
        case .md5, .md5Session: return Self.hex(Insecure.MD5.hash(data: data))
        case .sha256, .sha256Session: return Self.hex(SHA256.hash(data: data))
        }
    }

    private static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A `Digest` challenge (RFC 7616 section 3.3, RFC 2617 section 3.2.1) that Strata can answer.
package struct DigestChallenge: Sendable, Equatable {
    package var realm: String
    package var nonce: String
    package var opaque: String?
    /// `nil` when the challenge named none: MD5, and the `algorithm` parameter is not echoed.
    package var declaredAlgorithm: DigestAuthAlgorithm?
    /// Whether the server offered `qop=auth`; `false` is the RFC 2069 form (no `qop`, `nc`, `cnonce`).
    package var qopAuth: Bool
    /// The nonce the client used was valid but expired: the credentials were right.
    package var stale: Bool
    /// The server wants the user name hashed (RFC 7616 section 3.4.4).
    package var userhash: Bool

    package var algorithm: DigestAuthAlgorithm { declaredAlgorithm ?? .md5 }

    /// Why a `Digest` challenge cannot be answered: a form Strata does not speak.
    package struct Unanswerable: Error, Sendable {
        package var reason: String
    }

    /// Reads a `Digest` challenge.
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` when it lacks a realm or a nonce;
    ///   ``Unanswerable`` when it asks for an algorithm or a `qop` Strata does not speak.
    package init(_ challenge: AuthChallenge) throws {
        guard let realm = challenge["realm"] else {
            throw ProviderError(.invalidResponse, "malformed WWW-Authenticate header: a Digest challenge without a realm")
        }
        guard let nonce = challenge["nonce"], !nonce.isEmpty else {
            throw ProviderError(.invalidResponse, "malformed WWW-Authenticate header: a Digest challenge without a nonce")
        }
        self.realm = realm
        self.nonce = nonce
        opaque = challenge["opaque"]
        if let name = challenge["algorithm"] {
            guard let algorithm = DigestAuthAlgorithm(named: name) else {
                throw Unanswerable(reason: "Digest with the algorithm \(Self.printable(name))")
            }
            declaredAlgorithm = algorithm
        }
        if let qop = challenge["qop"] {
            let offered = qop.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard offered.contains("auth") else {
                throw Unanswerable(reason: "Digest with qop=\(Self.printable(qop)) only (auth-int is not supported)")
            }
            qopAuth = true
        } else {
            qopAuth = false
        }
        stale = challenge["stale"]?.lowercased() == "true"
        userhash = challenge["userhash"]?.lowercased() == "true"
    }

    /// The strongest `Digest` challenge among `challenges` (ties: the first sent), or why none can be
    /// answered (`nil` both when no `Digest` challenge was sent at all).
    package static func strongest(of challenges: [AuthChallenge]) throws -> (best: DigestChallenge?, unanswerable: String?) {
        var best: DigestChallenge?
        var reasons: [String] = []
        var malformed: ProviderError?
        for challenge in challenges where challenge.scheme == "digest" {
            do {
                let candidate = try DigestChallenge(challenge)
                if best == nil || candidate.algorithm.strength > (best?.algorithm.strength ?? 0) { best = candidate }
            } catch let error as Unanswerable {
                reasons.append(error.reason)
            } catch let error as ProviderError {
                malformed = malformed ?? error
            }
        }
        if let best { return (best, nil) }
        if let malformed { throw malformed }
        return (nil, reasons.isEmpty ? nil : reasons.joined(separator: "; "))
    }

    /// A server's word, cut short and without control characters, for a message.
    private static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(40).filter { !$0.properties.isDefaultIgnorableCodePoint && $0.value >= 0x20 && $0.value != 0x7f }))
    }
}
