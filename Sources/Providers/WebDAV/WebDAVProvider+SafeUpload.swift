import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import ProviderKit
import HTTPProviderKit

extension WebDAVProvider {
    /// An upload for a server that keeps a cancelled `PUT`'s partial body
    /// (``WebDAVServerProfile/uploadsThroughTemporary``): the body goes to a temporary sibling
    /// `.strata-upload-<random>.tmp`, which is then moved over the final name, so a cancelled or
    /// failed upload never leaves a partial file under that name nor destroys its old content.
    ///
    /// The conflict policy is kept by the `MOVE`: `.fail` and `.rename` move with `Overwrite: F`
    /// (a taken name is checked first where exclusive create is not declared), `.overwrite`
    /// replaces a file but never a folder. An `ifMatch` is compared with the target's etag before
    /// the body is sent and again just before the `MOVE` (not atomic: a change between that check
    /// and the `MOVE` is replaced). The temporary is deleted on failure and on cancellation.
    func uploadThroughTemporary(
        _ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions
    ) async throws -> Item {
        let target = try folder.appending(name)
        // Refusals that need no body are made before one is sent.
        if let ifMatch = options.ifMatch { try await expectCurrent(target, ifMatch: ifMatch) }
        if options.conflict == .fail, try await itemIfExists(at: target) != nil {
            throw ProviderError(.alreadyExists, "\(target) already exists")
        }
        let temporary = try folder.appending(".strata-upload-\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp")
        var staged = options
        staged.ifMatch = nil
        staged.conflict = .overwrite
        staged.readBack = false
        do {
            _ = try await put(source, at: temporary, options: staged, exclusive: false)
            let placed = try await place(temporary, name: name, in: folder, options: options)
            guard options.readBack else {
                var item = Item(path: placed, kind: .file)
                item.size = source.length
                item.mimeType = options.mimeType ?? MIMETypes.guess(name)
                return item
            }
            var item = try await item(at: placed)
            if item.size == nil { item.size = source.length }
            return item
        } catch {
            await discardTemporary(temporary)
            throw error
        }
    }

    /// Moves `temporary` to its final name under `options.conflict`; returns that name.
    private func place(_ temporary: ItemPath, name: String, in folder: ItemPath, options: UploadOptions) async throws -> ItemPath {
        let exclusive = capabilities.supports(.exclusiveCreate)
        switch options.conflict {
        case .fail:
            let target = try folder.appending(name)
            if !exclusive, try await itemIfExists(at: target) != nil {
                throw ProviderError(.alreadyExists, "\(target) already exists")
            }
            try await moveTemporary(temporary, to: target, overwrite: false)
            return target
        case .rename:
            for attempt in 0..<1000 {
                let candidate = try folder.appending(ConflictNames.candidate(name, attempt: attempt))
                if !exclusive, try await itemIfExists(at: candidate) != nil { continue }
                do {
                    try await moveTemporary(temporary, to: candidate, overwrite: false)
                    return candidate
                } catch let error as ProviderError where error.code == .alreadyExists {
                    continue
                }
            }
            throw ProviderError(.alreadyExists, "no free name for \(name) after 1000 attempts")
        case .overwrite:
            let target = try folder.appending(name)
            if let ifMatch = options.ifMatch { try await expectCurrent(target, ifMatch: ifMatch) }
            do {
                // A new name needs no more; a taken one is replaced only when it is a file.
                try await moveTemporary(temporary, to: target, overwrite: false)
            } catch let error as ProviderError where error.code == .alreadyExists {
                if let existing = try await itemIfExists(at: target), existing.kind == .folder {
                    throw ProviderError(.conflict, "\(target) is a folder, not a file")
                }
                try await moveTemporary(temporary, to: target, overwrite: true)
            }
            return target
        }
    }

    /// Fails with `.preconditionFailed` unless `path` exists with the etag `ifMatch`.
    private func expectCurrent(_ path: ItemPath, ifMatch: String) async throws {
        guard let existing = try await itemIfExists(at: path) else {
            throw ProviderError(.preconditionFailed, "\(path) does not exist (expected etag \(ifMatch))")
        }
        guard let etag = existing.etag, WebDAVProvider.sameETag(etag, ifMatch) else {
            throw ProviderError(.preconditionFailed, "\(path) has changed (etag \(existing.etag ?? "none"))")
        }
    }

    /// `MOVE` of a staged upload onto `target`, its failures read as for ``move(_:to:options:)``.
    private func moveTemporary(_ temporary: ItemPath, to target: ItemPath, overwrite: Bool) async throws {
        var headers = HTTPHeaders()
        headers.add(name: "Destination", value: mapper.url(for: target).absoluteString)
        headers.add(name: "Overwrite", value: overwrite ? "T" : "F")
        let request = TransportRequest(method: .MOVE, url: mapper.url(for: temporary), headers: headers)
        let response = try await executor.execute(request)
        guard response.isSuccess else {
            let body = (try? await response.body.collect(upTo: 64 << 10)) ?? ByteBuffer()
            let generic = errorSync(for: response, body: body, request: request, path: temporary)
            throw try await transferError(generic, destination: target, overwrite: overwrite)
        }
        if let failure = try await multistatusFailure(response, request: request) {
            throw try await transferError(failure, destination: target, overwrite: overwrite)
        }
    }

    /// Deletes a staged upload, also when the upload was cancelled (the `DELETE` runs in a task
    /// of its own, which the caller's cancellation does not reach).
    private func discardTemporary(_ temporary: ItemPath) async {
        let provider = self
        await Task { try? await provider.deleteItem(temporary, folder: false) }.value
    }
}
