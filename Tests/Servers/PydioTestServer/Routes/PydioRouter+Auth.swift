import Foundation
import Hummingbird

extension PydioRouter {
    /// `get_seed`: the configured seed as text, or the captcha JSON once armed.
    func getSeed(_ exchange: inout Exchange) -> Outcome {
        let address = exchange.request.address
        let seed = core.configuration.seed
        if core.withState({ $0.captcha.isArmed(address) }) {
            let seedJSON = Int(seed).map(String.init) ?? JSONText.string(seed)
            return .body(Reply.json("{\"seed\":\(seedJSON),\"captcha\":true}"))
        }
        return .body(Reply.plainCompact(seed))
    }

    /// `login`: `userid`, `password` (hashed when the seed is not `-1`),
    /// `captcha_code`, `remember_me`.
    func login(_ exchange: inout Exchange) -> Outcome {
        let req = exchange.request
        let address = req.address
        let user = (req.param("userid") ?? "").trimmingCharacters(in: .whitespaces)
        let password = req.param("password") ?? ""
        let captchaCode = req.param("captcha_code")
        let passwordOK = core.configuration.users[user].map { checkPassword(password, stored: $0) } ?? false
        let armed = core.withState { $0.captcha.isArmed(address) }
        // Securimage's word lives in the session that fetched the image (a new image replaces it).
        let word = exchange.session.captchaWord
        let captchaOK: Bool
        if let captchaCode {
            captchaOK = !captchaCode.isEmpty && (!armed || captchaCode.lowercased() == word?.lowercased())
        } else {
            captchaOK = !armed
        }
        guard captchaOK, passwordOK else {
            let nowArmed = core.withState { $0.captcha.fail(address) }
            let value = (nowArmed || !captchaOK) ? "-4" : "-1"
            return .body(Reply.tree("<logging_result value=\"\(value)\"/>"))
        }
        core.withState { $0.captcha.succeed(address) }
        exchange.regenerate()
        var token = ""
        exchange.updateSession { session in
            session.user = user
            session.tokens = []
        }
        token = core.withState { [id = exchange.sessionID] in $0.sessions.issueToken(id) }
        var attributes = "value=\"1\""
        if req.param("remember_me") == "true" {
            attributes += " remember_login=\"notify\" remember_pass=\"notify\""
            let value = core.withState { $0.sessions.remember(user) }
            exchange.addCookie(Exchange.rememberCookie(value))
        }
        attributes += " secure_token=\"\(token)\""
        return .body(Reply.tree("<logging_result \(attributes)/>"))
    }

    private func checkPassword(_ sent: String, stored: String) -> Bool {
        let seed = core.configuration.seed
        if seed == "-1" { return sent == stored }
        return sent.lowercased() == MD5.hex(MD5.hex(stored) + seed)
    }

    /// `logout`: the session forgets its user and tokens; the remember-me cookie is deleted.
    func logout(_ exchange: inout Exchange) -> Outcome {
        if let remembered = exchange.request.cookie("AjaXplorer-remember") {
            core.withState { $0.sessions.forget(remembered) }
        }
        exchange.updateSession { session in
            session.user = nil
            session.tokens = []
        }
        exchange.addCookie("AjaXplorer-remember=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; HttpOnly")
        return .body(Reply.tree("<logging_result value=\"2\"/>"))
    }

    /// `get_captcha`: the PNG, whose new word is kept in this session.
    func captcha(_ exchange: inout Exchange) -> Outcome {
        let word = core.withState { $0.captcha.draw() }
        exchange.updateSession { $0.captchaWord = word }
        return .response(Reply.bytes(PNGImage.captcha, headers: Reply.noCache + [("Content-Type", "image/png")]))
    }

    /// `get_secure_token`: a new token for this session, as text.
    func secureToken(_ exchange: inout Exchange) -> Outcome {
        let token = core.withState { [id = exchange.sessionID] in $0.sessions.issueToken(id) }
        return .body(Reply.Body(data: Data(token.utf8), contentType: "text/plain; charset=utf-8", headerName: "Content-Type"))
    }

    /// `get_xml_registry`: `xPath=user/repositories`, `xPath=user`; the empty part when anonymous.
    func registry(_ exchange: inout Exchange) -> Outcome {
        let xPath = exchange.request.param("xPath") ?? ""
        guard let user = exchange.session.user else {
            return .body(Reply.xml(RegistryXML.emptyPart(xPath: xPath.isEmpty ? "user/repositories" : xPath)))
        }
        let lastConnection = core.started
        switch xPath {
        case "user/repositories":
            return .body(Reply.xml(RegistryXML.repositoriesPart(lastConnection: lastConnection)))
        case "user", "":
            return .body(Reply.xml(RegistryXML.userPart(user: user, isAdmin: user == "admin", lastConnection: lastConnection)))
        default:
            return .body(Reply.xml(RegistryXML.emptyPart(xPath: xPath)))
        }
    }

    /// `switch_repository`: sticky workspace; empty `text/html` answer.
    func switchRepository(_ exchange: inout Exchange) -> Outcome {
        if let requested = exchange.request.param("repository_id"), let entry = WorkspaceCatalog.resolve(requested) {
            exchange.updateSession { $0.repository = entry.id }
        }
        return .body(Reply.emptyHTML)
    }
}
