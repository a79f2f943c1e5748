import ArgumentParser
import Foundation
import ProviderAPI
import SharedCache
import TransferEngine
import WebDAVProvider

/// A tree job of the command line: `copy` and `sync`, and `get -r` and `put` of a folder (the local
/// special case of `copy`), run by the transfer engine and printed by ``TreeTransferPrinter``.
enum TreeTransferJob {
    /// Copies `source` into `destination`, `transfers` files at once, as ``run(_:from:to:options:global:limits:)`` does.
    static func copy(from source: TransferEndpoint, to destination: TransferEndpoint, transfers: Int, global: GlobalOptions) async throws {
        try await run(.copy, from: source, to: destination, options: TransferManager.Options(transfers: transfers), global: global)
    }

    /// The job store of the cache folder (`--cache`, else the default one): jobs' plans and progress,
    /// and the digests computed from source files.
    static func jobStore(_ global: GlobalOptions) async throws -> SQLiteTransferJobStore {
        SQLiteTransferJobStore(cache: try await CommandCache.store(at: global.cacheFolder))
    }

    /// Runs a copy or a sync with `options`, printing each action and a summary (or the report with
    /// `--json`); exit status 1 when anything failed. The job is kept in the cache folder (`--cache`),
    /// so a stopped run continues where it was.
    static func run(
        _ mode: TransferMode, from source: TransferEndpoint, to destination: TransferEndpoint, options: TransferManager.Options,
        global: GlobalOptions, limits: SyncLimits? = nil
    ) async throws {
        var options = options
        options.jobStore = try await jobStore(global)
        options.logger = global.logger
        // A WebDAV destination's name rules are verified before the plan maps names by them (else
        // the first write verifies them, after the plan was made with the unverified ones).
        if !options.dryRun, let dav = destination.provider as? WebDAVProvider { await dav.verifyCapabilities(near: destination.path) }
        let printer = TreeTransferPrinter(json: global.json, dryRun: options.dryRun, backup: options.backupDirectory != nil)
        let report = try await TransferManager(options: options, observer: printer.observe).run(mode, from: source, to: destination)
        try printer.summarize(report, limits: limits)
        if !report.succeeded { throw ExitCode(1) }
    }
}
