import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage plus the client address
/// (the brute-force counter is per address).
struct PydioRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let address: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        address = source.channel.remoteAddress?.ipAddress ?? "127.0.0.1"
    }
}
