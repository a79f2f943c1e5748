import Foundation
import ProviderAPI

/// `strata put FOLDER URL`: the folder's tree is created on the server, then its files are
/// uploaded through the provider's batch upload, several at once.
struct FolderUpload {
    /// What a folder upload did, as `--json` prints it.
    struct Summary: Encodable {
        var folders = 0
        var files = 0
        var bytes: Int64 = 0
        var failed = 0
    }

    let local: URL
    let provider: any StorageProvider
    let options: UploadOptions
    let batch: BatchOptions

    /// Uploads the contents of ``local`` into `target`, which is created if missing.
    func run(into target: ItemPath) async throws -> Summary {
        var summary = Summary()
        var folders: [(local: URL, remote: ItemPath)] = [(local, target)]
        var entries: [BatchUploadEntry] = []
        var index = 0
        while index < folders.count {
            let (folder, remote) = folders[index]
            index += 1
            try await ensureFolder(remote)
            summary.folders += 1
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            for name in names {
                let url = folder.appendingPathComponent(name)
                let values = try url.resourceValues(forKeys: [.isDirectoryKey, .isRegularFileKey, .isSymbolicLinkKey])
                if values.isSymbolicLink == true { continue }
                if values.isDirectory == true {
                    folders.append((url, try remote.appending(name)))
                } else if values.isRegularFile == true {
                    let source = try FileSource(url: url)
                    summary.bytes += source.length ?? 0
                    entries.append(BatchUploadEntry(source: source, folder: remote, name: name))
                }
            }
        }
        summary.files = entries.count
        let results = await provider.upload(entries, options: options, batch: batch)
        for (entry, result) in zip(entries, results) {
            if case .failure(let error) = result {
                summary.failed += 1
                Output.error("\((try? entry.folder.appending(entry.name))?.description ?? entry.name): \(Redactor.redact(String(describing: error)))")
            }
        }
        return summary
    }

    /// Creates `path` and its missing parents; an existing folder is fine, an existing file is not.
    private func ensureFolder(_ path: ItemPath) async throws {
        if path.isRoot { return }
        if let existing = try await provider.lookUp(path) {
            guard existing.isFolder else { throw ProviderError(.conflict, "\(path) is a file") }
            return
        }
        try await ensureFolder(path.parent)
        do {
            _ = try await provider.createFolder(named: path.name, in: path.parent)
        } catch let error as ProviderError where error.code == .alreadyExists {
            return
        }
    }
}
