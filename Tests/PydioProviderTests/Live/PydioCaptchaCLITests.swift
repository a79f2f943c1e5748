import Foundation
import ProviderAPI
import PydioTestServer
import Testing

/// `strata` against a Pydio server that demands a captcha, as a user meets it after three
/// mistyped passwords: the image is saved, the word is asked on a terminal or taken by
/// `--captcha` in the next run, in the server session the image belongs to.
@Suite("strata answers a Pydio captcha")
struct PydioCaptchaCLITests {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// The `strata` binary built next to the test bundle.
    static func binary() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("strata")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw ProviderError(.notFound, "the strata binary is not next to \(CommandLine.arguments[0])")
    }

    /// A private home for one test: `HOME` and `XDG_CACHE_HOME` point into it.
    static func home() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-captcha-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func environment(home: URL, password: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["STRATA_PASSWORD"] = password
        environment["HOME"] = home.path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        environment.removeValue(forKey: "STRATA_USER")
        environment.removeValue(forKey: "STRATA_TOKEN")
        return environment
    }

    /// Runs strata with stdin from /dev/null (no terminal). Blocking work happens on a dispatch
    /// thread: the loopback server answering the child runs on Swift's pool.
    static func run(_ arguments: [String], home: URL, password: String = LoopbackPydio.password) async throws -> Run {
        let binary = try binary()
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = binary
                process.arguments = arguments
                process.environment = environment(home: home, password: password)
                let output = Pipe()
                let errorURL = home.appendingPathComponent("stderr-\(UUID().uuidString)")
                _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
                process.standardOutput = output
                process.standardInput = FileHandle.nullDevice
                do {
                    process.standardError = try FileHandle(forWritingTo: errorURL)
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                let error = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
                continuation.resume(returning: Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self), error: error))
            }
        }
    }

    /// Runs strata on a terminal (util-linux `script` gives it one); each time the accumulated
    /// output holds one more prompt, `answer` is asked what to type. Output and errors are merged.
    static func runOnTerminal(
        _ arguments: [String], home: URL, answer: @escaping @Sendable (Int) -> String
    ) async throws -> Run {
        let binary = try binary()
        let command = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
                process.arguments = ["-qefc", command, "/dev/null"]
                process.environment = environment(home: home, password: LoopbackPydio.password)
                let output = Pipe()
                let input = Pipe()
                process.standardOutput = output
                process.standardError = output
                process.standardInput = input
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
                DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: killer)
                var text = ""
                var answered = 0
                while true {
                    let piece = output.fileHandleForReading.availableData
                    if piece.isEmpty { break }
                    text += String(decoding: piece, as: UTF8.self)
                    let prompts = text.components(separatedBy: "type the word in the image").count - 1
                    while answered < prompts {
                        answered += 1
                        input.fileHandleForWriting.write(Data((answer(answered) + "\n").utf8))
                    }
                }
                process.waitUntilExit()
                killer.cancel()
                continuation.resume(returning: Run(status: process.terminationStatus, output: text, error: text))
            }
        }
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
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("seen.txt"), "\(run.output)")
        #expect(run.output.components(separatedBy: "type the word in the image").count - 1 == 2, "\(run.output)")
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
