import Foundation

/// A minimal `multipart/form-data` parser (whole body in memory).
struct Multipart: Sendable {
    struct Part: Sendable {
        var name: String
        var filename: String?
        var data: Data
    }

    var parts: [Part] = []

    /// The boundary of a `multipart/form-data; boundary=…` content type.
    static func boundary(of contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/") else { return nil }
        for item in contentType.split(separator: ";").dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }

    init(body: Data, boundary: String) {
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        var cursor = Self.find(delimiter, in: bytes, from: 0)
        while var start = cursor {
            start += delimiter.count
            if start + 1 < bytes.count, bytes[start] == UInt8(ascii: "-"), bytes[start + 1] == UInt8(ascii: "-") { break }
            if start + 1 < bytes.count, bytes[start] == 13, bytes[start + 1] == 10 { start += 2 }
            guard let headerEnd = Self.find(Array("\r\n\r\n".utf8), in: bytes, from: start) else { break }
            let headerText = String(decoding: bytes[start..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let next = Self.find(Array("\r\n".utf8) + delimiter, in: bytes, from: contentStart) else { break }
            parts.append(Self.part(headers: headerText, data: Data(bytes[contentStart..<next])))
            cursor = next + 2
        }
    }

    private static func part(headers: String, data: Data) -> Part {
        var name = ""
        var filename: String?
        for line in headers.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
            name = parameter("name", in: line) ?? ""
            filename = parameter("filename", in: line)
        }
        return Part(name: name, filename: filename, data: data)
    }

    /// `name="value"` inside a Content-Disposition line (quoted or not).
    private static func parameter(_ key: String, in line: String) -> String? {
        for item in line.split(separator: ";").dropFirst() {
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            guard trimmed.lowercased().hasPrefix(key + "=") else { continue }
            var value = String(trimmed.dropFirst(key.count + 1))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
