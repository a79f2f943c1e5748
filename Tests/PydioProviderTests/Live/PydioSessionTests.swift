import Foundation
import NIOCore
import ProviderAPI
import ProviderKit
import PydioProvider
import PydioTestServer
import Testing

/// Signing in, expiry, captcha and faults against the loopback Pydio server.
@Suite("Pydio sessions on the loopback server")
struct PydioSessionTests {
    @Test("login is lazy: nothing is sent until the first call, then seed and login once")
    func lazyLogin() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try PydioProvider(configuration: pydio.configuration())
        #expect(pydio.server.requests().isEmpty)
        _ = try await provider.list(.root, page: .first)
        let actions = pydio.server.requests().compactMap(\.action)
        #expect(Array(actions.prefix(3)) == ["get_seed", "login", "ls"])
        _ = try await provider.list(.root, page: .first)
        #expect(pydio.server.requests().filter { $0.action == "login" }.count == 1)
        #expect(pydio.server.requests().dropFirst(2).allSatisfy { $0.parameter("secure_token") != nil })
        #expect(await provider.session.signInCount == 1)
    }

    @Test("an expired session signs in again and replays the call, once")
    func expiry() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        _ = try await provider.upload(DataSource(string: "hello"), to: .root, name: "a.txt", options: UploadOptions())
        pydio.server.faults.expireSessions()
        pydio.server.resetRequests()
        let item = try await provider.item(at: "/a.txt")
        #expect(item.size == 5)
        #expect(pydio.server.requests().filter { $0.action == "login" }.count == 1)
        #expect(await provider.session.signInCount == 2)
    }

    @Test("a wrong password is unauthorized at once, without a login loop")
    func wrongPassword() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try PydioProvider(configuration: pydio.configuration(password: "wrong"))
        let error = await #expect(throws: ProviderError.self) { _ = try await provider.list(.root, page: .first) }
        #expect(error?.code == .unauthorized)
        #expect(pydio.server.requests().filter { $0.action == "login" }.count == 1)
    }

    @Test("a captcha demand surfaces with its image; the answer signs in; an empty answer is never sent")
    func captcha() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        pydio.server.faults.demandCaptcha()
        let provider = try PydioProvider(configuration: pydio.configuration())
        let error = await #expect(throws: ProviderError.self) { _ = try await provider.list(.root, page: .first) }
        #expect(error?.code == .captchaRequired)
        #expect(error?.captchaImage?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        await #expect(throws: ProviderError.self) { try await provider.session.signIn(captcha: " ") }
        #expect(!pydio.server.requests().contains { $0.parameter("captcha_code") != nil })
        try await provider.session.signIn(captcha: pydio.server.faults.captchaWord)
        let listing = try await provider.list(.root, page: .first)
        #expect(listing.items.allSatisfy { $0.path.parent == .root })
        #expect(await provider.session.isSignedIn)
        #expect(pydio.server.requests().contains { $0.parameter("captcha_code") == pydio.server.faults.captchaWord })
    }

    @Test("a seed other than -1 gets md5(md5(password) + seed), as Pydio 5 and 6 expect")
    func hashedPassword() async throws {
        let pydio = try await LoopbackPydio.start { $0.seed = "4f2d6c1e9a" }
        defer { Task { await pydio.stop() } }
        let provider = try await PydioProvider.connect(pydio.configuration())
        #expect(await provider.session.isSignedIn)
        let sent = pydio.server.requests().first { $0.action == "login" }?.parameter("password")
        #expect(sent == PydioSession.password(LoopbackPydio.password, seed: "4f2d6c1e9a"))
        #expect(sent != LoopbackPydio.password)
    }

    @Test("503 with Retry-After is retried; a cut download resumes; the off-by-one range is exact")
    func faults() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let bytes = patternBytes(200_000)
        // A file last changed a minute ago: its Last-Modified is then a strong validator (RFC 9110
        // §8.8.2.2: at least a second before the answer's Date), which a resume needs. A file
        // uploaded in the same second as the download has none, and the download rightly starts
        // over: with an upload here the resume depended on the clock crossing a second.
        let name = "big-\(UUID().uuidString).bin"
        pydio.server.seedFile(
            workspace: LoopbackPydio.workspace, path: "/" + name, contents: Data(bytes), modified: Date().addingTimeInterval(-60))
        let provider = try await PydioProvider.connect(pydio.configuration(retry: .standard))
        let file = try await provider.item(at: try ItemPath("/" + name))
        pydio.server.faults.failNext(status: 503, retryAfter: 1) { $0 == "ls" }
        #expect(try await provider.item(at: file.path).size == Int64(bytes.count))
        let range = MemorySink()
        _ = try await provider.download(file.path, to: range, options: DownloadOptions(range: .bytes(2...5)))
        #expect(await range.bytes == Array(bytes[2...5]))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pydio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent(name)
        pydio.server.faults.dropDownloadConnection(afterBytes: 70_000)
        await #expect(throws: ProviderError.self) {
            _ = try await provider.download(file.path, to: FileSink(url: target, resumable: true), options: DownloadOptions(resume: true, maxResumes: 0))
        }
        let resumed = try await provider.download(file.path, to: FileSink(url: target, resumable: true), options: DownloadOptions(resume: true))
        #expect(resumed.offset > 0)
        #expect(try Data(contentsOf: target) == Data(bytes))
    }
}
