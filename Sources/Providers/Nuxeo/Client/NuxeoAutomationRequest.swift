import Foundation
import ProviderAPI
import HTTPProviderKit

/// A call of one Automation operation: the Swift form of the seed SDK's `NUXAutomationRequest`.
///
/// ```swift
/// let request = NuxeoAutomationRequest("Document.Move", input: .document(uid), params: ["target": "/default-domain/workspaces/ws"])
/// let result = try await provider.client.automation(request)
/// ```
public struct NuxeoAutomationRequest: Sendable, Hashable {
    /// What the operation works on.
    public enum Input: Sendable, Hashable {
        /// One document, by uid or absolute repository path (`doc:…`).
        case document(String)
        /// Several documents (`docs:…,…`).
        case documents([String])
        /// A value passed as it is.
        case raw(String)

        /// The JSON form of the input.
        package var jsonValue: JSONValue {
            switch self {
            case .document(let ref): return .string("doc:" + ref)
            case .documents(let refs): return .string("docs:" + refs.joined(separator: ","))
            case .raw(let value): return .string(value)
            }
        }
    }

    /// The operation id, such as `Document.Move`.
    public var operation: String
    /// The input, or `nil` for a void input.
    public var input: Input?
    /// The operation's parameters.
    public var params: [String: JSONValue]
    /// The operation context (`currentDocument`, …).
    public var context: [String: JSONValue]
    /// Document enrichers for document answers.
    public var enrichers: [String]
    /// Extra headers, such as `X-NXVoidOperation: true` or `Nuxeo-Transaction-Timeout`.
    public var headers: [String: String]

    /// Creates a request.
    public init(
        _ operation: String, input: Input? = nil, params: [String: JSONValue] = [:], context: [String: JSONValue] = [:],
        enrichers: [String] = [], headers: [String: String] = [:]
    ) {
        self.operation = operation
        self.input = input
        self.params = params
        self.context = context
        self.enrichers = enrichers
        self.headers = headers
    }
}

/// What an Automation operation answered.
public enum NuxeoAutomationResult: Sendable {
    /// Nothing (HTTP 204).
    case void
    /// One document.
    case document(NuxeoDocument)
    /// A list of documents.
    case documents(NuxeoDocumentList)
    /// JSON: an entity other than documents (a login, a user, log entries, ACLs; its
    /// `entity-type` says which), or JSON that is no entity (a Drive change summary, …).
    case json(JSONValue)
    /// A blob: its bytes and declared MIME type.
    case blob(Data, mimeType: String?)

    /// The document, when the answer is one.
    package var document: NuxeoDocument? {
        if case .document(let document) = self { return document }
        return nil
    }
}
