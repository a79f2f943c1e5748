import LoopbackServerKit

/// A request as the server received it (``LoopbackServerKit/RecordedRequest``).
public typealias RecordedRequest = LoopbackServerKit.RecordedRequest
