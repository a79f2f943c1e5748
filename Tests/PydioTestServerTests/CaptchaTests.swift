import Foundation
import Testing
@testable import PydioTestServer

@Suite("Brute-force captcha")
struct CaptchaTests {
    func login(_ client: PydioClient, _ password: String, captcha: String? = nil) async throws -> String {
        var pairs = [("get_action", "login"), ("userid", "admin"), ("password", password), ("login_seed", "-1")]
        if let captcha { pairs.append(("captcha_code", captcha)) }
        let text = try await client.post(pairs).text
        return PydioClient.attribute("value", in: text) ?? text
    }

    @Test("-1, -1, then -4 on the 3rd failure; wrong word -4; right word + password logs in and disarms")
    func arming() async throws {
        try await withServer { server, client in
            #expect(try await login(client, "bad") == "-1")
            #expect(try await login(client, "bad") == "-1")
            #expect(try await login(client, "bad") == "-4")
            let seed = try await client.get([("get_action", "get_seed")])
            #expect(seed.text == "{\"seed\":-1,\"captcha\":true}" && seed.header("Content-Type") == "application/json")
            _ = try await client.get([("get_action", "get_captcha")])
            let word = server.faults.captchaWord
            #expect(try await login(client, "admin") == "-4", "no captcha_code")
            #expect(try await login(client, "admin", captcha: "wrong") == "-4")
            #expect(try await login(client, "bad", captcha: word) == "-4", "right word, wrong password")
            #expect(server.faults.captchaWord == word, "the word stays until the next image")
            #expect(try await login(client, "admin", captcha: word) == "1")
            client.setCookie("AjaXplorer", nil)
            #expect(try await client.get([("get_action", "get_seed")]).text == "-1", "disarmed")
            #expect(try await login(client, "bad") == "-1", "the failure count was cleared")
        }
    }

    @Test("an empty captcha_code forces -4 even when not armed")
    func emptyCode() async throws {
        try await withServer { _, client in
            let value = try await login(client, "admin", captcha: "")
            #expect(value == "-4")
        }
    }

    @Test("demandCaptcha arms at once; each image draws a word kept in its own session; the image is a PNG")
    func demand() async throws {
        try await withServer { server, client in
            server.faults.demandCaptcha()
            #expect(try await client.get([("get_action", "get_seed")]).text.contains("\"captcha\":true"))
            let image = try await client.get([("get_action", "get_captcha")])
            let word = server.faults.captchaWord
            #expect(word.count == 5)
            #expect(image.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(PNGImage.crc32(Array("IEND".utf8)) == 0xAE42_6082)
            #expect(try await login(client, "admin") == "-4")
            #expect(try await login(client, "admin", captcha: word.uppercased()) == "1")
        }
    }

    @Test("the word belongs to the session that fetched the image: another session's answer, or a replaced image's word, is -4")
    func sessionBound() async throws {
        try await withServer { server, client in
            server.faults.demandCaptcha()
            _ = try await client.get([("get_action", "get_captcha")])
            let first = server.faults.captchaWord
            // A second session (no cookie) fetches its own image; the first session's word is not its.
            client.setCookie("AjaXplorer", nil)
            _ = try await client.get([("get_action", "get_captcha")])
            let second = server.faults.captchaWord
            if first.lowercased() != second.lowercased() {
                #expect(try await login(client, "admin", captcha: first) == "-4", "another session's word")
            }
            _ = try await client.get([("get_action", "get_captcha")])
            let third = server.faults.captchaWord
            if third.lowercased() != second.lowercased() {
                #expect(try await login(client, "admin", captcha: second) == "-4", "a replaced image's word")
            }
            #expect(try await login(client, "admin", captcha: third) == "1")
        }
    }
}
