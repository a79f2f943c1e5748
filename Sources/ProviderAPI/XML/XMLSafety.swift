import Foundation

/// Checks that apply to every XML document Strata reads.
public enum XMLSafety {
    /// Refuses documents that declare a DTD or entities, and empty documents.
    public static func check(_ data: Data) throws {
        guard !data.isEmpty else { throw ProviderError(.invalidResponse, "empty XML document") }
        // A DTD is the only way to declare entities; no WebDAV answer needs one.
        let markers: [[UInt8]] = [Array("<!DOCTYPE".utf8), Array("<!ENTITY".utf8), Array("<!doctype".utf8), Array("<!entity".utf8)]
        if data.withUnsafeBytes({ raw in markers.contains { contains(raw, $0) } }) {
            throw ProviderError(.invalidResponse, "XML with a document type declaration is refused")
        }
    }

    private static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return true }
            }
            index += 1
        }
        return false
    }
}
