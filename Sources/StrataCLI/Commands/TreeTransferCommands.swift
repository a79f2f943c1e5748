import ArgumentParser
import Foundation
import ProviderAPI
import TransferEngine

/// How `copy`, `sync` and `check` compare files.
struct ComparisonOptions: ParsableArguments {
    @Flag(
        help: """
            Do not read files to compute a digest that only the other side declares; compare such files \
            by size and modified time (or size) instead.
            """)
    var noSourceDigests = false
    @Flag(
        help: """
            Compare content: by a digest both sides declare, else one computed by reading the files of \
            the side(s) that lack it (files of the same size only); never by size or modified time alone.
            """)
    var checksum = false

    func validate() throws {
        if checksum, noSourceDigests { throw ValidationError("--checksum computes the digests --no-source-digests turns off: give one") }
    }
}

/// The arguments of `copy` and `sync`: two targets of any kinds, and how the job runs.
struct TreeTransferArguments: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The source: a folder (its contents are transferred) or a file; a URL, a saved remote (name:/path) or a local path.")
    var source: String
    @Argument(help: "The destination folder (created with its parents if missing), or for a single file the folder or file path.")
    var destination: String
    @Option(help: "How many files are sent at once (default 4).") var transfers: Int = 4
    @Option(
        help: """
            How many folders are listed at once while the trees are walked (default 8, as rclone's \
            --checkers); separate from --transfers.
            """)
    var checkers: Int = 8
    @Option(help: "Attempts per file after a network or server error, the first included (default 3).") var fileAttempts: Int = 3
    @Flag(help: "Print what would be done, and change nothing.") var dryRun = false
    @Flag(
        help: "Start the job over instead of continuing an unfinished run of it (same source and destination), listing every folder again.")
    var fresh = false
    @Flag(
        help: """
            Run even where the two targets cannot be told apart by their servers and paths and the \
            marker-file probe that would tell cannot run (a read-only source). Targets found to be one \
            tree, or one inside the other, are refused whatever this says.
            """)
    var assumeNoOverlap = false
    @OptionGroup var comparison: ComparisonOptions
    @OptionGroup var treeLimits: TreeLimitOptions
    @Option(
        help: ArgumentHelp(
            """
            A folder on the destination's server (a URL, name:/path or local path, like the destination) where \
            what would be overwritten (and, for sync, deleted) is moved instead, into a new folder named \
            after the run's time (UTC); it must be outside the source and destination trees.
            """, valueName: "target"))
    var backupDir: String?

    func validate() throws {
        guard transfers >= 1 else { throw ValidationError("--transfers takes a number of 1 or more") }
        guard checkers >= 1 else { throw ValidationError("--checkers takes a number of 1 or more") }
        guard (1...100).contains(fileAttempts) else { throw ValidationError("--file-attempts takes a number from 1 to 100") }
    }

    /// Plans and runs the job, printing as ``TreeTransferPrinter`` does; exits 1 when anything failed.
    ///
    /// `limits` are the deletion limits of a sync (``SyncLimits``); a copy deletes nothing.
    func run(_ mode: TransferMode, limits: SyncLimits? = nil) async throws {
        let (sourceProvider, sourcePath) = try await global.open(source)
        let (destinationProvider, destinationPath) = try await global.open(destination)
        // The job's plan and progress live in the cache database, so a killed run continues.
        var options = TransferManager.Options(
            transfers: transfers, checkers: checkers, fileRetry: RetryPolicy(maxAttempts: fileAttempts, baseDelay: .milliseconds(500)), dryRun: dryRun,
            maxDelete: limits?.maxDelete, computeSourceDigests: !comparison.noSourceDigests, startFresh: fresh,
            maxDeletePercent: limits?.percent)
        if let backupDir {
            let (backupProvider, backupPath) = try await global.open(backupDir)
            // Items are moved there on the destination's server: another server would mean sending them.
            guard backupProvider.account == destinationProvider.account else {
                throw ValidationError("--backup-dir must be a folder on the destination's server (\(backupDir) is not)")
            }
            options.backupDirectory = backupPath
        }
        options.treeLimits = treeLimits.limits
        options.assumeNoOverlap = assumeNoOverlap
        options.comparison = comparison.checksum ? .checksum : .listings
        try await TreeTransferJob.run(
            mode, from: TransferEndpoint(sourceProvider, at: sourcePath), to: TransferEndpoint(destinationProvider, at: destinationPath),
            options: options, global: global, limits: limits)
    }
}

/// The deletion limits of `sync` as given on the command line.
struct SyncLimits: Sendable {
    /// `--max-delete`: the most files and folders deleted; `nil`: no limit.
    var maxDelete: Int?
    /// `--max-delete-percent`; `nil` with `--force`.
    var percent: Double?
}

struct TreeCopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy", abstract: "Copy a tree or a file between any two targets (servers, saved remotes, local folders).",
        discussion: """
            Files missing from the destination or different there are streamed from the source, several \
            at once; nothing is deleted. Files are compared by the same rule whichever side is the source: \
            a digest both sides declare (or one only one side declares, computed by reading the other \
            side's file when the sizes match; --no-source-digests turns that off), else by size and \
            modified time within the coarser precision of the two (where one side cannot set times: size, \
            and its file not older than the other's), else by size; the rule used is printed. With \
            --checksum, files are compared by content only (digests declared, else computed by reading \
            the files), never by size or time alone. Modified times are carried where the destination can set them; names the \
            destination refuses are mapped to look-alikes (printed as renamed). The job's plan and progress \
            are kept in the cache folder (--cache): run again after being stopped, the same job continues \
            without sending again the files it finished, and prints how many; --fresh starts it over. A tree \
            is never copied into itself, its parent or its child, whatever the spelling (saved remotes, \
            host aliases such as 127.0.0.1 and localhost, user names, links, ..): the servers and canonical \
            paths decide, and where they cannot, a marker file written on each side and looked for from \
            the other (--assume-no-overlap skips that probe). Each action is printed \
            as it ends (copied, created, deleted; with --dry-run: would copy, …), then a summary; --json \
            prints one report instead. Exit status: 0 when everything was done, 1 when a file failed or an \
            error stopped the job, 64 for a usage error.
            """)
    @OptionGroup var arguments: TreeTransferArguments

    func run() async throws { try await arguments.run(.copy) }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Make a destination tree like a source tree, deleting extras.",
        discussion: """
            Copies as `strata copy` does, then deletes from the destination what the source does not \
            have — only when every copy succeeded, and only when the deletions are within --max-delete \
            (past it, nothing is deleted and the status is 1). A deleted folder counts with every file and \
            folder inside it: the folders to delete are listed first, and the summary (and --dry-run) says \
            how many files, folders and bytes would go. A sync that would delete more than \
            --max-delete-percent of the destination's files (50 by default) stops before changing anything \
            (status 1); --force lets it go on. With --backup-dir, what would be deleted or overwritten is \
            moved there instead. Use --dry-run first. Exit status: 0 when the destination is like the \
            source, 1 when a file failed, deletions were held back, a limit stopped the sync or an error \
            stopped the job, 64 for a usage error.
            """)
    @OptionGroup var arguments: TreeTransferArguments
    @Option(
        help: """
            The most files and folders the sync may delete, counting everything inside a deleted folder; \
            with more to delete it deletes none (default: no limit).
            """)
    var maxDelete: Int?
    @Option(
        help: """
            The largest share, in percent, of the destination's files the sync may delete (default 50); \
            with more it stops before changing anything.
            """)
    var maxDeletePercent: Double = 50
    @Flag(help: "Let the sync delete more than --max-delete-percent of the destination's files.") var force = false

    func validate() throws {
        if let maxDelete, maxDelete < 0 { throw ValidationError("--max-delete takes a number of 0 or more") }
        guard (0...100).contains(maxDeletePercent) else { throw ValidationError("--max-delete-percent takes a number from 0 to 100") }
    }

    func run() async throws {
        try await arguments.run(.sync, limits: SyncLimits(maxDelete: maxDelete, percent: force ? nil : maxDeletePercent))
    }
}

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Report the files and folders missing, extra or different between two trees.",
        discussion: """
            Lists both trees and compares them as `strata copy` does (the rule is printed; `check A B` and \
            `check B A` compare by the same rule), changing nothing. Each difference is printed as \
            `missing PATH`, `extra PATH` or `differs PATH` (paths below the two roots), then a summary \
            saying how many matching files were compared by size or modified time only, not by content \
            (a file rewritten at the same size with its time set back passes those); --checksum compares \
            content by digests (computed where a side lacks them), --download reads both files of every \
            pair and compares their bytes, whatever the listings say. --json prints one report instead. \
            Exit status: 0 when the trees are the same, 1 when they differ or an error stopped the check, \
            64 for a usage error.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The source: a folder or a file.") var source: String
    @Argument(help: "The destination to compare with it.") var destination: String
    @Flag(
        help: """
            List every folder again, ignoring the folder etags kept by the last check of the same two folders \
            (kept where both servers' folder etags change with their contents: ownCloud, Nextcloud).
            """)
    var fresh = false
    @OptionGroup var comparison: ComparisonOptions
    @OptionGroup var treeLimits: TreeLimitOptions
    @Flag(
        help: """
            Read both files of every pair and compare their content (streamed), whatever sizes, times and \
            digests the listings give; every folder is listed.
            """)
    var download = false
    @Option(
        help: """
            How many folders are listed at once while the trees are walked (default 8, as rclone's \
            --checkers); separate from --transfers.
            """)
    var checkers: Int = 8

    func validate() throws {
        guard checkers >= 1 else { throw ValidationError("--checkers takes a number of 1 or more") }
        if download, comparison.checksum { throw ValidationError("--download compares content already: give --download or --checksum") }
    }

    func run() async throws {
        let (sourceProvider, sourcePath) = try await global.open(source)
        let (destinationProvider, destinationPath) = try await global.open(destination)
        // Digests computed from source files are kept in the cache database, so an unchanged tree is read once.
        let jobs = try await TreeTransferJob.jobStore(global)
        var options = TransferManager.Options(checkers: checkers, computeSourceDigests: !comparison.noSourceDigests, startFresh: fresh)
        options.jobStore = jobs
        options.treeLimits = treeLimits.limits
        options.comparison = download ? .content : comparison.checksum ? .checksum : .listings
        options.logger = global.logger
        let report = try await TransferManager(options: options).check(
            TransferEndpoint(sourceProvider, at: sourcePath), against: TransferEndpoint(destinationProvider, at: destinationPath))
        if global.json {
            try Output.json(report)
        } else {
            for path in report.missing { Output.line("missing \(TreeTransferPrinter.text(path))") }
            for path in report.extra { Output.line("extra   \(TreeTransferPrinter.text(path))") }
            for path in report.differing { Output.line("differs \(TreeTransferPrinter.text(path))") }
            for path in report.nameConflicts {
                Output.line("clashes \(TreeTransferPrinter.text(path)) (the destination would make it one name with another)")
            }
            for mapping in report.mappedNames {
                Output.line(TreeTransferPrinter.line(for: mapping))
            }
            for skipped in report.skipped { Output.line("skipped \(skipped.text) (not compared)") }
            Output.line("compared by \(report.rule)")
            Output.line("names compared as the destination does: \(report.names)")
            let clashes = report.nameConflicts.isEmpty ? "" : ", \(report.nameConflicts.count) name conflicts"
            Output.line(
                "\(report.matching) matching, \(report.missing.count) missing, \(report.extra.count) extra, \(report.differing.count) differing"
                    + clashes)
            if let note = TreeTransferPrinter.contentNote(report) { Output.line(note) }
        }
        if !report.isIdentical { throw ExitCode(1) }
    }
}
