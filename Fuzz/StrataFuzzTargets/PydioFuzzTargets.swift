import Foundation
import NIOHTTP1
import ProviderAPI
import PydioProvider
import HTTPProviderKit

/// The Pydio side: one answer through every operation's recognizer chain.
public enum PydioFuzzTargets {
    /// An answer, as `HTTP/1.1 200 OK`, header lines, a blank line and the body (as the recorded
    /// fixtures are), or a bare body without headers; it goes through the chain of every
    /// operation, and each value is read the way the provider reads it.
    public static func pydio(_ data: Data) -> FuzzOutcome {
        let answer = HTTPAnswer.split(data)
        let recognizable = RecognizableAnswer(
            status: answer.status, headers: answer.headers, body: answer.body, request: "GET /index.php?get_action=ls")
        var outcomes: [FuzzOutcome] = []
        func run<Output: Sendable>(_ recognizer: ResponseRecognizer<Output>, _ read: (Output) -> Void) {
            outcomes.append(FuzzOutcome.of {
                switch try PydioRecognizers.chain(recognizer).recognize(recognizable) {
                case .value(let value): read(value)
                case .failure(let error), .signInRequired(let error): throw error
                }
            })
        }
        run(PydioRecognizers.listing) { listing in
            _ = listing.hasNextPage
            for node in (listing.folder.map { [$0] } ?? []) + listing.children {
                _ = node.itemPermissions
                _ = node.storedName
                _ = node.modified?.timeIntervalSince1970
            }
        }
        run(PydioRecognizers.login) { _ in }
        run(PydioRecognizers.seed) { _ in }
        run(PydioRecognizers.workspaces) { workspaces in
            for workspace in workspaces { _ = workspace.matches("my-files") }
        }
        run(PydioRecognizers.change) { _ in }
        run(PydioRecognizers.text) { _ in }
        run(PydioRecognizers.json) { json in _ = PydioShareLink.links(in: json) }
        run(PydioRecognizers.empty) { _ in }
        outcomes.append(FuzzOutcome.of { _ = try PydioRecognizers.seed.recognize(recognizable) })
        return FuzzOutcome.combined(outcomes)
    }
}

/// A recorded HTTP answer: status, headers and body.
struct HTTPAnswer {
    var status: Int
    var headers: HTTPHeaders
    var body: Data

    /// `HTTP/1.1 200 OK\r\nName: value\r\n\r\nbody` (bare `\n` too), or the whole input as a body
    /// of a 200 without headers when it does not start with `HTTP/`.
    static func split(_ data: Data) -> HTTPAnswer {
        guard data.starts(with: Array("HTTP/".utf8)) else { return HTTPAnswer(status: 200, headers: [:], body: data) }
        var lines: [Substring] = []
        var index = data.startIndex
        var bodyStart = data.endIndex
        while index < data.endIndex {
            let end = data[index...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
            var line = data[index..<end]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            index = end < data.endIndex ? data.index(after: end) : end
            if line.isEmpty {
                bodyStart = index
                break
            }
            lines.append(Substring(String(decoding: line, as: UTF8.self)))
        }
        let statusWords = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        let status = statusWords.count > 1 ? Int(statusWords[1]) ?? 200 : 200
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            // A header name is an HTTP token (ASCII; NIO traps on anything else, and its parser
            // never hands one over): other lines are dropped, as a server's garbage would be refused.
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { continue }
            headers.add(name: name, value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        return HTTPAnswer(status: status, headers: headers, body: Data(data[bodyStart...]))
    }
}
