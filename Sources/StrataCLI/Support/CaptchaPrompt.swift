import Foundation
import ProviderAPI
import ProviderKit

/// Answers the captcha a server asks at sign-in (Pydio, after three failed sign-ins from one
/// address), from the command line.
///
/// The image is saved (`--captcha-out FILE`, else in the private `sign-in` folder of the cache
/// folder) and named on stderr. When stdin is a terminal the word is asked there, in the same
/// run. Otherwise the server session the captcha belongs to is kept, readable by the user
/// only, and the next run's `--captcha WORD` signs in in that session (the server keeps the
/// word in it, so a new session could not use it); the kept session is deleted once used.
struct CaptchaPrompt: Sendable {
    /// `--captcha-out`.
    var imageFile: URL?
    /// `--captcha`.
    var word: String?
    /// The private folder of kept sessions and default images.
    var folder: URL
    /// Whether the word may be asked on the terminal.
    var interactive: Bool

    /// A kept session older than this is not offered any more (PHP drops idle sessions after 24 minutes).
    static let sessionLifetime: TimeInterval = 3600

    /// The interaction to give the registry.
    func interaction() -> SignInInteraction {
        let prompt = self
        return SignInInteraction(
            resuming: word == nil ? [] : keptSessions(), resumedAnswer: word,
            answer: { challenge in try prompt.answer(challenge) })
    }

    /// Saves the image, then asks for the word on the terminal or keeps the session for the next run.
    func answer(_ challenge: SignInChallenge) throws -> String? {
        let user = TerminalText.escape(challenge.session.user)
        let server = TerminalText.escape(challenge.session.server)
        guard let image = challenge.image else {
            Output.error("strata: \(server) asks \(user) for a captcha but sent no image")
            return nil
        }
        let file = imageFile ?? folder.appendingPathComponent("captcha" + Self.fileExtension(challenge.mediaType))
        try createFolder()
        try Self.writePrivately(image, to: file)
        if word != nil, challenge.attempt == 1 {
            Output.error("strata: --captcha was not used: no captcha shown to \(user) at \(server) in the last hour is kept")
        }
        let again = challenge.attempt > 1 ? " again (the last word was refused)" : ""
        Output.error("strata: \(server) asks \(user) for a captcha\(again): the image is in \(TerminalText.escape(file.path))")
        if interactive {
            FileHandle.standardError.write(Data("strata: type the word in the image (empty to give up): ".utf8))
            guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !line.isEmpty else { return nil }
            return line
        }
        try keep(challenge.session)
        Output.error("strata: run the command again with --captcha WORD (the word belongs to this sign-in, kept for an hour)")
        return nil
    }

    /// Deletes the kept sessions of `server` and `user`, after a sign-in used them.
    func forget(server: String, user: String) {
        for (url, session) in keptFiles() where session.server == server && session.user == user {
            try? FileManager.default.removeItem(at: url)
        }
    }

    // MARK: Kept sessions

    private func keep(_ session: SignInSession) throws {
        let key = Digester.hex(.sha256, of: Array("\(session.server)\n\(session.user)".utf8))?.prefix(16) ?? "session"
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try Self.writePrivately(try encoder.encode(session), to: folder.appendingPathComponent("session-\(key).json"))
    }

    private func keptSessions() -> [SignInSession] {
        keptFiles().map(\.session).filter { -$0.asked.timeIntervalSinceNow < Self.sessionLifetime }
    }

    private func keptFiles() -> [(url: URL, session: SignInSession)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return names.filter { $0.hasPrefix("session-") && $0.hasSuffix(".json") }.compactMap { name in
            let url = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path),
                let session = try? decoder.decode(SignInSession.self, from: data)
            else { return nil }
            return (url, session)
        }
    }

    // MARK: Files

    private func createFolder() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Writes `data` at `url` through a new file only the user can read, renamed over the name.
    static func writePrivately(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw ProviderError(.invalidArgument, "cannot write \(url.path)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw ProviderError(.invalidArgument, "cannot write \(url.path): \(reason)")
        }
    }

    static func fileExtension(_ mediaType: String?) -> String {
        switch mediaType?.lowercased() {
        case "image/png": ".png"
        case "image/jpeg", "image/jpg": ".jpg"
        case "image/gif": ".gif"
        case "image/bmp", "image/x-bmp": ".bmp"
        default: ".img"
        }
    }
}
