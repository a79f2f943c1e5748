import ArgumentParser
import SharedCache

/// The option of the write commands (`mkdir`, `put`, `rm`, `mv`, `cp`) about the sync journal.
///
/// With `--offline` every write is recorded in the journal of the cache folder without asking the
/// server. Recording a write that *failed* because the server could not be reached is opt-in
/// (`--queue-offline`): a script that runs `strata put … && rm local-copy` must never take a
/// write that stayed on this machine for one the server has.
struct OfflineWriteOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            """
            When the server cannot be reached, record the write in the sync journal of the cache (--cache DIR, \
            or the default one) instead of failing: it prints 'pending #ID …' and exits 0, and 'strata replay' \
            sends it later. Off by default, so that a script never takes a write that did not reach the server \
            for one that did. With --offline every write is recorded, without trying the server. A folder put \
            needs the server (it is put as 'strata copy' does).
            """))
    var queueOffline = false

    /// What the cached provider does with writes: record them all (`--offline`), record those the
    /// server could not take (`--queue-offline`), or send them as usual.
    func mode(_ global: GlobalOptions) -> OfflineWrites {
        if global.offline { return .always }
        return queueOffline ? .whenUnreachable : .off
    }
}
