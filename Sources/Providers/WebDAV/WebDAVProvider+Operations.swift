import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI

extension WebDAVProvider {
    public func createFolder(named name: String, in parent: ItemPath) async throws -> Item {
        let path = try parent.appending(name)
        let request = HTTPRequest(method: .MKCOL, url: mapper.url(for: path, folder: true))
        let response = try await executor.execute(request)
        guard response.isSuccess else {
            if [400, 404, 405, 409].contains(response.status) {
                // Apache answers 400 for MKCOL over an existing file, 409 for a missing parent.
                if try await itemIfExists(at: path) != nil {
                    await response.body.discard()
                    throw ProviderError(.alreadyExists, "\(path) already exists", httpStatus: response.status, request: request.summary)
                }
                if try await itemIfExists(at: parent) == nil {
                    await response.body.discard()
                    throw ProviderError(.notFound, "the folder \(parent) does not exist", httpStatus: response.status, request: request.summary)
                }
            }
            throw await error(for: response, request: request, path: path) { status in
                // RFC 4918 9.3.1: 405 means the resource already exists.
                status == 405 ? .alreadyExists : nil
            }
        }
        await response.body.discard()
        return try await item(at: path)
    }

    public func delete(_ path: ItemPath) async throws {
        if path.isRoot { throw ProviderError(.invalidArgument, "refusing to delete the provider's root") }
        let request = HTTPRequest(method: .DELETE, url: mapper.url(for: path))
        let response = try await executor.execute(request)
        try await expectSuccess(response, request: request, path: path)
    }

    public func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try capabilities.require(.move, "move")
        return try await transfer(.MOVE, source, to: destination, options: options)
    }

    public func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try capabilities.require(.copy, "copy")
        return try await transfer(.COPY, source, to: destination, options: options)
    }

    /// `MOVE` or `COPY` with `Destination` and `Overwrite`.
    func transfer(_ method: HTTPMethod, _ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        if source.isRoot || destination.isRoot {
            throw ProviderError(.invalidArgument, "the root cannot be moved, copied or replaced")
        }
        if destination.isDescendant(of: source) {
            throw ProviderError(.invalidArgument, "cannot \(method.rawValue.lowercased()) \(source) into itself (\(destination))")
        }
        // nginx needs the trailing slash on both URLs for collections.
        let sourceItem = try await item(at: source)
        let folder = sourceItem.kind == .folder
        var headers = HTTPHeaders()
        headers.add(name: "Destination", value: mapper.url(for: destination, folder: folder).absoluteString)
        headers.add(name: "Overwrite", value: options.overwrite ? "T" : "F")
        if method == .COPY || folder { headers.add(name: "Depth", value: "infinity") }
        let request = HTTPRequest(method: method, url: mapper.url(for: source, folder: folder), headers: headers)
        let response = try await executor.execute(request)
        guard response.isSuccess else {
            if response.status == 409, try await itemIfExists(at: destination.parent) == nil {
                await response.body.discard()
                throw ProviderError(
                    .notFound, "the folder \(destination.parent) does not exist", httpStatus: 409, request: request.summary)
            }
            throw await error(for: response, request: request, path: source) { status in
                // RFC 4918 9.8.5 / 9.9.4: 412 with Overwrite: F means the destination exists.
                status == 412 && !options.overwrite ? .alreadyExists : nil
            }
        }
        try await expectSuccess(response, request: request, path: source)
        return try await item(at: destination)
    }

    public func quota() async throws -> Quota {
        try capabilities.require(.quota, "quota")
        let responses = try await propfind(.root, depth: "0", body: DAVRequestBodies.propfindQuota, folder: true)
        let found = responses.first?.found ?? [:]
        let used = found[.quotaUsed].flatMap { Int64($0.text) }
        let available = found[.quotaAvailable].flatMap { Int64($0.text) }.flatMap { $0 >= 0 ? $0 : nil }
        if used == nil, available == nil {
            throw ProviderError(.unsupported, "the server reported no quota for this folder")
        }
        return Quota(used: used, available: available)
    }

    /// Accepts 2xx, reading a 207 body for per-resource failures (RFC 4918 9.6.1, 9.8.8).
    func expectSuccess(_ response: HTTPResponse, request: HTTPRequest, path: ItemPath) async throws {
        guard response.isSuccess else { throw await error(for: response, request: request, path: path) }
        guard response.status == 207 else {
            await response.body.discard()
            return
        }
        let data = try await collect(response, request: request, limit: 64 << 20)
        let responses: [DAVResponse]
        do { responses = try MultistatusParser.parse(data) } catch var failure as ProviderError {
            failure.request = request.summary
            throw failure
        }
        for entry in responses {
            let status = entry.status ?? entry.propstats.first(where: { !(200..<300).contains($0.status) })?.status
            if let status, !(200..<300).contains(status) {
                throw ProviderError(
                    ProviderError.code(forHTTPStatus: status),
                    entry.message ?? "\(entry.href) failed with \(status)", httpStatus: status, request: request.summary)
            }
        }
    }
}
