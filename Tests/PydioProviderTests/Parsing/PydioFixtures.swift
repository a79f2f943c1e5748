import Foundation
import NIOHTTP1
import ProviderAPI
import StrataTestSupport
import Testing
import HTTPProviderKit
import PydioProvider

/// The Pydio recordings in `Tests/Fixtures/pydio` (`TestFixtures`), read as answers.
enum PydioFixtures {
    static var root: URL { TestFixtures.folder("pydio") }

    /// Every file of a recording folder.
    static func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path).sorted()
    }

    static func data(_ relative: String) throws -> Data {
        let url = root.appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ProviderError(.notFound, "missing fixture \(url.path)")
        }
        return data
    }

    /// A live recording: `NN_name.body` with the status and headers of `NN_name.http` when there is one.
    static func live(_ name: String) throws -> RecognizableAnswer {
        let body = try data("live-8.2.5/\(name).body")
        var status = 200
        var headers = HTTPHeaders()
        let head = root.appendingPathComponent("live-8.2.5/\(name).http")
        if let text = FileManager.default.contents(atPath: head.path).map({ String(decoding: $0, as: UTF8.self) }) {
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            if let first = lines.first, let code = first.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { status = code }
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
        } else {
            let type = body.first == UInt8(ascii: "{") ? "application/json" : (body.first == UInt8(ascii: "<") ? "text/xml; charset=UTF-8" : "text/plain")
            headers.add(name: "Content-Type", value: type)
        }
        return RecognizableAnswer(status: status, headers: headers, body: body, request: name)
    }

    /// A Pydio 5 SDK fixture, served as `text/xml`.
    static func sdk(_ file: String) throws -> RecognizableAnswer {
        RecognizableAnswer(status: 200, headers: ["Content-Type": "text/xml"], body: try data("sdk-objc/\(file)"), request: file)
    }
}
