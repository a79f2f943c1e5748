import Foundation
import ProviderAPI
import ProviderKit

/// A PKCE pair (RFC 7636): the secret `verifier` the client keeps, and its S256 `challenge`
/// sent in the authorization request; also makes the `state` of a request (RFC 6749 §10.12).
package struct OAuth2PKCE: Sendable {
    /// 43 characters of the unreserved alphabet (256 random bits).
    package let verifier: String
    /// `BASE64URL(SHA256(verifier))`, without padding.
    package let challenge: String
    /// Always `S256`.
    package let method = "S256"

    /// A fresh random pair.
    package init() {
        self.init(verifier: Self.random())
    }

    /// The pair of `verifier` (RFC 7636 Appendix B's example in tests).
    package init(verifier: String) {
        self.verifier = verifier
        let hex = Digester.hex(.sha256, of: Array(verifier.utf8)) ?? ""
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        challenge = Self.base64URL(bytes)
    }

    /// 32 random bytes, base64url: a verifier or a `state`.
    package static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
