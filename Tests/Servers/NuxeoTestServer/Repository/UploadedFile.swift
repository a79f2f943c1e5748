import Foundation

/// One file of an upload batch, uploaded in one shot or in chunks.
struct UploadedFile: Sendable {
    var name: String
    var mimeType: String?
    var declaredSize: Int?
    var chunked: Bool
    var chunkCount: Int
    var chunks: [Int: Data] = [:]

    var uploadType: String { chunked ? "chunked" : "normal" }
    var uploadedChunkIDs: [Int] { chunks.keys.sorted() }
    var isComplete: Bool { !chunked || (0..<chunkCount).allSatisfy { chunks[$0] != nil } }

    /// The assembled bytes once complete.
    var data: Data? {
        guard isComplete else { return nil }
        var out = Data()
        for index in 0..<max(chunkCount, 1) { out.append(chunks[index] ?? Data()) }
        return out
    }

    var size: Int { declaredSize ?? chunks.values.reduce(0) { $0 + $1.count } }

    /// The blob to attach, `nil` while incomplete.
    var blob: StoredBlob? {
        data.map { StoredBlob(data: $0, filename: name, mimeType: mimeType ?? "application/octet-stream") }
    }
}
