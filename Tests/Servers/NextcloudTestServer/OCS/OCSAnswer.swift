import Foundation
import Hummingbird

/// One OCS answer: the envelope (`ocs.meta`, `ocs.data`) in XML or JSON, v1 or v2 rules.
struct OCSAnswer {
    var statuscode: Int
    var message: String?
    var data: OCSValue

    /// Success: `data` with statuscode 100 (v1) or 200 (v2).
    static func ok(_ data: OCSValue, message: String? = "OK") -> OCSAnswer {
        OCSAnswer(statuscode: 100, message: message, data: data)
    }

    /// Failure with an OCS code (`404`, `400`, `403`, `997`, …).
    static func failure(_ code: Int, _ message: String) -> OCSAnswer {
        OCSAnswer(statuscode: code, message: message, data: .array([]))
    }

    /// How an answer is written.
    struct Style {
        var version: Int
        var json: Bool
        var flavor: NextcloudTestServer.Configuration.Flavor
    }

    var isSuccess: Bool { statuscode == 100 }

    func response(_ style: Style) -> Response {
        let code = isSuccess ? (style.version == 1 ? 100 : 200) : statuscode
        var meta: [(String, OCSValue)] = [
            ("status", .string(isSuccess ? "ok" : "failure")), ("statuscode", .int(Int64(code))),
            ("message", message.map { .string($0) } ?? .null),
        ]
        let counters = style.flavor == .nextcloud ? style.version == 1 : style.json
        if counters { meta += [("totalitems", .string("")), ("itemsperpage", .string(""))] }
        let document = OCSValue.object([("meta", .object(meta)), ("data", data)])
        let http: Int
        if statuscode == 997 {
            http = 401
        } else if style.version == 1 || isSuccess {
            http = 200
        } else {
            http = [400, 401, 403, 404, 405, 409, 412, 500].contains(statuscode) ? statuscode : 400
        }
        if style.json {
            return Reply.json(OCSValue.object([("ocs", document)]).json(), status: http)
        }
        let xml = "<?xml version=\"1.0\"?>\n" + document.xml(name: "ocs", level: 0)
        return Reply.bytes(Data(xml.utf8), status: http, headers: [("Content-Type", "text/xml; charset=UTF-8")])
    }
}
