import Foundation
import NIOCore
import ProviderAPI

/// Runs ``RequestTemplate`` values through a ``RequestExecutor`` against one base URL.
///
/// Each call builds the request (``RequestTemplate/makeRequest(baseURL:arguments:)``), sends it through the
/// executor — so authentication, retries and redirects apply — checks the status against
/// ``RequestTemplate/expectedStatuses``, reads the body up to `maxResponseBytes` and decodes it with the
/// template's decoder.
///
/// ```swift
/// var decoders = TemplateDecoderRegistry()
/// decoders.register("document", as: Document.self)
/// let templates = RequestTemplateExecutor(executor: executor, baseURL: base, decoders: decoders, catalog: catalog)
/// let document = try await templates.execute("document", arguments: ["uid": uid], as: Document.self)
/// ```
public struct RequestTemplateExecutor: Sendable {
    /// Sends the requests.
    package var executor: RequestExecutor
    /// The URL template paths are appended to.
    package var baseURL: URL
    /// The decoders templates name.
    package var decoders: TemplateDecoderRegistry
    /// The templates that `execute(_:arguments:as:)` with a name finds by name.
    package var catalog: RequestTemplateCatalog
    /// The largest response body read for a decoder; a larger one is `ProviderError.Code.invalidResponse`.
    package var maxResponseBytes: Int
    /// Refines the error for an unexpected status from the server's error body (for example a JSON
    /// `exception` entity); `nil` from it, or no mapper, means
    /// `ProviderError.http(_:body:request:message:)` (status, an excerpt of the body, `Retry-After`).
    /// It gets at most 64 KiB of the body.
    package var errorMapper: (@Sendable (TemplateResponseHead, ByteBuffer) -> ProviderError?)?

    /// Creates a template executor.
    public init(
        executor: RequestExecutor, baseURL: URL, decoders: TemplateDecoderRegistry = TemplateDecoderRegistry(),
        catalog: RequestTemplateCatalog? = nil, maxResponseBytes: Int = 16 << 20,
        errorMapper: (@Sendable (TemplateResponseHead, ByteBuffer) -> ProviderError?)? = nil
    ) {
        self.errorMapper = errorMapper
        self.executor = executor
        self.baseURL = baseURL
        self.decoders = decoders
        self.catalog = catalog ?? RequestTemplateCatalog()
        self.maxResponseBytes = maxResponseBytes
    }

    /// The request `template` makes for `arguments`; nothing is sent.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` as ``RequestTemplate/makeRequest(baseURL:arguments:)`` does.
    package func makeRequest(_ template: RequestTemplate, arguments: TemplateArguments = .none) throws -> TransportRequest {
        try template.makeRequest(baseURL: baseURL, arguments: arguments)
    }

    /// Sends `template` and returns the response with its body unread, once its status is an expected one —
    /// for streaming a download or reading headers.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a bad template or arguments; the error
    ///   `ProviderError.http(_:request:message:)` makes for an unexpected status;
    ///   transport errors as ``RequestExecutor/execute(_:)`` throws them.
    public func response(for template: RequestTemplate, arguments: TemplateArguments = .none) async throws -> TransportResponse {
        try await send(template, arguments: arguments).response
    }

    private func send(_ template: RequestTemplate, arguments: TemplateArguments) async throws -> (request: String, response: TransportResponse) {
        let request = try makeRequest(template, arguments: arguments)
        let response = try await executor.execute(request)
        guard template.expectedStatuses.contains(response.status) else {
            throw await error(for: response, request: request)
        }
        return (request.summary, response)
    }

    private func error(for response: TransportResponse, request: TransportRequest) async -> ProviderError {
        guard let errorMapper else { return await ProviderError.http(response, request: request) }
        guard let body = try? await response.body.collect(upTo: 64 << 10) else {
            return ProviderError.http(response, body: nil, request: request)
        }
        let head = TemplateResponseHead(status: response.status, headers: response.headers, url: response.url, request: request.summary)
        guard var mapped = errorMapper(head, body) else { return ProviderError.http(response, body: body, request: request) }
        if mapped.request == nil { mapped.request = request.summary }
        if mapped.httpStatus == nil { mapped.httpStatus = response.status }
        if mapped.retryAfter == nil { mapped.retryAfter = response.retryAfter }
        return mapped
    }

    /// Sends `template` and returns what its decoder makes of the answer.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a bad template or arguments or an unregistered
    ///   decoder (before anything is sent); a mapped HTTP error for an unexpected status;
    ///   `ProviderError.Code.invalidResponse` for a body over `maxResponseBytes` or one the decoder refuses.
    public func execute(_ template: RequestTemplate, arguments: TemplateArguments = .none) async throws -> any Sendable {
        try await run(template, arguments: arguments).value
    }

    private func run(_ template: RequestTemplate, arguments: TemplateArguments) async throws -> (value: any Sendable, request: String) {
        let decoder = try decoders.decoder(named: template.decoder)
        let (request, response) = try await send(template, arguments: arguments)
        let head = TemplateResponseHead(status: response.status, headers: response.headers, url: response.url, request: request)
        var body = ByteBuffer()
        if decoder.readsBody {
            if let length = response.contentLength, length > Int64(maxResponseBytes) {
                throw ProviderError(
                    .invalidResponse, "response body larger than \(maxResponseBytes) bytes", httpStatus: response.status, request: request)
            }
            do {
                body = try await response.body.collect(upTo: maxResponseBytes)
            } catch {
                var failure = ProviderError.wrap(error, request: request)
                if failure.httpStatus == nil && failure.code == .invalidResponse { failure.httpStatus = response.status }
                throw failure
            }
        } else {
            await response.body.discard()
        }
        do {
            return (try decoder.decode(head, body), request)
        } catch let error as ProviderError {
            var failure = error
            if failure.request == nil { failure.request = request }
            throw failure
        } catch {
            throw ProviderError(
                .invalidResponse, "decoder \(template.decoder) failed", httpStatus: response.status, request: request,
                underlying: Redactor.redact(String(describing: error)))
        }
    }

    /// Sends `template` and returns its decoded answer as a `T`.
    ///
    /// - Throws: as ``execute(_:arguments:)``, and `ProviderError.Code.invalidResponse` when the decoder
    ///   makes something other than a `T`.
    public func execute<T: Sendable>(_ template: RequestTemplate, arguments: TemplateArguments = .none, as type: T.Type) async throws -> T {
        let (value, request) = try await run(template, arguments: arguments)
        guard let typed = value as? T else {
            throw ProviderError(
                .invalidResponse, "decoder \(template.decoder) made \(Swift.type(of: value)), not \(T.self)", request: request)
        }
        return typed
    }

    /// Sends the catalog's template named `name` and returns its decoded answer as a `T`.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when the catalog has no such template; otherwise as
    ///   `execute(_:arguments:as:)` with a template.
    public func execute<T: Sendable>(_ name: String, arguments: TemplateArguments = .none, as type: T.Type) async throws -> T {
        try await execute(catalog.template(named: name), arguments: arguments, as: type)
    }
}

extension RequestExecutor {
    /// Sends `template` against `baseURL` and returns its decoded answer as a `T`;
    /// a shorthand for ``RequestTemplateExecutor``'s `execute(_:arguments:as:)`.
    package func execute<T: Sendable>(
        _ template: RequestTemplate, arguments: TemplateArguments = .none, baseURL: URL,
        decoders: TemplateDecoderRegistry = TemplateDecoderRegistry(), maxResponseBytes: Int = 16 << 20, as type: T.Type
    ) async throws -> T {
        try await RequestTemplateExecutor(executor: self, baseURL: baseURL, decoders: decoders, maxResponseBytes: maxResponseBytes)
            .execute(template, arguments: arguments, as: type)
    }
}
