import ArgumentParser
import Foundation
import ProviderAPI
import ProviderKit

/// Uploads one local file to the remote file a URL names.
struct PutBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "put", abstract: "Upload a file.")

    @OptionGroup var target: BenchTarget
    @Argument(help: "The local file.") var file: String
    @Argument(help: "The remote file to create or replace.") var url: String

    func run() async throws {
        let (provider, path) = try await target.open(url)
        let source = try FileSource(url: URL(fileURLWithPath: file))
        let item = try await provider.upload(source, to: path.parent, name: path.name, options: UploadOptions(conflict: .overwrite))
        if let size = item.size, size != source.length {
            throw CheckFailed("the server reports \(size) bytes, the file has \(source.length ?? -1)")
        }
        print(String(item.size ?? -1))
    }
}

/// Uploads every file of a local folder into a remote folder through the batch upload.
struct PutManyBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put-many", abstract: "Upload the files of a folder, several at once.")

    @OptionGroup var target: BenchTarget
    @Argument(help: "The local folder (its files, not its subfolders).") var folder: String
    @Argument(help: "The remote folder, created if missing.") var url: String
    @Option(help: "How many uploads run at once.") var transfers = 4

    func run() async throws {
        let (provider, path) = try await target.open(url)
        if try await provider.itemIfExists(at: path) == nil, !path.isRoot {
            _ = try await provider.createFolder(named: path.name, in: path.parent)
        }
        let local = URL(fileURLWithPath: folder, isDirectory: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let entries = try names.map { BatchUploadEntry(source: try FileSource(url: local.appendingPathComponent($0)), folder: path, name: $0) }
        let transfers = self.transfers
        // The executor A/B of issue 31 (Benchmarks/README, "Tasks on Swift's pool"): the batch's
        // tasks on swift-nio's event loops instead of Swift's pool (`nil`: no preference).
        let loops: (any TaskExecutor)? =
            ProcessInfo.processInfo.environment[LoopTaskExecutor.switchName] == "1" ? LoopTaskExecutor.shared : nil
        let results = await withTaskExecutorPreference(loops) {
            await provider.upload(entries, options: UploadOptions(conflict: .overwrite, readBack: false), batch: BatchOptions(maxConcurrent: transfers))
        }
        let failures = results.compactMap { result -> ProviderError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        if let first = failures.first { throw CheckFailed("\(failures.count) of \(entries.count) uploads failed, first: \(first)") }
        print(String(entries.count))
    }
}
