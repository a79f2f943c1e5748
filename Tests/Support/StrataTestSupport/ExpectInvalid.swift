import ProviderAPI
import Testing

/// Records an issue unless `body` throws a ``ProviderError`` with code `invalidArgument` whose
/// message names `option` (an adapter option, a flag, an argument).
public func expectInvalid(
    naming option: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("no error for \(option)", sourceLocation: sourceLocation)
    } catch let error as ProviderError {
        #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error.message?.contains(option) == true, "\(error.message ?? "") names \(option)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("not a ProviderError: \(error)", sourceLocation: sourceLocation)
    }
}
