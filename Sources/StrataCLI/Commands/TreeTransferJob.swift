import ArgumentParser
import Foundation
import ProviderAPI
import TransferEngine

/// `get -r` and `put` of a folder: the local special case of `strata copy`, run by the transfer
/// engine with copy semantics and printed as `copy` prints (``TreeTransferPrinter``).
enum TreeTransferJob {
    /// Copies `source` into `destination`, `transfers` files at once, printing each action and a
    /// summary (or the report with `json`); exit status 1 when anything failed.
    static func copy(from source: TransferEndpoint, to destination: TransferEndpoint, transfers: Int, json: Bool) async throws {
        let printer = TreeTransferPrinter(json: json, dryRun: false)
        let manager = TransferManager(options: TransferManager.Options(transfers: transfers), observer: printer.observe)
        let report = try await manager.copy(from: source, to: destination)
        try printer.summarize(report, maxDelete: nil)
        if !report.succeeded { throw ExitCode(1) }
    }
}
