/// Waits until `condition` holds, looking again every millisecond, for at most `limit`;
/// whether it held.
///
/// For a state the code under test exposes but announces with no event (how many callers joined
/// a run, a queue that emptied, a request the server recorded): the test waits for that state,
/// never for a guessed length of time, and a state that never comes fails the test at `limit`
/// (generous: the suite runs on a loaded machine) instead of hanging the whole run.
///
/// ```swift
/// #expect(try await waitUntil { flight.waitingCalls == 20 }, "every caller joined the run")
/// ```
public func waitUntil(within limit: Duration = .seconds(120), _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(1))
    }
    return true
}
