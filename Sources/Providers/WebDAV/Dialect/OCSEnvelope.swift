import Foundation
import ProviderAPI
import HTTPProviderKit

/// The envelope every OCS answer comes in: `{"ocs":{"meta":{…},"data":…}}` in JSON, or
/// `<ocs><meta>…</meta><data>…</data></ocs>` in XML.
///
/// OCS v1 answers errors with HTTP 200 and the real code in `meta.statuscode`; v2 mirrors the
/// code into the HTTP status. Both are read here, and a failing code becomes a `ProviderError`
/// through `error(request:)`. XML data is turned into the same `JSONValue` shape as JSON
/// (every leaf a string, `<element>` lists as arrays), so one share mapper reads both.
package struct OCSEnvelope: Sendable, Hashable {
    /// `ok` or `failure`.
    package var status: String?
    /// The OCS status code: 100 (v1) or 200 (v2) on success.
    package var statusCode: Int
    /// The server's message, if any.
    package var message: String?
    /// The payload.
    package var data: JSONValue

    /// Creates an envelope.
    package init(status: String? = nil, statusCode: Int, message: String? = nil, data: JSONValue = .null) {
        self.status = status
        self.statusCode = statusCode
        self.message = message
        self.data = data
    }

    /// Whether the code means success (100 or 200).
    package var isSuccess: Bool { statusCode == 100 || statusCode == 200 }

    /// Reads a JSON or XML OCS answer (by its first non-blank byte).
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` when the body is not an OCS envelope.
    package static func parse(_ data: Data) throws -> OCSEnvelope {
        let first = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        if first == UInt8(ascii: "<") { return try parseXML(data) }
        return try parseJSON(data)
    }

    /// Reads `{"ocs":{"meta":{…},"data":…}}`.
    package static func parseJSON(_ data: Data) throws -> OCSEnvelope {
        let json = try JSONValue(json: data)
        guard let ocs = json["ocs"], let meta = ocs["meta"], let code = meta["statuscode"]?.intValue else {
            throw ProviderError(.invalidResponse, "the answer is not an OCS envelope (no ocs.meta.statuscode)")
        }
        let message = meta["message"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        return OCSEnvelope(status: meta["status"]?.stringValue, statusCode: code, message: message, data: ocs["data"] ?? .null)
    }

    /// Reads `<ocs><meta>…</meta><data>…</data></ocs>`.
    package static func parseXML(_ data: Data) throws -> OCSEnvelope {
        let root = try XMLElementTree.parse(data)
        guard root.name == "ocs", let meta = root.child("meta"),
            let code = meta.child("statuscode").flatMap({ Int($0.text.trimmingCharacters(in: .whitespacesAndNewlines)) })
        else {
            throw ProviderError(.invalidResponse, "the answer is not an OCS envelope (no ocs/meta/statuscode)")
        }
        let message = meta.child("message")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return OCSEnvelope(
            status: meta.child("status")?.text.trimmingCharacters(in: .whitespacesAndNewlines), statusCode: code,
            message: message?.isEmpty == false ? message : nil, data: root.child("data").map(jsonValue) ?? .null)
    }

    /// An XML element as JSON: a leaf is its trimmed text, an element whose children are all
    /// `<element>` is an array, anything else an object (a repeated name becomes an array).
    package static func jsonValue(_ element: XMLElementTree) -> JSONValue {
        if element.children.isEmpty { return .string(element.text.trimmingCharacters(in: .whitespacesAndNewlines)) }
        if element.children.allSatisfy({ $0.name == "element" }) { return .array(element.children.map(jsonValue)) }
        var grouped: [String: [JSONValue]] = [:]
        for child in element.children { grouped[child.name, default: []].append(jsonValue(child)) }
        let members = grouped.mapValues { values in values.count == 1 ? values[0] : JSONValue.array(values) }
        return .object(members)
    }

    /// The `ProviderError.Code` for an OCS status code.
    package static func code(forStatusCode statusCode: Int) -> ProviderError.Code? {
        switch statusCode {
        case 100, 200: return nil
        case 102: return .alreadyExists
        case 400: return .invalidArgument
        case 401, 997: return .unauthorized
        case 403: return .forbidden
        case 404, 998: return .notFound
        case 409: return .conflict
        case 423: return .conflict
        case 429: return .rateLimited
        case 507: return .quotaExceeded
        default: return .server
        }
    }

    /// The error this envelope reports, or `nil` for a success.
    package func error(request: String? = nil, httpStatus: Int? = nil) -> ProviderError? {
        guard let code = OCSEnvelope.code(forStatusCode: statusCode) else { return nil }
        return ProviderError(
            code, message.map(Redactor.redact) ?? "OCS status \(statusCode)", httpStatus: httpStatus, request: request,
            underlying: "OCS statuscode \(statusCode)")
    }
}
