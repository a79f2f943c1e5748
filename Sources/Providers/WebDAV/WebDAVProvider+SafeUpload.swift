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
    /// The conflict policy is kept by the `MOVE`, placed by `UploadPlacement`: `.fail` and
    /// `.rename` move with `Overwrite: F` (a taken name is looked at first where exclusive create
    /// is not declared), `.overwrite` looks at the name and replaces a file but never a folder. An
    /// `ifMatch` is compared with the target's etag before the body is sent and again just before
    /// the `MOVE` (not atomic: a change between that check and the `MOVE` is replaced). The
    /// temporary is deleted on failure and on cancellation.
    func uploadThroughTemporary(
        _ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions
    ) async throws -> Item {
        let target = try folder.appending(name)
        // Refusals that need no body are made before one is sent.
        if options.ifMatch != nil || options.conflict == .fail {
            _ = try UploadPlacement.decide(existing: try await itemIfExists(at: target), options: options, path: target, folderTaken: .conflict)
        }
        let temporary = try folder.appending(".strata-upload-\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp")
        var staged = options
        staged.ifMatch = nil
        staged.conflict = .overwrite
        staged.readBack = false
        do {
            _ = try await put(source, at: temporary, options: staged, exclusive: false)
            // `Overwrite: F` refuses a taken name where exclusive create was shown; `If-Match` and
            // folders are not the `MOVE`'s to keep, so the name is looked at for those.
            let placed = try await UploadPlacement.place(
                name, in: folder, options: options, checks: capabilities.supports(.exclusiveCreate) ? [.exclusive] : [],
                maxAttempts: 1000, folderTaken: .conflict,
                existing: { candidate in try await itemIfExists(at: folder.appending(candidate)) },
                write: { candidate, placement in
                    let path = try folder.appending(candidate)
                    try await moveTemporary(temporary, to: path, overwrite: placement == .replace)
                    return path
                })
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
