import Foundation
import ProviderAPI
import HTTPProviderKit

/// The response recognizers of the Pydio `get_action` API, and the chains built from them.
///
/// Each operation's chain is: not signed in (`<require_auth/>`, or the empty `user/repositories`
/// registry part), server error (`<message type="ERROR">`, the text/plain `"… (NNN)"` of uploads,
/// the HTML error page of a download), the operation's own recognizer, and the last link that turns
/// anything else into `invalidResponse`. Unknown elements and attributes are skipped.
public enum PydioRecognizers {
    /// The message of a missing or stale secure token.
    public static let tokenRefusal = "You are not allowed to access this resource."

    /// The chain for an operation whose own recognizer is `recognizer`.
    package static func chain<Output: Sendable>(_ recognizer: ResponseRecognizer<Output>) -> ResponseRecognizerChain<Output> {
        ResponseRecognizerChain([notSignedIn(), serverError(), textError(), htmlError(), recognizer])
    }

    /// `<tree><require_auth/>…</tree>`, or the `user/repositories` registry part with no child.
    package static func notSignedIn<Output: Sendable>() -> ResponseRecognizer<Output> {
        ResponseRecognizer("not signed in") { answer in
            guard let root = answer.xmlIfAny else { return nil }
            if root.name == "tree", root.children.first?.name == "require_auth" {
                return .signInRequired(ProviderError(.unauthorized, "the Pydio session is not signed in", underlying: "session"))
            }
            if root.name == "ajxp_registry_part", root.attributes["xPath"] == "user/repositories", root.children.isEmpty {
                return .signInRequired(ProviderError(.unauthorized, "the Pydio session is not signed in", underlying: "session"))
            }
            return nil
        }
    }

    /// `<tree><message type="ERROR">text</message></tree>`; the token refusal asks for a new token.
    package static func serverError<Output: Sendable>() -> ResponseRecognizer<Output> {
        ResponseRecognizer("server error") { answer in
            guard let root = answer.xmlIfAny, root.name == "tree",
                let message = root.children.first(where: { $0.name == "message" && $0.attributes["type"] == "ERROR" })
            else { return nil }
            let text = message.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if text == tokenRefusal {
                return .signInRequired(ProviderError(.unauthorized, text, underlying: "token"))
            }
            return .failure(error(message: text, request: answer.request))
        }
    }

    /// The `text/plain` `"message (NNN)"` an upload answers on failure.
    package static func textError<Output: Sendable>() -> ResponseRecognizer<Output> {
        ResponseRecognizer("upload error") { answer in
            guard answer.mediaType == "text/plain" else { return nil }
            let text = answer.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.hasSuffix(")"), let open = text.lastIndex(of: "("),
                let code = Int(text[text.index(after: open)..<text.index(before: text.endIndex)]), (100..<600).contains(code)
            else { return nil }
            let message = text[..<open].trimmingCharacters(in: .whitespaces)
            return .failure(error(message: message, code: code, request: answer.request))
        }
    }

    /// The `text/html` page with `displayMessage('ERROR', …)` a download answers when PHP fails.
    package static func htmlError<Output: Sendable>() -> ResponseRecognizer<Output> {
        ResponseRecognizer("html error") { answer in
            guard answer.mediaType == "text/html", !answer.isEmpty else { return nil }
            let text = answer.text
            guard let range = text.range(of: "displayMessage('ERROR', '") else {
                return .failure(ProviderError(.server, "the server answered an HTML page", request: answer.request))
            }
            let message = text[range.upperBound...].prefix { $0 != "'" }
            return .failure(error(message: String(message), request: answer.request))
        }
    }

    /// The error for a server message (and an upload error code), with a code callers can switch on.
    public static func error(message: String, code: Int? = nil, request: String? = nil) -> ProviderError {
        let lowered = message.lowercased()
        let kind: ProviderError.Code
        if code == 507 || lowered.contains("quota") {
            kind = .quotaExceeded
        } else if code == 409 {
            kind = .quotaExceeded
        } else if code == 411, lowered.contains("forbidden character") {
            kind = .invalidArgument
        } else if lowered.contains("already exist") {
            kind = .alreadyExists
        } else if lowered.contains("cannot find") || lowered.contains("could not find") || lowered.contains("trying to open")
            || lowered.contains("does not exist") || lowered.contains("not found")
        {
            kind = .notFound
        } else if lowered.contains("not writeable") || lowered.contains("not writable") || lowered.contains("not allowed")
            || lowered.contains("permission")
        {
            kind = .forbidden
        } else {
            kind = .server
        }
        let text = message.isEmpty ? "the server reported an error without a message" : Redactor.redact(message)
        return ProviderError(kind, code.map { "\(text) (\($0))" } ?? text, request: request)
    }

    // MARK: Operations

    /// `<tree><logging_result value=… secure_token=…/></tree>`.
    package static let login = ResponseRecognizer<PydioLoginResult>("login") { answer in
        guard let result = answer.xmlIfAny?.child("logging_result"),
            let value = result.attributes["value"].flatMap({ Int($0) })
        else { return nil }
        return .value(PydioLoginResult(value: value, secureToken: result.attributes["secure_token"]))
    }

    /// `get_seed`: JSON `{"seed":…,"captcha":true}`, or the seed as plain text.
    package static let seed = ResponseRecognizer<PydioSeed>("seed") { answer in
        if answer.mediaType == "application/json" || answer.body.first == UInt8(ascii: "{") {
            guard let json = try? JSONValue(json: answer.body) else { return nil }
            let seed = json["seed"].flatMap { $0.stringValue } ?? "-1"
            return .value(json["captcha"]?.boolValue == true ? .captchaRequired(seed: seed) : .seed(seed))
        }
        guard answer.mediaType == "text/plain" || answer.mediaType.isEmpty else { return nil }
        let text = answer.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= 128, !text.contains("<") else { return nil }
        return .value(.seed(text))
    }

    /// `<ajxp_registry_part xPath="user/repositories"><repositories><repo …>`.
    package static let workspaces = ResponseRecognizer<[PydioWorkspace]>("workspaces") { answer in
        guard let root = answer.xmlIfAny, let repositories = root.name == "repositories" ? root : root.descendant("repositories") else {
            return nil
        }
        return .value(repositories.children.compactMap(PydioWorkspace.init))
    }

    /// An `ls` answer.
    package static let listing = ResponseRecognizer<PydioListing>("ls") { answer in
        guard let root = answer.xmlIfAny, root.name == "tree" else { return nil }
        return .value(try PydioListing(root))
    }

    /// A write's answer: a `<tree>` with a SUCCESS message, a `nodes_diff`, a background-task
    /// acknowledgement, or nothing; an empty body (an action the workspace does not support) is not one.
    package static let change = ResponseRecognizer<PydioChange>("change") { answer in
        guard let root = answer.xmlIfAny, root.name == "tree" else { return nil }
        return .value(try PydioChange(root))
    }

    /// A `text/plain` value: a secure token, a share link.
    package static let text = ResponseRecognizer<String>("text") { answer in
        guard answer.mediaType == "text/plain" else { return nil }
        let text = answer.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : .value(text)
    }

    /// A JSON answer (`stat`, `load_shared_element_data`).
    package static let json = ResponseRecognizer<JSONValue>("json") { answer in
        guard answer.mediaType == "application/json" || answer.body.first == UInt8(ascii: "{") else { return nil }
        do {
            return .value(try JSONValue(json: answer.body))
        } catch {
            return .failure(ProviderError(.invalidResponse, "malformed JSON", request: answer.request))
        }
    }

    /// An empty body (`switch_repository`).
    package static let empty = ResponseRecognizer<Bool>("empty") { answer in
        answer.isEmpty ? .value(true) : nil
    }
}
