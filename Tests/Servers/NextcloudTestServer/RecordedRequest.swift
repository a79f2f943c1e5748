import LoopbackServerKit

/// A request as the server received it, `Authorization` redacted to its scheme (``LoopbackServerKit/RecordedRequest``).
public typealias RecordedRequest = LoopbackServerKit.RecordedRequest
