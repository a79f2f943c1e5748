import Foundation
import StrataTestSupport
import Testing

/// The pydio-core 8.2.5 recordings in `Tests/Fixtures/pydio/live-8.2.5` (`TestFixtures`).
enum Recordings {
    struct Missing: Error, CustomStringConvertible { var description: String }

    static var directory: URL { TestFixtures.folder("pydio/live-8.2.5") }

    /// Every recording name (`01_unauth_ping`, …, `97_get_captcha`), from the directory listing.
    static func allNames() throws -> Set<String> {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return Set(files.compactMap { file -> String? in
            guard file.first?.isNumber == true, let dot = file.firstIndex(of: ".") else { return nil }
            return String(file[..<dot])
        })
    }

    /// The raw bytes of `<name>.<ext>`; a missing file throws (the test fails, never skips).
    static func data(_ name: String, _ ext: String) throws -> Data {
        let url = directory.appendingPathComponent("\(name).\(ext)")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Missing(description: "recording not found: \(url.path)")
        }
        return data
    }

    static func body(_ name: String) throws -> String {
        String(decoding: try data(name, "body"), as: UTF8.self)
    }

    /// Status code and headers of `<name>.http`.
    static func head(_ name: String) throws -> (status: Int, headers: [(String, String)]) {
        let lines = String(decoding: try data(name, "http"), as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return (status, headers)
    }

    /// Replaces the parts that legitimately differ between two runs: times,
    /// tokens, cookie ids, share hashes and ids, inode numbers, the port.
    static func normalize(_ text: String) -> String {
        var out = text
        let rules: [(String, String)] = [
            (#"(ajxp_modiftime|ajxp_im_time|last_connection)="\d+""#, "$1=\"T\""),
            (#"(ajxp_relativetime)="[^"]*""#, "$1=\"REL\""),
            (#"ajxp_description="Modified [^"]*""#, "ajxp_description=\"Modified REL\""),
            (#"secure_token="[A-Za-z0-9]{32}""#, "secure_token=\"TOKEN\""),
            (#"^[A-Za-z0-9]{32}$"#, "TOKEN"),
            (#""(1|8|9|10|ino|atime|mtime|ctime)":\d+"#, "\"$1\":N"),
            (#""(ajxp_modiftime)":\d+"#, "\"$1\":T"),
            (#""(ajxp_relativetime)":"[^"]*""#, "\"$1\":\"REL\""),
            (#""ajxp_description":"Modified [^"]*""#, "\"ajxp_description\":\"Modified REL\""),
            (#"http://127\.0\.0\.1:\d+"#, "http://HOST"),
            (#"/public/[0-9a-zA-Z]+"#, "/public/HASH"),
            (#""(repositoryId)":"[0-9a-f]{32}""#, "\"$1\":\"ID\""),
            (#""(ID|internal_user_id)":"[0-9a-f]{12}""#, "\"$1\":\"USER\""),
            (#""hash":("[0-9a-zA-Z]+"|\d+)"#, "\"hash\":HASH"),
            (#""links":\{"[0-9a-zA-Z]+":"#, "\"links\":{\"HASH\":"),
            (#"/[0-9a-f]{10}/"#, "/VIRTUAL/"),
            (#"(today|yesterday) at \d\d:\d\d"#, "REL"),
            (#""expire_time":"\d{4}/\d\d/\d\d \d\d:\d\d""#, "\"expire_time\":\"DATE\""),
        ]
        for (pattern, template) in rules {
            out = out.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        return out
    }
}
