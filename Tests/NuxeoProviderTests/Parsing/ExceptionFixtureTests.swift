import Foundation
import ProviderAPI
import Testing
@testable import NuxeoProvider

extension Parsing {
    @Suite("exception entity recording") struct ExceptionFixtureTests {
        @Test("php-client/exception.json: status, message, code and the optional stack trace")
        func phpException() throws {
            let data = try Fixtures.data("php-client/exception.json")
            let exception = try #require(try NuxeoEntityRegistry.standard.decode(data).exception)
            #expect(exception.status == 500)
            #expect(exception.message == "Json object entity-type is wrong. Expected is document but was documnt")
            #expect(exception.className == "org.nuxeo.ecm.core.io.registry.MarshallingException")
            let trace = try #require(exception.stacktrace)
            #expect(trace.hasPrefix("org.nuxeo.ecm.webengine.WebException: Json object entity-type is wrong."))
            #expect(trace.count == 12_739)
        }

        @Test("php-client/exception.json: mapped to a server error with the message, never the stack trace")
        func phpExceptionMapped() throws {
            let data = try Fixtures.data("php-client/exception.json")
            let error = NuxeoErrorMapper.error(status: 500, body: data, request: "PUT /api/v1/id/x")
            #expect(error.code == .server)
            #expect(error.httpStatus == 500)
            #expect(error.message == "Json object entity-type is wrong. Expected is document but was documnt")
            #expect(error.underlying == "org.nuxeo.ecm.core.io.registry.MarshallingException")
            #expect(!error.description.contains("WebException.java"))
            #expect(error.request == "PUT /api/v1/id/x")
        }

        @Test("php-client/exception.json: decoding it as a document throws the error it describes")
        func phpExceptionWhenExpectingDocument() throws {
            let data = try Fixtures.data("php-client/exception.json")
            #expect(throws: ProviderError.self) { try NuxeoEntityRegistry.standard.decode(NuxeoDocument.self, from: data) }
            do {
                _ = try NuxeoEntityRegistry.standard.decode(NuxeoDocument.self, from: data)
            } catch let error as ProviderError {
                #expect(error.code == .server)
                #expect(error.httpStatus == 500)
            }
        }
    }
}
