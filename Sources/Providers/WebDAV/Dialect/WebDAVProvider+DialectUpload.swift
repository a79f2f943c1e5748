import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit

extension WebDAVProvider {
    /// An upload in the dialect: the content's SHA-1 is read first and sent as `OC-Checksum`, the
    /// modified time as `X-OC-Mtime` (checked against the `X-OC-MTime: accepted` answer, else set
    /// with `PROPPATCH`), and files from ``WebDAVDialect/chunkThreshold`` up go in chunks.
    func dialectPut(
        _ source: any UploadSource, at path: ItemPath, options: UploadOptions, exclusive: Bool, dialect: WebDAVDialect
    ) async throws -> Item {
        // An upload cut off earlier continues where the server's chunks end, without reading the
        // content before them (its SHA-1 was recorded with the session).
        let checkpoint = dialect.features.chunking
            ? UploadCheckpointer(
                store: uploadCheckpoints, account: account, destination: path, options: options, format: NextcloudUploadSession.format)
            : nil
        if let checkpoint, let length = source.length, length >= dialect.chunkThreshold {
            let uploader = ChunkedUploader(provider: self, dialect: dialect)
            if let item = try await uploader.resume(checkpoint, source: source, to: path, options: options, exclusive: exclusive) {
                return item
            }
        }
        // A source that cannot be read twice, or whose length is unknown, is spooled to disk first.
        var spooled: URL?
        defer { if let spooled { try? FileManager.default.removeItem(at: spooled) } }
        var source = source
        if !source.isReplayable || source.length == nil {
            let url = try await TemporarySpool.spool(source)
            spooled = url
            source = try FileSource(url: url)
        }
        let length = source.length ?? 0
        let sha1 = try await OwnCloudChecksum.digest(of: source, algorithm: .sha1)
        if dialect.features.chunking, length >= dialect.chunkThreshold {
            let uploader = ChunkedUploader(provider: self, dialect: dialect)
            do {
                return try await uploader.upload(
                    source, length: length, sha1: sha1, to: path, options: options, exclusive: exclusive, checkpoint: checkpoint)
            } catch is ChunkingUnavailable {
                // The capabilities promised chunking but there is no upload area: one PUT it is.
            }
        }
        var headers = HTTPHeaders()
        headers.add(name: "OC-Checksum", value: OwnCloudChecksum.header(.sha1, sha1))
        if let modified = options.modified { headers.add(name: "X-OC-Mtime", value: Self.ocMtime(modified)) }
        let answer = NIOLockedValueBox<HTTPHeaders?>(nil)
        var item: Item
        do {
            item = try await plainPut(
                source, at: path, options: options, exclusive: exclusive, extraHeaders: headers,
                answered: { headers in answer.withLockedValue { $0 = headers } })
        } catch let failure as ProviderError {
            throw ChunkedUploader.checksumAware(failure)
        }
        item = try await confirmUpload(item, at: path, sha1: sha1, modified: options.modified, answer: answer.withLockedValue { $0 })
        return item
    }

    /// After an upload: the modified time set where `X-OC-Mtime` was not accepted, and the
    /// server's checksum compared with the one sent.
    func confirmUpload(_ item: Item, at path: ItemPath, sha1: String, modified: Date?, answer: HTTPHeaders?) async throws -> Item {
        var item = item
        if let modified {
            let accepted = answer?.first(name: "x-oc-mtime")?.lowercased() == "accepted"
            if !accepted {
                await setModified(modified, at: path)
                item = try await self.item(at: path)
            }
        }
        if let stored = item.digests[.sha1], stored != sha1 {
            // Damaged content must not stay under the final name.
            try? await delete(path)
            throw ProviderError(
                .integrity, "the server stored \(path) with SHA-1 \(stored), but \(sha1) was sent")
        }
        return item
    }

    /// `X-OC-Mtime` takes whole seconds since 1970 (a date outside the years 1–9999 is sent as the nearest end).
    static func ocMtime(_ date: Date) -> String {
        String(UnixTime.clampedSeconds(date))
    }
}
