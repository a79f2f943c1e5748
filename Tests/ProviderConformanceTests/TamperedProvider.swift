import Foundation
import ProviderAPI
import ProviderConformance

/// Wraps an ``InMemoryProvider`` and breaks one behaviour, to prove that a case notices.
struct TamperedProvider: StorageProvider {
    /// What is broken.
    enum Tamper: String, Sendable, CaseIterable {
        /// Deleting a top-level folder fails (the scratch folder cannot be cleaned up).
        case undeletableScratch
        /// Ranged downloads return the whole file.
        case ignoresRanges
        /// Progress handlers are never called.
        case dropsProgress
        /// Downloads run to the end in an unstructured task, whatever happens to the caller.
        case swallowsCancellation
        /// Names are folded to NFC although the capabilities say `.preserved`.
        case foldsToNFC
        /// Downloads look the file up through the given transport, then fetch its content
        /// another way (``direct``), as through a CDN: a fault injected there never meets the content.
        case downloadsAroundTransport
        /// Every call goes another way (``direct``): the given transport is never used.
        case ignoresTransport
        /// Resumed downloads start over from the first byte.
        case ignoresResume
        /// An upload whose source breaks stores the bytes read before the break under the final name.
        case keepsBrokenUploads
        /// A sink's failure is ignored: the download goes on into a fresh memory buffer and succeeds.
        case swallowsSinkErrors
        /// A refused login is reported as "not found" (which a sync would read as deleted).
        case refusalAsNotFound
        /// A refused login is asked again and again (20 times) before failing.
        case retriesRefusals
    }

    let base: InMemoryProvider
    let tamper: Tamper
    /// The provider reaching the same server without the case's transport, for the tampers that go around it.
    var direct: InMemoryProvider? = nil

    var capabilities: Capabilities { base.capabilities }
    var account: ProviderAccount { base.account }

    private func name(_ name: String) -> String {
        tamper == .foldsToNFC ? name.precomposedStringWithCanonicalMapping : name
    }

    private func path(_ path: ItemPath) throws -> ItemPath {
        tamper == .foldsToNFC ? try ItemPath(segments: path.segments.map(name)) : path
    }

    func item(at path: ItemPath) async throws -> Item {
        let path = try self.path(path)
        do {
            return try await base.item(at: path)
        } catch let error as ProviderError where error.code == .unauthorized {
            switch tamper {
            case .refusalAsNotFound:
                throw ProviderError(.notFound, "no such item")
            case .retriesRefusals:
                for _ in 0..<20 { _ = try? await base.item(at: path) }
                throw error
            default:
                throw error
            }
        }
    }

    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage { try await base.list(try path(folder), page: page) }

    func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        var options = options
        switch tamper {
        case .ignoresRanges:
            options.range = nil
        case .dropsProgress:
            options.progress = nil
        case .ignoresResume:
            options.resume = false
        case .swallowsSinkErrors:
            do {
                return try await base.download(try self.path(path), to: sink, options: options)
            } catch {
                return try await base.download(try self.path(path), to: MemorySink(), options: options)
            }
        case .downloadsAroundTransport, .ignoresTransport:
            if let direct {
                if tamper == .downloadsAroundTransport { _ = try await base.item(at: path) }
                return try await direct.download(path, to: sink, options: options)
            }
        case .swallowsCancellation:
            let base = base
            let target = try self.path(path)
            let detached = options
            return try await Task.detached { try await base.download(target, to: sink, options: detached) }.value
        default:
            break
        }
        return try await base.download(try self.path(path), to: sink, options: options)
    }

    func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        var options = options
        if tamper == .dropsProgress { options.progress = nil }
        if tamper == .keepsBrokenUploads {
            var read: [UInt8] = []
            do {
                for try await piece in try source.makeStream() { read += piece.readableBytesView }
            } catch {
                _ = try await base.upload(DataSource(bytes: read), to: try path(folder), name: self.name(name), options: options)
                throw ProviderError.wrap(error)
            }
            return try await base.upload(DataSource(bytes: read), to: try path(folder), name: self.name(name), options: options)
        }
        return try await base.upload(source, to: try path(folder), name: self.name(name), options: options)
    }

    func createFolder(named name: String, in parent: ItemPath) async throws -> Item {
        try await base.createFolder(named: self.name(name), in: try path(parent))
    }

    func delete(_ path: ItemPath) async throws {
        if tamper == .undeletableScratch, path.segments.count == 1 { throw ProviderError(.forbidden, "no") }
        try await base.delete(try self.path(path))
    }

    func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await base.move(try path(source), to: try path(destination), options: options)
    }

    func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await base.copy(try path(source), to: try path(destination), options: options)
    }
}
