import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

extension InMemoryProvider {
    package func item(at path: ItemPath) async throws -> Item {
        var item = visible(try await call(Item.self, .PROPFIND, path, headers: [("Depth", "0")]))
        if defects.contains(.reportsWrongSize), let size = item.size { item.size = size + 1 }
        return item
    }

    package func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        var headers = [("Depth", "1")]
        if capabilities.supports(.paging), let limit = page.limit { headers.append((InMemoryWire.limitHeader, String(limit))) }
        if let cursor = page.cursor { headers.append((InMemoryWire.cursorHeader, cursor.rawValue)) }
        var result = try await call(ItemPage.self, .PROPFIND, folder, headers: headers)
        result.items = result.items.map(visible)
        if defects.contains(.dropsEntryWhenPaging), page.cursor != nil, !result.items.isEmpty { result.items.removeFirst() }
        if defects.contains(.overstatesCount), let total = result.totalCount { result.totalCount = total + 1 }
        return result
    }

    package func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        if options.range != nil { try await require(.rangeDownload, "range downloads") }
        if options.resume { try await require(.resumeDownload, "resumed downloads") }
        if options.ifMatch != nil || options.ifNoneMatch != nil { try await require(.preconditions, "conditional downloads") }
        let request = TransportRequest(method: .GET, url: try InMemoryWire.url(path))
        if defects.contains(.acceptsShortDownloads) { return try await naiveDownload(request, path: path, to: sink) }
        var result = try await HTTPDownloader(executor: executor).download(
            request, to: sink, options: options, expected: nil, dialect: InMemoryDownloadAnswers(path: path))
        result.item = visible(result.item)
        return result
    }

    /// The defect ``Defects/acceptsShortDownloads``: every byte that comes is kept, and the end of the body is taken as the end of the file.
    private func naiveDownload(_ request: TransportRequest, path: ItemPath, to sink: any DownloadSink) async throws -> DownloadResult {
        let response = try await executor.execute(request)
        guard response.status == 200 else {
            let body = (try? await response.body.collect(upTo: 64 << 10)) ?? ByteBuffer()
            throw InMemoryWire.error(for: response, body: body, request: request.summary)
        }
        try await sink.begin(offset: 0, expectedLength: nil, validator: response.etag)
        var received: Int64 = 0
        do {
            for try await piece in response.body {
                try await sink.write(piece)
                received += Int64(piece.readableBytes)
            }
            try await sink.finish()
        } catch {
            await sink.fail()
            throw ProviderError.wrap(error, request: request.summary)
        }
        return DownloadResult(item: Item(path: path, kind: .file, etag: response.etag), bytesReceived: received)
    }

    package func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        if options.ifMatch != nil { try await require(.preconditions, "conditional uploads") }
        if let maximum = capabilities.maxUploadSize, let length = source.length, length > maximum {
            throw ProviderError(.quotaExceeded, "\(length) bytes is more than the largest upload, \(maximum)")
        }
        var conflict = options.conflict
        if defects.contains(.ignoresFailPolicy), conflict == .fail { conflict = .overwrite }
        if defects.contains(.checksThenCreates), conflict == .fail, options.ifMatch == nil {
            if (try? await item(at: try folder.appending(name))) != nil {
                throw ProviderError(.alreadyExists, "\(try folder.appending(name)) already exists")
            }
            try await Task.sleep(for: .milliseconds(50))
            conflict = .overwrite
        }
        var headers = [(InMemoryWire.conflictHeader, conflict.rawValue)]
        if let ifMatch = options.ifMatch { headers.append(("If-Match", ifMatch)) }
        if let modified = options.modified, capabilities.supports(.setModifiedTime) {
            headers.append((InMemoryWire.modifiedHeader, String(modified.timeIntervalSince1970)))
        }
        if let mimeType = options.mimeType { headers.append(("Content-Type", mimeType)) }
        let target = try folder.appending(name)
        let body: any UploadSource = defects.contains(.emptiesDatedUploads) && options.modified != nil ? DataSource(bytes: []) : source
        return visible(try await call(Item.self, .PUT, target, headers: headers, body: .source(body), progress: options.progress))
    }

    package func createFolder(named name: String, in parent: ItemPath) async throws -> Item {
        visible(try await call(Item.self, .MKCOL, try parent.appending(name)))
    }

    package func delete(_ path: ItemPath) async throws {
        _ = try await exchange(.DELETE, path)
    }

    package func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await require(.move, "move")
        return try await transfer(.MOVE, source, destination, options)
    }

    package func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await require(.copy, "copy")
        return try await transfer(.COPY, source, destination, options)
    }

    private func transfer(_ method: HTTPMethod, _ source: ItemPath, _ destination: ItemPath, _ options: TransferOptions) async throws -> Item {
        let headers = [("Destination", InMemoryWire.encode(destination)), ("Overwrite", options.overwrite ? "T" : "F")]
        return visible(try await call(Item.self, method, source, headers: headers))
    }
}
