import ArgumentParser
import Foundation
import ProviderAPI
import ProviderKit
import TransferEngine

struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Download a file, or with -r a folder's tree.",
        discussion: """
            With -r the remote folder's contents are copied into the local folder as `strata copy` \
            does (files already there and the same are left, the others streamed, several at once), \
            with the same output and --json; a local folder ending in / (or none given) receives a \
            folder of the remote folder's name.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The remote file (with -r: folder).") var source: String
    @Argument(help: "A local file or folder (default: the current folder), or - for standard output.") var destination: String?
    @Flag(help: "Continue an interrupted download of the same file.") var resume = false
    @Option(help: "Download only bytes FIRST-LAST (e.g. 0-1023).") var range: String?
    @Flag(name: [.customShort("r"), .long], help: "Download a folder's tree (as `strata copy` does).") var recursive = false
    @Option(help: "With -r: how many files are downloaded at once (default 4).") var transfers: Int = 4

    func validate() throws {
        guard transfers >= 1 else { throw ValidationError("--transfers takes a number of 1 or more") }
        if recursive {
            if resume || range != nil { throw ValidationError("--resume and --range apply to one file, not to -r") }
            if destination == "-" { throw ValidationError("-r needs a local folder, not standard output") }
        }
    }

    func run() async throws {
        if recursive {
            try await runTree()
            return
        }
        let (provider, path) = try await global.open(source)
        guard !path.isRoot else { throw ValidationError("name a file, not the root") }
        var resume = resume
        if resume, !provider.capabilities.supports(.resumeDownload) {
            // A server not shown to answer ranges right (a WebDAV server's verdict) is never asked
            // to continue: the file is downloaded again from its first byte.
            Output.error("strata: this server is not shown to serve ranges right: downloading from the start")
            resume = false
        }
        let sink = try Self.sink(for: destination, name: path.name, resume: resume)
        let bar = ProgressBar(label: path.name, enabled: !(sink is DescriptorSink))
        var options = DownloadOptions(resume: resume, progress: bar.handler)
        if let range { options.range = try Self.parseRange(range) }
        let result = try await provider.download(path, to: sink, options: options)
        bar.finish()
        if global.json { try Output.json(result.item) }
    }

    /// Where the bytes go: standard output for `-`, straight into an existing device or pipe
    /// (`/dev/null`, a FIFO), else a file written beside its final name and renamed when complete.
    static func sink(for destination: String?, name: String, resume: Bool) throws -> any DownloadSink {
        if destination == "-" {
            guard !resume else { throw ValidationError("--resume needs a file, not standard output") }
            return DescriptorSink.standardOutput
        }
        let local = URL(fileURLWithPath: destination ?? FileManager.default.currentDirectoryPath)
        var info = stat()
        if stat(local.path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                // The remote name must stay inside the folder the caller chose.
                return try FileSink(folder: local, name: name, resumable: resume)
            }
            if type == S_IFCHR || type == S_IFIFO {
                guard !resume else { throw ValidationError("--resume needs a file, not \(local.path)") }
                return try DescriptorSink(path: local.path)
            }
        }
        return FileSink(url: local, resumable: resume)
    }

    /// `get -r`: the remote tree into a local folder, as `strata copy` does.
    private func runTree() async throws {
        let (provider, path) = try await global.open(source)
        let local = destination ?? "./"
        var folder = URL(fileURLWithPath: local, isDirectory: true).standardizedFileURL
        if local.hasSuffix("/") || destination == nil, !path.isRoot { folder.appendPathComponent(path.name, isDirectory: true) }
        let (localProvider, localPath) = try await global.open(folder.absoluteString)
        try await TreeTransferJob.copy(
            from: TransferEndpoint(provider, at: path), to: TransferEndpoint(localProvider, at: localPath), transfers: transfers,
            global: global)
    }

    static func parseRange(_ text: String) throws -> ByteRange {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw ValidationError("--range takes FIRST-LAST, FIRST- or -COUNT") }
        switch (Int64(parts[0]), Int64(parts[1])) {
        case (let first?, let last?) where last >= first: return .bytes(first...last)
        case (let first?, nil) where parts[1].isEmpty: return .from(first)
        case (nil, let count?) where parts[0].isEmpty: return .suffix(count)
        default: throw ValidationError("--range takes FIRST-LAST, FIRST- or -COUNT")
        }
    }
}

struct PutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put", abstract: "Upload a file, or a folder with its contents (several files at once).",
        discussion: """
            A folder is copied as `strata copy` does (files already there and the same are left, the \
            others streamed, several at once), with the same output and --json; --conflict applies to \
            single files.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var journal: OfflineWriteOptions
    @Argument(help: "The local file or folder ('-' for standard input).") var source: String
    @Argument(help: "The remote folder (ending in /) or file. For a local folder: the remote folder that receives its contents (created if missing), or, ending in /, the folder in which a folder of the same name is made.") var destination: String
    @Option(help: "What to do when the name is taken: fail, overwrite or rename.") var conflict: String = "overwrite"
    @Option(help: "When the source is a folder: how many files are uploaded at once.") var transfers: Int = 4

    func run() async throws {
        guard let policy = ConflictPolicy(rawValue: conflict) else {
            throw ValidationError("--conflict takes fail, overwrite or rename")
        }
        guard transfers >= 1 else { throw ValidationError("--transfers takes a number of 1 or more") }
        var isFolder: ObjCBool = false
        if source != "-", FileManager.default.fileExists(atPath: source, isDirectory: &isFolder), isFolder.boolValue {
            guard policy == .overwrite else {
                throw ValidationError(
                    "--conflict \(conflict) applies to a single file; a folder is put as `strata copy` does (files that differ are replaced)")
            }
            guard journal.mode(global) == .off else {
                throw ValidationError(
                    "--offline and --queue-offline put single files: a folder is put as `strata copy` does, which needs the server")
            }
            let (provider, path) = try await global.open(destination)
            let local = URL(fileURLWithPath: source, isDirectory: true).standardizedFileURL
            let target = destination.hasSuffix("/") || path.isRoot ? try path.appending(local.lastPathComponent) : path
            let (localProvider, localPath) = try await global.open(local.absoluteString)
            try await TreeTransferJob.copy(
                from: TransferEndpoint(localProvider, at: localPath), to: TransferEndpoint(provider, at: target), transfers: transfers,
                global: global)
            return
        }
        let (provider, path) = try await global.open(destination, offlineWrites: journal.mode(global))
        let watch = try await JournalWatch.start(provider)
        let upload: any UploadSource
        var name: String
        if source == "-" {
            upload = AsyncSequenceSource(StandardInput())
            name = "stdin"
        } else {
            let url = URL(fileURLWithPath: source)
            upload = try FileSource(url: url)
            name = url.lastPathComponent
        }
        var folder = path
        if !destination.hasSuffix("/"), !path.isRoot {
            if let existing = try await provider.lookUp(path), existing.isFolder {
                folder = path
            } else {
                folder = path.parent
                name = path.name
            }
        }
        let bar = ProgressBar(label: name)
        // The stored item is read back only to be printed (--json); the name it went under is
        // known without it (a renamed upload's path names it).
        let item = try await provider.upload(
            upload, to: folder, name: name, options: UploadOptions(conflict: policy, progress: bar.handler, readBack: global.json))
        bar.finish()
        try await watch.finish(json: global.json)
        if global.json { try Output.json(item) } else if item.name != name { Output.line("uploaded as \(item.path)") }
    }
}

struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mv", abstract: "Move or rename on the server.")
    @OptionGroup var arguments: ServerSideTransfer

    func run() async throws { try await arguments.run(move: true) }
}

struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cp", abstract: "Copy on the server.")
    @OptionGroup var arguments: ServerSideTransfer

    func run() async throws { try await arguments.run(move: false) }
}

/// The arguments of `mv` and `cp`, and how their destination is resolved: a path, or a URL
/// on the same server as the source.
struct ServerSideTransfer: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @OptionGroup var journal: OfflineWriteOptions
    @Flag(help: "Replace an existing destination.") var force = false
    @Argument(help: "The item to move or copy.") var source: String
    @Argument(help: "The new path: a URL on the same server or a path such as /a/b (below the provider root: the server for webdav://, the context path for nuxeo://).") var destination: String

    func run(move: Bool) async throws {
        let (provider, from) = try await global.open(source, offlineWrites: journal.mode(global))
        let to = try Self.destination(destination, source: source, registry: try global.registry())
        let options = TransferOptions(overwrite: force)
        let watch = try await JournalWatch.start(provider)
        let item = move
            ? try await provider.move(from, to: to, options: options)
            : try await provider.copy(from, to: to, options: options)
        try await watch.finish(json: global.json)
        if global.json { try Output.json(item) }
    }

    /// The destination path: `text` itself when it is a path, else the path the adapter finds in
    /// the URL (below a Nuxeo context path, for instance), which must share the source's root.
    static func destination(_ text: String, source: String, registry: ProviderRegistry) throws -> ItemPath {
        if text.hasPrefix("/") { return try ItemPath(text) }
        guard let url = URL(string: text), let sourceURL = URL(string: source), url.scheme != nil else {
            throw ValidationError("the destination must be a path (/a/b) or a URL")
        }
        guard url.host == sourceURL.host, url.port == sourceURL.port, url.scheme == sourceURL.scheme else {
            throw ValidationError("server-side move and copy need both URLs on the same server")
        }
        let (factory, httpURL) = try registry.route(url)
        let (root, path) = try factory.locate(httpURL)
        let (sourceRoot, _) = try factory.locate(try registry.route(sourceURL).wireURL)
        guard root == sourceRoot else {
            throw ValidationError("server-side move and copy need both URLs below the same root (\(Redactor.redact(url: sourceRoot)))")
        }
        return path
    }
}
