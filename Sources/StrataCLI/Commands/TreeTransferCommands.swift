import ArgumentParser
import Foundation
import ProviderAPI
import TransferEngine

/// How `copy`, `sync` and `check` compare files.
struct ComparisonOptions: ParsableArguments {
    @Flag(
        help: """
            Do not read source files to compute a digest that only the destination declares; compare \
            such files by size and modified time (or size) instead.
            """)
    var noSourceDigests = false
}

/// The arguments of `copy` and `sync`: two targets of any kinds, and how the job runs.
struct TreeTransferArguments: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The source: a folder (its contents are transferred) or a file; a URL, a saved remote (name:/path) or a local path.")
    var source: String
    @Argument(help: "The destination folder (created with its parents if missing), or for a single file the folder or file path.")
    var destination: String
    @Option(help: "How many files are sent at once (default 4).") var transfers: Int = 4
    @Option(help: "Attempts per file after a network or server error, the first included (default 3).") var fileAttempts: Int = 3
    @Flag(help: "Print what would be done, and change nothing.") var dryRun = false
    @Flag(
        help: "Start the job over instead of continuing an unfinished run of it (same source and destination), listing every folder again.")
    var fresh = false
    @OptionGroup var comparison: ComparisonOptions

    func validate() throws {
        guard transfers >= 1 else { throw ValidationError("--transfers takes a number of 1 or more") }
        guard (1...100).contains(fileAttempts) else { throw ValidationError("--file-attempts takes a number from 1 to 100") }
    }

    /// Plans and runs the job, printing as ``TreeTransferPrinter`` does; exits 1 when anything failed.
    func run(_ mode: TransferMode, maxDelete: Int?) async throws {
        let (sourceProvider, sourcePath) = try await global.open(source)
        let (destinationProvider, destinationPath) = try await global.open(destination)
        // The job's plan and progress live in the cache database, so a killed run continues.
        let options = TransferManager.Options(
            transfers: transfers, fileRetry: RetryPolicy(maxAttempts: fileAttempts, baseDelay: .milliseconds(500)), dryRun: dryRun,
            maxDelete: maxDelete, computeSourceDigests: !comparison.noSourceDigests, startFresh: fresh)
        try await TreeTransferJob.run(
            mode, from: TransferEndpoint(sourceProvider, at: sourcePath), to: TransferEndpoint(destinationProvider, at: destinationPath),
            options: options, global: global, maxDelete: maxDelete)
    }
}

struct TreeCopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy", abstract: "Copy a tree or a file between any two targets (servers, saved remotes, local folders).",
        discussion: """
            Files missing from the destination or different there are streamed from the source, several \
            at once; nothing is deleted. Files are compared by a digest both sides declare (or one only the \
            destination declares, computed by reading the source file when the sizes match; \
            --no-source-digests turns that off), else by size and modified time within the coarser \
            precision of the two (where the destination cannot set times: size, and the source not \
            modified since the copy), else by size; the rule used is printed. Modified times are carried where the destination can set them; names the \
            destination refuses are mapped to look-alikes (printed as renamed). The job's plan and progress \
            are kept in the cache folder (--cache): run again after being stopped, the same job continues \
            without sending again the files it finished, and prints how many; --fresh starts it over. Each action is printed \
            as it ends (copied, created, deleted; with --dry-run: would copy, …), then a summary; --json \
            prints one report instead. Exit status: 0 when everything was done, 1 when a file failed or an \
            error stopped the job, 64 for a usage error.
            """)
    @OptionGroup var arguments: TreeTransferArguments

    func run() async throws { try await arguments.run(.copy, maxDelete: nil) }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Make a destination tree like a source tree, deleting extras.",
        discussion: """
            Copies as `strata copy` does, then deletes from the destination what the source does not \
            have — only when every copy succeeded, and only when the deletions are within --max-delete \
            (past it, nothing is deleted and the status is 1). Use --dry-run first. Exit status: 0 when \
            the destination is like the source, 1 when a file failed, deletions were held back or an error \
            stopped the job, 64 for a usage error.
            """)
    @OptionGroup var arguments: TreeTransferArguments
    @Option(help: "The most items the sync may delete; with more to delete it deletes none (default: no limit).") var maxDelete: Int?

    func validate() throws {
        if let maxDelete, maxDelete < 0 { throw ValidationError("--max-delete takes a number of 0 or more") }
    }

    func run() async throws { try await arguments.run(.sync, maxDelete: maxDelete) }
}

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Report the files and folders missing, extra or different between two trees.",
        discussion: """
            Lists both trees and compares them as `strata copy` does (the rule is printed), changing \
            nothing. Each difference is printed as `missing PATH`, `extra PATH` or `differs PATH` (paths \
            below the two roots), then a summary; --json prints one report instead. Exit status: 0 when \
            the trees are the same, 1 when they differ or an error stopped the check, 64 for a usage error.
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

    func run() async throws {
        let (sourceProvider, sourcePath) = try await global.open(source)
        let (destinationProvider, destinationPath) = try await global.open(destination)
        // Digests computed from source files are kept in the cache database, so an unchanged tree is read once.
        let jobs = try TreeTransferJob.jobStore(global)
        let options = TransferManager.Options(computeSourceDigests: !comparison.noSourceDigests, jobStore: jobs, startFresh: fresh)
        let report = try await TransferManager(options: options).check(
            TransferEndpoint(sourceProvider, at: sourcePath), against: TransferEndpoint(destinationProvider, at: destinationPath))
        if global.json {
            try Output.json(report)
        } else {
            for path in report.missing { Output.line("missing \(TreeTransferPrinter.text(path))") }
            for path in report.extra { Output.line("extra   \(TreeTransferPrinter.text(path))") }
            for path in report.differing { Output.line("differs \(TreeTransferPrinter.text(path))") }
            for mapping in report.mappedNames {
                Output.line(TreeTransferPrinter.line(for: mapping))
            }
            Output.line("compared by \(report.rule)")
            Output.line(
                "\(report.matching) matching, \(report.missing.count) missing, \(report.extra.count) extra, \(report.differing.count) differing")
        }
        if !report.isIdentical { throw ExitCode(1) }
    }
}
