import Foundation

/// What the ``HostileServer`` writes on the connection, byte for byte: no HTTP framework checks
/// it, so a head may declare a length the body does not have, a body may stop halfway, or
/// nothing may come at all. The connection is closed after the last step (every response says
/// `Connection: close` when built with ``head(_:_:headers:)``), and at the latest after the
/// server's time limit or as soon as the client goes away.
public struct HostileResponse: Sendable {
    /// One thing to do on the connection.
    public enum Step: Sendable {
        /// Write these bytes.
        case bytes([UInt8])
        /// Wait, writing nothing.
        case pause(Duration)
        /// Write `piece` `count` times, `interval` apart (a body that goes on and on).
        case repeating([UInt8], count: Int, interval: Duration)
        /// Write `bytes` one byte at a time, `interval` apart.
        case trickle([UInt8], interval: Duration)
        /// Write nothing until the client leaves or the server's time limit ends the connection.
        case silence
    }

    /// The steps, in order.
    public var steps: [Step]

    /// A response made of `steps`.
    public init(_ steps: [Step]) { self.steps = steps }

    /// A status line and headers (with `Connection: close`), and the blank line ending them.
    public static func head(_ status: Int, _ reason: String? = nil, headers: [(String, String)] = []) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason ?? defaultReason(status))\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !headers.contains(where: { $0.0.lowercased() == "connection" }) { text += "Connection: close\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// A well-formed answer: the head with a true `Content-Length`, then the whole body.
    public static func complete(
        _ status: Int, headers: [(String, String)] = [], body: [UInt8] = []
    ) -> HostileResponse {
        HostileResponse([.bytes(head(status, headers: headers + [("Content-Length", String(body.count))]) + body)])
    }

    /// A well-formed text answer.
    public static func text(_ status: Int, _ body: String, type: String = "text/plain; charset=utf-8", headers: [(String, String)] = []) -> HostileResponse {
        complete(status, headers: [("Content-Type", type)] + headers, body: Array(body.utf8))
    }

    /// An HTTP/1.1 chunk holding `bytes`.
    public static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + Array("\r\n".utf8)
    }

    static func defaultReason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 207: return "Multi-Status"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 500: return "Internal Server Error"
        default: return "Status"
        }
    }
}
