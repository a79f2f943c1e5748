import Foundation

/// A question a server asks before it lets a user sign in, such as the captcha Pydio demands
/// after repeated failed sign-ins from one address.
public struct SignInChallenge: Sendable {
    /// What kind of question it is.
    ///
    /// A named value rather than an enum, so that a new kind of question does not break an app's
    /// `switch` over it (compare with `==`, or switch with a `default`).
    public struct Kind: RawRepresentable, Sendable, Codable, Hashable {
        /// The kind's name, such as `captcha`.
        public let rawValue: String

        /// The kind named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// An image whose word must be typed.
        public static let captcha = Kind(rawValue: "captcha")
    }

    /// What kind of question it is.
    public var kind: Kind
    /// The image to show, as the server sent it.
    public var image: Data?
    /// The image's media type, such as `image/png`.
    public var mediaType: String?
    /// 1 for the first question of a sign-in, one more for each answer the server refused.
    public var attempt: Int
    /// The server session the question belongs to: the answer is good only in it. Keep it
    /// private (it holds session cookies); hand it back through
    /// ``SignInInteraction/resuming`` to answer in another process.
    public var session: SignInSession

    /// Creates a challenge.
    package init(kind: Kind, image: Data?, mediaType: String?, attempt: Int, session: SignInSession) {
        self.kind = kind
        self.image = image
        self.mediaType = mediaType
        self.attempt = attempt
        self.session = session
    }
}

/// The server session a ``SignInChallenge`` was asked in, so that its answer can be given later,
/// even by another process (a command-line tool run again with the answer).
///
/// It holds the session's cookies: store it where only the user can read it, and drop it once
/// used.
public struct SignInSession: Sendable, Codable, Hashable {
    /// The server, as ``ProviderAccount/server`` names it (no credentials).
    public var server: String
    /// The user signing in.
    public var user: String
    /// The session cookies.
    package var cookies: [SessionCookie]
    /// When the challenge was asked.
    public var asked: Date

    /// Creates a session record.
    package init(server: String, user: String, cookies: [SessionCookie], asked: Date = Date()) {
        self.server = server
        self.user = user
        self.cookies = cookies
        self.asked = asked
    }
}

/// How a provider gets answers to the questions a server asks at sign-in
/// (``ProviderConfiguration/signIn``, or ``ProviderRegistry/signIn`` for every provider a
/// registry makes).
///
/// Without one, a challenge fails the call with ``ProviderError/Code/captchaRequired`` (and the
/// image in ``ProviderError/captchaImage``). With ``answer``, the provider asks it and signs
/// in with the word, up to ``maxAttempts`` times; `nil` from it gives up with that error.
///
/// ```swift
/// var interaction = SignInInteraction { challenge in
///     await showCaptcha(challenge.image)  // the app's own UI
/// }
/// configuration.signIn = interaction
/// ```
public struct SignInInteraction: Sendable {
    /// Answers a challenge with its word, or `nil` to give up.
    public typealias Answerer = @Sendable (SignInChallenge) async throws -> String?

    /// Asked for each challenge, in the session that asked it.
    public var answer: Answerer?
    /// Sessions of challenges asked earlier, maybe by another process: a provider whose server
    /// and user match one of them signs in in that session, with ``resumedAnswer`` as the answer.
    public var resuming: [SignInSession]
    /// The answer to the challenge of a session in ``resuming``; unused when no session there
    /// matches the provider's server and user (a new session was never shown that challenge).
    public var resumedAnswer: String?
    /// How many answers one sign-in may try (each refused answer brings a new challenge).
    public var maxAttempts: Int

    /// Creates an interaction.
    public init(
        maxAttempts: Int = 3, resuming: [SignInSession] = [], resumedAnswer: String? = nil, answer: Answerer? = nil
    ) {
        self.answer = answer
        self.resuming = resuming
        self.resumedAnswer = resumedAnswer
        self.maxAttempts = max(1, maxAttempts)
    }

    /// The session of ``resuming`` for `server` and `user`, the newest first.
    package func resumable(server: String, user: String) -> SignInSession? {
        resuming.filter { $0.server == server && $0.user == user }.max { $0.asked < $1.asked }
    }
}
