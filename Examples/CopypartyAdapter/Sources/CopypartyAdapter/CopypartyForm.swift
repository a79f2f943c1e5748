import Foundation
import NIOCore

/// A `multipart/form-data` body of text fields: how copyparty takes `act=mkdir`.
struct CopypartyForm: Sendable {
    /// The boundary between the parts.
    let boundary = "strata-" + UUID().uuidString
    /// The fields, in order.
    let fields: [(name: String, value: String)]

    /// The `Content-Type` header's value.
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The encoded body.
    var body: ByteBuffer {
        var text = ""
        for (name, value) in fields {
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        text += "--\(boundary)--\r\n"
        return ByteBuffer(string: text)
    }
}
