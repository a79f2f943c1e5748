import Foundation
import Hummingbird

/// One chunk name of ownCloud's chunking v1 (`OC_FileChunking::decodeName`).
struct LegacyChunkName: Equatable {
    /// The file the chunks make.
    var name: String
    var transferID: String
    var count: Int
    var index: Int

    /// Reads `<name>-chunking-<transfer id>-<count>-<index>` as the server's unanchored, greedy
    /// pattern `(.*)-chunking-(\d+)-(\d+)-(\d+)` does; `nil` when it does not match.
    init?(_ text: String) {
        guard let regex = try? NSRegularExpression(pattern: "(.*)-chunking-(\\d+)-(\\d+)-(\\d+)"),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let name = Range(match.range(at: 1), in: text), let transfer = Range(match.range(at: 2), in: text),
            let count = Range(match.range(at: 3), in: text), let index = Range(match.range(at: 4), in: text),
            let chunkCount = Int(text[count]), let chunkIndex = Int(text[index])
        else { return nil }
        self.name = String(text[name])
        transferID = String(text[transfer])
        self.count = chunkCount
        self.index = chunkIndex
    }

    /// The key the chunks of one upload share (`<name>-chunking-<id>-<count>-`).
    var prefix: String { "\(name)-chunking-\(transferID)-\(count)-" }
}

extension FilesEndpoint {
    /// ownCloud chunking v1 (ownCloud 10 and Nextcloud, `File::createFileChunked`): a PUT with
    /// `OC-Chunked` to `…/<name>-chunking-<id>-<n>-<i>` stores chunk `i` of `n` out of sight (never a
    /// file of its own); the chunk that completes `0..<n`, in any order, assembles `<name>` (new or
    /// overwritten; `X-OC-Mtime` and `OC-Checksum` apply) and the chunks are dropped.
    ///
    /// Every chunk answers 201, as Sabre's PUT of a name that does not exist does. A chunk that does
    /// not complete the file has no `ETag`; when `<name>` already exists it carries that file's
    /// `OC-FileId` and `OC-ETag` (`FilesPlugin::sendFileIdHeader` looks the target name up). The last
    /// one carries the assembled file's `OC-FileId`, and `ETag` and `OC-ETag` with the etag **unquoted**,
    /// as `createFileChunked` returns it bare and `CopyEtagHeaderPlugin` copies it. A name that is not
    /// a chunk name is 501 "Invalid chunk name".
    func putLegacyChunk(_ req: ServerRequest, name: String) throws -> Response {
        guard let chunk = LegacyChunkName(name) else {
            throw SabreError(501, "Sabre\\DAV\\Exception\\NotImplemented", "Invalid chunk name")
        }
        try Self.checkName(chunk.name)
        let folder = Array(path.dropLast())
        try checkLock(folder + [chunk.name])
        let mtime = req.header("X-OC-Mtime").flatMap { Self.parseTime($0.trimmingCharacters(in: .whitespaces)) }
        let result = try core.withState { state -> (id: Int64?, etag: String?, complete: Bool) in
            let root = rootID(&state)
            guard let located = locate(&state, folder), state.files.nodes[located.id]?.isFolder == true else {
                throw SabreError.conflict("Files cannot be created in non-existent collections")
            }
            let parent = located.id
            let existing = state.files.nodes[parent]?.children[chunk.name].flatMap { state.files.nodes[$0] }
            if existing?.isFolder == true { throw SabreError.conflict("\(chunk.name) is a collection") }
            try Self.require(existing == nil ? 4 : 2, of: located, existing == nil ? "creating files" : "changes")
            let key = "\(parent)/" + chunk.prefix
            state.files.legacyChunks[user, default: [:]][key, default: [:]][chunk.index] = req.body
            let stored = state.files.legacyChunks[user]?[key] ?? [:]
            guard (0..<chunk.count).allSatisfy({ stored[$0] != nil }) else {
                return (existing?.id, existing.map { "\"\($0.etag)\"" }, false)
            }
            let data = (0..<chunk.count).reduce(into: Data()) { $0.append(stored[$1] ?? Data()) }
            if located.share == nil {
                try checkQuota(state, adding: Int64(data.count) - Int64(existing?.data.count ?? 0), root: root)
            }
            state.files.legacyChunks[user]?[key] = nil
            let now = ServerCore.now
            let checksum = core.isNextcloud ? req.header("OC-Checksum") : Checksums.ownCloudList(data)
            let written = state.files.writeFile(
                name: chunk.name, parent: parent, data: data, mtime: mtime ?? now, checksum: checksum, now: now)
            return (written.id, state.files.nodes[written.id]?.etag, true)
        }
        var headers: [(String, String)] = []
        if let id = result.id { headers.append(("OC-FileId", Identifiers.ocID(id, instance: core.instanceID))) }
        if let etag = result.etag {
            headers.append(("OC-ETag", etag))
            if result.complete { headers.append(("ETag", etag)) }
        }
        if result.complete, mtime != nil { headers.append(("X-OC-MTime", "accepted")) }
        return Reply.empty(201, headers: headers)
    }

    /// The chunk names of `user`'s unfinished v1 uploads (for tests).
    static func pendingLegacyChunks(_ state: ServerState, user: String) -> [String] {
        (state.files.legacyChunks[user] ?? [:]).flatMap { key, chunks in
            chunks.keys.sorted().map { "\(key.split(separator: "/", maxSplits: 1).last ?? "")\($0)" }
        }.sorted()
    }
}
