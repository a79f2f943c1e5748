import Foundation

/// An error the server answers as a JSON `exception` entity
/// (`{"entity-type":"exception","status":…,"message":…}`).
struct NuxeoError: Error, Sendable {
    var status: Int
    var message: String

    static func notFound(_ message: String) -> NuxeoError { .init(status: 404, message: message) }
    static func badRequest(_ message: String) -> NuxeoError { .init(status: 400, message: message) }
    static func conflict(_ message: String) -> NuxeoError { .init(status: 409, message: message) }
}
