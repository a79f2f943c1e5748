import ArgumentParser
import Foundation
import ProviderAPI
import SharedCache
import TransferEngine

/// `get -r` and `put` of a folder: the local special case of `strata copy`, run by the transfer
/// engine with copy semantics and printed as `copy` prints (``TreeTransferPrinter``).
enum TreeTransferJob {
    /// Copies `source` into `destination`, `transfers` files at once, printing each action and a
    /// summary (or the report with `--json`); exit status 1 when anything failed. The job is kept
    /// in the cache folder as `strata copy` keeps it, so a stopped run continues where it was.
    static func copy(from source: TransferEndpoint, to destination: TransferEndpoint, transfers: Int, global: GlobalOptions) async throws {
        let printer = TreeTransferPrinter(json: global.json, dryRun: false)
        let jobs = TransferJobStore(cache: try CommandCache.store(at: try global.cacheDirectory()))
        let manager = TransferManager(options: TransferManager.Options(transfers: transfers, jobStore: jobs), observer: printer.observe)
        let report = try await manager.copy(from: source, to: destination)
        try printer.summarize(report, maxDelete: nil)
        if !report.succeeded { throw ExitCode(1) }
    }
}
