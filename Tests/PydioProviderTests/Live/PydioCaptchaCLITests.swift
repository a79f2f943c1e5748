import Foundation
import ProviderAPI
import PydioTestServer
import StrataProcessKit
import Testing

/// `strata` against a Pydio server that demands a captcha, as a user meets it after three
/// mistyped passwords: the image is saved, the word is asked on a terminal or taken by
/// `--captcha` in the next run, in the server session the image belongs to.
@Suite("strata answers a Pydio captcha")
struct PydioCaptchaCLITests {
    /// A private home for one test: `HOME` and `XDG_CACHE_HOME` point into it.
    static func home() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-captcha-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func environment(home: URL, password: String) -> [String: String?] {
        ["STRATA_PASSWORD": password, "HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path]
    }

    /// Runs strata without a terminal.
    static func run(_ arguments: [String], home: URL, password: String = LoopbackPydio.password) async throws -> StrataRun {
        try await StrataProcess.run(arguments, environment: environment(home: home, password: password))
    }

    /// Runs strata on a terminal, typing `answer(n)` at its n-th captcha prompt.
    static func runOnTerminal(_ arguments: [String], home: URL, answer: @escaping @Sendable (Int) -> String) async throws -> StrataRun {
        try await StrataProcess.runOnTerminal(
            arguments, environment: environment(home: home, password: LoopbackPydio.password), prompt: "type the word in the image",
            answer: answer)
    }

    static func target(_ pydio: LoopbackPydio) -> String {
        pydio.server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "pydio://") + LoopbackPydio.workspace + "/"
    }

    @Test("without a terminal the image is saved and the session kept (0600); --captcha in the next run signs in in that session")
    func nextRun() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        pydio.server.faults.demandCaptcha()
        let image = home.appendingPathComponent("captcha.png")

        let first = try await Self.run(["ls", Self.target(pydio), "-u", LoopbackPydio.user, "--captcha-out", image.path], home: home)
        #expect(first.status != 0, "\(first)")
        #expect(first.error.contains("asks \(LoopbackPydio.user) for a captcha"), "\(first.error)")
        #expect(first.error.contains(image.path) && first.error.contains("--captcha WORD"), "\(first.error)")
        #expect(!first.error.contains(LoopbackPydio.password), "the password is never printed")
        let png = try Data(contentsOf: image)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let folder = home.appendingPathComponent("cache/strata/sign-in")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("session-") }
        #expect(kept.count == 1, "\(kept)")
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        if let name = kept.first {
            let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
        let word = pydio.server.faults.captchaWord

        let second = try await Self.run(["ls", Self.target(pydio), "-u", LoopbackPydio.user, "--captcha", word], home: home)
        #expect(second.status == 0, "\(second)")
        let requests = pydio.server.requests()
        #expect(requests.filter { $0.action == "get_captcha" }.count == 1, "the second run answered the first run's image, without a new one")
        #expect(requests.contains { $0.action == "login" && $0.parameter("captcha_code") == word })
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("session-") }
        #expect(left.isEmpty, "the kept session is dropped once used: \(left)")
    }

    @Test("--captcha without a kept session is not sent (a new session never showed that image): a new image is saved")
    func wordWithoutSession() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        pydio.server.faults.demandCaptcha()
        let run = try await Self.run(["ls", Self.target(pydio), "-u", LoopbackPydio.user, "--captcha", "abcde"], home: home)
        #expect(run.status != 0)
        #expect(run.error.contains("--captcha was not used"), "\(run.error)")
        #expect(run.error.contains("asks \(LoopbackPydio.user) for a captcha: the image is in"), "\(run.error)")
        #expect(!pydio.server.requests().contains { $0.parameter("captcha_code") != nil }, "no attempt is spent on a word no image of this session stands for")
        #expect(pydio.server.requests().filter { $0.action == "get_captcha" }.count == 1)
    }

    @Test("a refused word from the next run brings a new image and keeps the new session")
    func refusedWord() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        pydio.server.faults.demandCaptcha()
        _ = try await Self.run(["ls", Self.target(pydio), "-u", LoopbackPydio.user], home: home)
        let run = try await Self.run(["ls", Self.target(pydio), "-u", LoopbackPydio.user, "--captcha", "wrong"], home: home)
        #expect(run.status != 0)
        #expect(run.error.contains("for a captcha again (the last word was refused)"), "\(run.error)")
        let word = pydio.server.faults.captchaWord
        let third = try await Self.run(["ls", Self.target(pydio), "-u", LoopbackPydio.user, "--captcha", word], home: home)
        #expect(third.status == 0, "\(third)")
    }

    @Test("on a terminal the word is asked in the same run, and a refused word is asked again with a new image")
    func terminalPrompt() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        pydio.server.seedFile(workspace: LoopbackPydio.workspace, path: "/seen.txt", contents: Data("seen\n".utf8))
        pydio.server.faults.demandCaptcha()
        let server = pydio.server
        let run = try await Self.runOnTerminal(["ls", Self.target(pydio), "-u", LoopbackPydio.user], home: home) { prompt in
            prompt == 1 ? "wrong" : server.faults.captchaWord
        }
        #expect(run.status == 0, "\(run.outputText)")
        #expect(run.outputText.contains("seen.txt"), "\(run.outputText)")
        #expect(run.outputText.components(separatedBy: "type the word in the image").count - 1 == 2, "\(run.outputText)")
        #expect(pydio.server.requests().filter { $0.action == "get_captcha" }.count == 2)
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("cache/strata/sign-in").path)) ?? []
        #expect(!kept.contains { $0.hasPrefix("session-") }, "nothing is kept when the word was typed: \(kept)")
    }

    @Test("an empty password is refused before any request: no sign-in attempt is spent")
    func emptyPassword() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try await Self.run(["ls", Self.target(pydio), "-u", LoopbackPydio.user], home: home, password: "")
        #expect(run.status != 0)
        #expect(run.error.contains("no password for \(LoopbackPydio.user)"), "\(run.error)")
        #expect(pydio.server.requests().isEmpty, "\(pydio.server.requests().map(\.action))")
    }
}
