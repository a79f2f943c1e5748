import Foundation
import NIOHTTP1
import ProviderAPI
import Testing
import WebDAVProvider

/// How the adapter reads the answers real servers give to MOVE, COPY, MKCOL and DELETE
/// (RFC 4918 9.3, 9.6, 9.8, 9.9), and which URLs it sends, against scripted answers.
@Suite("WebDAV RFC 4918 answers")
struct RFC4918AnswerTests {
    /// lighttpd 1.4.69: `MOVE /src/` with `Overwrite: F` onto an existing folder answers 207
    /// with a 412 for the source.
    @Test("MOVE onto a folder under Overwrite: F answered 207 with a 412 is .alreadyExists")
    func moveOntoFolder207() async throws {
        let server = ScriptedDAVServer { method, path, _ in
            switch (method, path) {
            case ("PROPFIND", "/src"): return ScriptedDAVServer.stat("/src/", folder: true)
            case ("MOVE", "/src/"): return ScriptedDAVServer.failed("/src/", "412 Precondition Failed")
            default: return ScriptedDAVServer.notFound
            }
        }
        let error = await #expect(throws: ProviderError.self) {
            _ = try await server.provider().move("/src", to: "/dst", options: TransferOptions(overwrite: false))
        }
        #expect(error?.code == .alreadyExists, "\(String(describing: error))")
    }

    /// lighttpd 1.4.69: `COPY /src/` with `Overwrite: F` onto an existing folder answers 207
    /// with a 409 for the source.
    @Test("COPY onto an existing folder under Overwrite: F answered with a 409 is .alreadyExists")
    func copyOntoFolder409() async throws {
        let server = ScriptedDAVServer { method, path, _ in
            switch (method, path) {
            case ("PROPFIND", "/src"): return ScriptedDAVServer.stat("/src/", folder: true)
            case ("PROPFIND", "/dst"): return ScriptedDAVServer.stat("/dst/", folder: true)
            case ("PROPFIND", "/"): return ScriptedDAVServer.stat("/", folder: true)
            case ("COPY", "/src/"): return ScriptedDAVServer.failed("/src/", "409 Conflict")
            default: return ScriptedDAVServer.notFound
            }
        }
        let error = await #expect(throws: ProviderError.self) {
            _ = try await server.provider().copy("/src", to: "/dst", options: TransferOptions(overwrite: false))
        }
        #expect(error?.code == .alreadyExists, "\(String(describing: error))")
    }

    @Test("a 409 to MOVE whose destination folder is missing is .notFound; one whose target is free stays .conflict")
    func move409() async throws {
        let server = ScriptedDAVServer { method, path, _ in
            switch (method, path) {
            case ("PROPFIND", "/a.txt"): return ScriptedDAVServer.stat("/a.txt", folder: false)
            case ("PROPFIND", "/here"): return ScriptedDAVServer.stat("/here/", folder: true)
            case ("MOVE", _): return .init(status: 409)
            default: return ScriptedDAVServer.notFound
            }
        }
        let provider = try server.provider()
        let missing = await #expect(throws: ProviderError.self) {
            _ = try await provider.move("/a.txt", to: "/missing/b.txt", options: TransferOptions())
        }
        #expect(missing?.code == .notFound, "\(String(describing: missing))")
        let free = await #expect(throws: ProviderError.self) {
            _ = try await provider.move("/a.txt", to: "/here/b.txt", options: TransferOptions())
        }
        #expect(free?.code == .conflict, "\(String(describing: free))")
    }

    @Test("a 412 to COPY of a file under Overwrite: F is .alreadyExists (nginx, rclone serve)")
    func copyFile412() async throws {
        let server = ScriptedDAVServer { method, path, headers in
            switch (method, path) {
            case ("PROPFIND", "/a.txt"): return ScriptedDAVServer.stat("/a.txt", folder: false)
            case ("COPY", "/a.txt"):
                return headers.first(name: "Overwrite") == "F"
                    ? .init(status: 412, headers: ["Content-Type": "text/plain"], body: "Precondition Failed") : .init(status: 204)
            default: return ScriptedDAVServer.notFound
            }
        }
        let error = await #expect(throws: ProviderError.self) {
            _ = try await server.provider().copy("/a.txt", to: "/b.txt", options: TransferOptions(overwrite: false))
        }
        #expect(error?.code == .alreadyExists, "\(String(describing: error))")
    }

    @Test("MOVE with overwrite onto an existing folder deletes it first, so no server merges the two")
    func folderOverwriteReplaces() async throws {
        let server = ScriptedDAVServer { method, path, _ in
            switch (method, path) {
            case ("PROPFIND", "/src"): return ScriptedDAVServer.stat("/src/", folder: true)
            case ("PROPFIND", "/dst"): return ScriptedDAVServer.stat("/dst/", folder: true)
            case ("DELETE", "/dst/"): return .init(status: 204)
            case ("MOVE", "/src/"): return .init(status: 204)
            default: return ScriptedDAVServer.notFound
            }
        }
        _ = try await server.provider().move("/src", to: "/dst", options: TransferOptions(overwrite: true))
        let requests = await server.requests
        let delete = requests.firstIndex(of: "DELETE /dst/")
        let move = requests.firstIndex(of: "MOVE /src/")
        #expect(delete != nil && move != nil && delete! < move!, "\(requests)")
    }

    /// nginx 1.22 answers 409 to `DELETE /dir` without the trailing slash.
    @Test("DELETE of a folder the server refuses without its slash is sent again with it")
    func deleteFolderSlash() async throws {
        let server = ScriptedDAVServer { method, path, _ in
            switch (method, path) {
            case ("DELETE", "/dir"): return .init(status: 409, headers: ["Content-Type": "text/html"], body: "<html>409</html>")
            case ("PROPFIND", "/dir"): return ScriptedDAVServer.stat("/dir", folder: true)
            case ("DELETE", "/dir/"): return .init(status: 204)
            default: return ScriptedDAVServer.notFound
            }
        }
        try await server.provider().delete("/dir")
        #expect(await server.requests.last == "DELETE /dir/")
    }

    @Test("DELETE of a file costs one request")
    func deleteFile() async throws {
        let server = ScriptedDAVServer { method, path, _ in
            (method, path) == ("DELETE", "/a.txt") ? .init(status: 204) : ScriptedDAVServer.notFound
        }
        try await server.provider().delete("/a.txt")
        #expect(await server.requests == ["DELETE /a.txt"])
    }

    @Test("423 is a .conflict that says the item is locked; 507 is .quotaExceeded")
    func lockedAndQuota() async throws {
        let server = ScriptedDAVServer { method, _, _ in
            switch method {
            case "DELETE": return .init(status: 423)
            case "MKCOL": return .init(status: 507)
            default: return ScriptedDAVServer.notFound
            }
        }
        let provider = try server.provider()
        let locked = await #expect(throws: ProviderError.self) { try await provider.delete("/a.txt") }
        #expect(locked?.code == .conflict && locked?.message?.contains("locked") == true, "\(String(describing: locked))")
        let quota = await #expect(throws: ProviderError.self) { _ = try await provider.createFolder(named: "d", in: .root) }
        #expect(quota?.code == .quotaExceeded, "\(String(describing: quota))")
    }

    /// lighttpd 1.4.69 answers GET with a stale If-Match with 200 and the current content.
    @Test("a download whose answer carries another etag than ifMatch is .preconditionFailed and writes nothing")
    func downloadIgnoringIfMatch() async throws {
        let server = ScriptedDAVServer { method, _, _ in
            method == "GET" ? .init(status: 200, headers: ["ETag": "\"new\"", "Content-Length": "3"], body: "new") : ScriptedDAVServer.notFound
        }
        let provider = try server.provider()
        let sink = MemorySink()
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.download("/a.txt", to: sink, options: DownloadOptions(ifMatch: "\"old\""))
        }
        #expect(error?.code == .preconditionFailed, "\(String(describing: error))")
        #expect(await sink.data.isEmpty)
        let current = MemorySink()
        _ = try await provider.download("/a.txt", to: current, options: DownloadOptions(ifMatch: "W/\"new\""))
        let content = await current.data
        #expect(String(decoding: content, as: UTF8.self) == "new")
    }

    @Test("download and upload options whose feature is not declared throw .unsupported before any request")
    func undeclaredOptions() async throws {
        let server = ScriptedDAVServer { _, _, _ in .init(status: 412) }
        let provider = try server.provider(profile: WebDAVServerProfile(honoursPreconditions: false))
        #expect(!provider.capabilities.supports(.preconditions))
        for options in [DownloadOptions(ifMatch: "\"e1\""), DownloadOptions(ifNoneMatch: "\"e1\"")] {
            let error = await #expect(throws: ProviderError.self) {
                _ = try await provider.download("/a.txt", to: MemorySink(), options: options)
            }
            #expect(error?.code == .unsupported, "\(String(describing: error))")
        }
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(DataSource(string: "x"), to: .root, name: "a.txt", options: UploadOptions(ifMatch: "\"e1\""))
        }
        #expect(error?.code == .unsupported, "\(String(describing: error))")
        let requests = await server.requests
        #expect(requests.isEmpty, "\(requests)")
    }
}
