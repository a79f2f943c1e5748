import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain socket client that sends a request as written and reads whatever comes back, without
/// any HTTP framework in the way: it shows what the hostile server really sends.
enum RawClient {
    /// What came back.
    struct Answer: Sendable {
        /// Every byte received.
        var bytes: [UInt8]
        /// Whether the server closed the connection (else the read stopped at a limit).
        var closed: Bool

        /// The bytes as text (lossy).
        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// The head (up to the blank line), as text.
        var head: String {
            guard let end = text.range(of: "\r\n\r\n") else { return text }
            return String(text[..<end.lowerBound])
        }

        /// The bytes after the head.
        var body: [UInt8] {
            guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: Array("\r\n\r\n".utf8)) }) else { return [] }
            return Array(bytes[(end + 4)...])
        }

        /// The value of header `name` in the head.
        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// Sends `request` to 127.0.0.1:`port` and reads until the server closes, `maxBytes` arrive,
    /// or nothing arrives for `idle` seconds.
    static func exchange(port: Int, _ request: String, maxBytes: Int = 1 << 20, idle: Double = 10) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try blockingExchange(port: port, Array(request.utf8), maxBytes: maxBytes, idle: idle) })
            }
        }
    }

    /// A `GET path` with `Connection: close` and any extra header lines.
    static func get(_ path: String, port: Int, headers: [String] = [], method: String = "GET") -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" + headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n"
    }

    struct SocketError: Error { var what: String }

    private static func blockingExchange(port: Int, _ request: [UInt8], maxBytes: Int, idle: Double) throws -> Answer {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SocketError(what: "socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw SocketError(what: "connect") }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw SocketError(what: "send") }
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while received.count < maxBytes {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(idle * 1000))
            if ready == 0 { return Answer(bytes: received, closed: false) }
            guard ready > 0 else { throw SocketError(what: "poll") }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return Answer(bytes: received, closed: true) }
            received += buffer[0..<count]
        }
        return Answer(bytes: received, closed: false)
    }
}
