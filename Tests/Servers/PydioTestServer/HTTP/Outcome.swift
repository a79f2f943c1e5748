import Hummingbird

/// What a handler produces: a body the router wraps with pydio's session
/// headers, or a finished response (downloads, captcha, faults).
enum Outcome: Sendable {
    case body(Reply.Body)
    case response(Response)
}
