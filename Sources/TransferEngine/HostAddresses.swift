import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The addresses a host name resolves to (`getaddrinfo`), and whether an address is this machine's,
/// so that `127.0.0.1`, `localhost` and `[::1]` are known for one server.
enum HostAddresses {
    /// The numeric addresses of `host`, or `nil` when it cannot be resolved.
    ///
    /// `getaddrinfo` blocks; it runs on a thread of its own, not on the caller's executor.
    static func resolve(_ host: String) async -> Set<String>? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: resolveNow(host)) }
        }
    }

    private static func resolveNow(_ host: String) -> Set<String>? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        var addresses: Set<String> = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            if let address = entry.pointee.ai_addr, let text = numeric(address, length: entry.pointee.ai_addrlen) {
                addresses.insert(text)
            }
            next = entry.pointee.ai_next
        }
        return addresses.isEmpty ? nil : addresses
    }

    /// The addresses of this machine's interfaces, loopback included.
    static func local() -> Set<String> {
        var addresses: Set<String> = ["127.0.0.1", "::1", "0.0.0.0", "::"]
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return addresses }
        defer { freeifaddrs(first) }
        var next: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = next {
            if let address = entry.pointee.ifa_addr {
                let family = Int32(address.pointee.sa_family)
                let length = family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
                if family == AF_INET || family == AF_INET6, let text = numeric(address, length: socklen_t(length)) {
                    addresses.insert(text)
                }
            }
            next = entry.pointee.ifa_next
        }
        return addresses
    }

    /// Whether `address` is this machine: a loopback address (`127.0.0.0/8`, `::1`, their
    /// IPv4-mapped forms) or one of `local`.
    static func isThisMachine(_ address: String, local: Set<String>) -> Bool {
        let bare = address.split(separator: "%").first.map(String.init) ?? address
        if local.contains(bare) || bare.hasPrefix("127.") || bare.hasPrefix("::ffff:127.") { return true }
        return false
    }

    private static func numeric(_ address: UnsafePointer<sockaddr>, length: socklen_t) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        let end = buffer.firstIndex(of: 0) ?? buffer.endIndex
        return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
