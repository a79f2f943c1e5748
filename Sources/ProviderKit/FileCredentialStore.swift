import Foundation
import NIOCore
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Credentials in a JSON file readable by its owner only (mode 0600).
///
/// Writes go to a temporary file created with mode 0600 and are renamed into
/// place, so the file is never readable by others, not even for a moment, and
/// never left half-written. A file that others can read or write is refused with
/// `ProviderError.Code.forbidden`, as ssh refuses a loose private key.
public actor FileCredentialStore: CredentialStore {
    /// The file.
    public nonisolated let url: URL

    /// A store kept in `url`; the file is created on the first save.
    public init(url: URL) { self.url = url }

    private func load() throws -> [String: Credentials] {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return [:] }
        if info.st_mode & 0o077 != 0 {
            throw ProviderError(
                .forbidden,
                "\(url.path) is accessible by other users (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600")
        }
        let data = try Data(contentsOf: url)
        do {
            return try JSONDecoder().decode([String: Credentials].self, from: data)
        } catch {
            throw ProviderError(.invalidResponse, "\(url.path) is not a valid credential file")
        }
    }

    private func save(_ entries: [String: Credentials]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(entries)
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let file = try PosixFile.open(temporary.path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        do {
            try file.write(ByteBuffer(bytes: data))
            try file.sync()
            file.closeNow()
            try PosixFile.rename(temporary.path, url.path)
        } catch {
            file.closeNow()
            PosixFile.remove(temporary.path)
            throw error
        }
    }

    public func credentials(for key: String) async throws -> Credentials? { try load()[key] }

    public func setCredentials(_ credentials: Credentials?, for key: String) async throws {
        var entries = try load()
        entries[key] = credentials
        try save(entries)
    }

    public func keys() async throws -> [String] { try load().keys.sorted() }
}
