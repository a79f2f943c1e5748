import Foundation
import Hummingbird

/// `/ocs/v1.php/…` and `/ocs/v2.php/…`.
struct OCSRouter {
    let core: ServerCore

    func respond(_ req: ServerRequest, segments: [String]) -> Response {
        SabreError.notFound("ocs").response
    }
}
