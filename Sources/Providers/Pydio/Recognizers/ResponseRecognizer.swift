import Foundation
import ProviderAPI

/// What a recognizer makes of an answer it recognizes.
package enum Recognition<Output: Sendable>: Sendable {
    /// The answer is this value.
    case value(Output)
    /// The answer is this error.
    case failure(ProviderError)
    /// The answer says the session is not (or no longer) signed in: sign in, then replay once.
    case signInRequired(ProviderError)
}

/// One link of a ``ResponseRecognizerChain``: looks at an answer and says what it is, or `nil`
/// when the answer is not its kind, so the next recognizer looks.
///
/// The Swift form of the Pydio SDK's response serializers: a chain for an operation is the
/// recognizers of "not signed in", "server error", the operation's own parser and a last one
/// that turns anything else into `ProviderError.Code.invalidResponse`. Other XML (or text)
/// session APIs can build their chains from their own recognizers the same way.
package struct ResponseRecognizer<Output: Sendable>: Sendable {
    /// A name for logs and errors.
    package let name: String
    private let body: @Sendable (RecognizableAnswer) throws -> Recognition<Output>?

    /// Creates a recognizer.
    package init(_ name: String, _ recognize: @escaping @Sendable (RecognizableAnswer) throws -> Recognition<Output>?) {
        self.name = name
        body = recognize
    }

    /// What the answer is, or `nil` when it is not this recognizer's kind.
    package func recognize(_ answer: RecognizableAnswer) throws -> Recognition<Output>? { try body(answer) }

    /// The same recognizer for another output type; useful for error recognizers shared by every chain.
    package func map<Other: Sendable>(_ transform: @escaping @Sendable (Output) throws -> Other) -> ResponseRecognizer<Other> {
        ResponseRecognizer<Other>(name) { answer in
            switch try self.recognize(answer) {
            case nil: return nil
            case .value(let value)?: return .value(try transform(value))
            case .failure(let error)?: return .failure(error)
            case .signInRequired(let error)?: return .signInRequired(error)
            }
        }
    }

    /// The last link of a chain: anything that reaches it is `ProviderError.Code.invalidResponse`.
    package static var unexpected: ResponseRecognizer<Output> {
        ResponseRecognizer("unexpected") { answer in
            let type = answer.mediaType.isEmpty ? "no content type" : answer.mediaType
            return .failure(ProviderError(
                .invalidResponse, "received an answer that was not expected (\(type), \(answer.body.count) bytes)",
                httpStatus: answer.status, request: answer.request.isEmpty ? nil : answer.request))
        }
    }
}

/// Recognizers tried in order; the first that recognizes an answer decides what it is.
package struct ResponseRecognizerChain<Output: Sendable>: Sendable {
    /// The recognizers, in order; ``ResponseRecognizer/unexpected`` is implied at the end.
    package var recognizers: [ResponseRecognizer<Output>]

    /// Creates a chain.
    package init(_ recognizers: [ResponseRecognizer<Output>]) { self.recognizers = recognizers }

    /// What the first recognizer that knows `answer` makes of it.
    package func recognize(_ answer: RecognizableAnswer) throws -> Recognition<Output> {
        for recognizer in recognizers + [.unexpected] {
            if let recognition = try recognizer.recognize(answer) { return recognition }
        }
        return .failure(ProviderError(.invalidResponse, "no recognizer knows this answer"))
    }

    /// The value of `answer`, or the error it is (a sign-in demand is thrown as its error).
    package func value(of answer: RecognizableAnswer) throws -> Output {
        switch try recognize(answer) {
        case .value(let value): return value
        case .failure(let error), .signInRequired(let error): throw error
        }
    }
}
