import NIOCore
import ProviderAPI
import ProviderKit
import Testing

@Suite("Digester")
struct DigesterTests {
    @Test("pieces hashed one by one give the digest of the whole", arguments: [DigestAlgorithm.md5, .sha1, .sha256])
    func pieces(_ algorithm: DigestAlgorithm) throws {
        let bytes = (0..<200_003).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ ($0 >> 9)) }
        var digester = try #require(Digester(algorithm))
        var start = 0
        for size in [1, 63, 64, 65, 4096, 100_000] {
            digester.update(ByteBuffer(bytes: bytes[start..<(start + size)]))
            start += size
        }
        digester.update(ByteBuffer(bytes: bytes[start...]))
        #expect(digester.finalize() == Digester.hex(algorithm, of: bytes))
    }

    @Test("a copy taken mid-way goes on on its own: updating one leaves the other as it was", arguments: [
        DigestAlgorithm.md5, .sha1, .sha256,
    ])
    func copiesAreIndependent(_ algorithm: DigestAlgorithm) throws {
        var first = try #require(Digester(algorithm))
        first.update(ByteBuffer(string: "abc"))
        var second = first
        second.update(ByteBuffer(string: "def"))
        first.update(ByteBuffer(string: "xyz"))
        #expect(first.finalize() == Digester.hex(algorithm, of: Array("abcxyz".utf8)))
        #expect(second.finalize() == Digester.hex(algorithm, of: Array("abcdef".utf8)))
        #expect(first.finalize() == first.finalize())
    }

    @Test("known digests of abc")
    func known() {
        let abc = Array("abc".utf8)
        #expect(Digester.hex(.md5, of: abc) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(Digester.hex(.sha1, of: abc) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Digester.hex(.sha256, of: abc) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
