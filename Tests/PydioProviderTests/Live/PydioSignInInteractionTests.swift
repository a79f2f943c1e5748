import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import PydioProvider
import PydioTestServer
import Testing

/// ``SignInInteraction`` with Pydio's captcha: answered in the session that showed the image,
/// or later (another process) in that same session carried by its cookies.
@Suite("Pydio captcha through SignInInteraction")
struct PydioSignInInteractionTests {
    @Test("the answerer gets the image and its session; a refused word brings a new image and another question")
    func answeredInSession() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        pydio.server.faults.demandCaptcha()
        let server = pydio.server
        let asked = NIOLockedValueBox<[SignInChallenge]>([])
        var configuration = pydio.configuration()
        configuration.signIn = SignInInteraction { challenge in
            asked.withLockedValue { $0.append(challenge) }
            return challenge.attempt == 1 ? "wrong" : server.faults.captchaWord
        }
        let provider = try PydioProvider(configuration: configuration)
        let listing = try await provider.list(.root, page: .first)
        #expect(listing.items.allSatisfy { $0.path.parent == .root })
        let challenges = asked.withLockedValue { $0 }
        #expect(challenges.map(\.attempt) == [1, 2])
        #expect(challenges.allSatisfy { $0.kind == .captcha && $0.mediaType == "image/png" })
        #expect(challenges.allSatisfy { $0.image?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true })
        #expect(challenges.first?.session.user == LoopbackPydio.user)
        #expect(challenges.first?.session.server == provider.account.server)
        #expect(challenges.first?.session.cookies.contains { $0.name == "AjaXplorer" } == true)
        let logins = pydio.server.requests().filter { $0.action == "login" }.compactMap { $0.parameter("captcha_code") }
        #expect(logins.count == 2 && logins.first == "wrong")
    }

    @Test("answers stop after maxAttempts, and nil gives up with captchaRequired and the image")
    func givesUp() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        pydio.server.faults.demandCaptcha()
        let count = NIOLockedValueBox(0)
        var configuration = pydio.configuration()
        configuration.signIn = SignInInteraction(maxAttempts: 2) { _ in
            count.withLockedValue { $0 += 1 }
            return "wrong"
        }
        let error = await #expect(throws: ProviderError.self) { _ = try await PydioProvider(configuration: configuration).list(.root, page: .first) }
        #expect(error?.code == .captchaRequired)
        #expect(error?.captchaImage != nil)
        #expect(count.withLockedValue { $0 } == 2)

        var quiet = pydio.configuration()
        quiet.signIn = SignInInteraction { _ in nil }
        let refused = await #expect(throws: ProviderError.self) { _ = try await PydioProvider(configuration: quiet).list(.root, page: .first) }
        #expect(refused?.code == .captchaRequired)
    }

    @Test("a session kept from the challenge signs in another provider with the answer; a fresh session cannot use it")
    func resumedElsewhere() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        pydio.server.faults.demandCaptcha()
        let kept = NIOLockedValueBox<SignInSession?>(nil)
        var first = pydio.configuration()
        first.signIn = SignInInteraction { challenge in
            kept.withLockedValue { $0 = challenge.session }
            return nil
        }
        await #expect(throws: ProviderError.self) { _ = try await PydioProvider(configuration: first).list(.root, page: .first) }
        let session = try #require(kept.withLockedValue { $0 })
        let word = pydio.server.faults.captchaWord

        // Without the session, the word belongs to no image of the new one.
        var fresh = pydio.configuration()
        fresh.signIn = SignInInteraction(resumedAnswer: word)
        let refused = await #expect(throws: ProviderError.self) { _ = try await PydioProvider(configuration: fresh).list(.root, page: .first) }
        #expect(refused?.code == .captchaRequired)

        // With it (as a second process would), the same word signs in, without a new image.
        let imagesBefore = pydio.server.requests().filter { $0.action == "get_captcha" }.count
        var resumed = pydio.configuration()
        resumed.signIn = SignInInteraction(resuming: [session], resumedAnswer: word)
        let listing = try await PydioProvider(configuration: resumed).list(.root, page: .first)
        #expect(listing.items.allSatisfy { $0.path.parent == .root })
        #expect(pydio.server.requests().filter { $0.action == "get_captcha" }.count == imagesBefore)
    }

    @Test("a session of another server or user is not resumed")
    func resumableMatches() {
        let session = SignInSession(server: "http://a.example/pydio/", user: "ann", cookies: [])
        let interaction = SignInInteraction(resuming: [session], resumedAnswer: "w")
        #expect(interaction.resumable(server: "http://a.example/pydio/", user: "ann") == session)
        #expect(interaction.resumable(server: "http://b.example/pydio/", user: "ann") == nil)
        #expect(interaction.resumable(server: "http://a.example/pydio/", user: "bob") == nil)
    }

    @Test("an empty password is never sent: invalidArgument before any request")
    func emptyPassword() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try PydioProvider(configuration: pydio.configuration(password: ""))
        let error = await #expect(throws: ProviderError.self) { _ = try await provider.list(.root, page: .first) }
        #expect(error?.code == .invalidArgument)
        #expect(pydio.server.requests().isEmpty)
    }
}
