import Foundation

/// What a Nuxeo server holds of one file of an upload batch (`GET /api/v1/upload/{batch}/{index}`).
package struct NuxeoBatchFileState: Sendable, Hashable {
    /// Whether every chunk arrived (the server answered 200, not 202).
    package var complete: Bool
    /// The indexes of the chunks received (`uploadedChunkIds`).
    package var chunks: Set<Int>
    /// The file's name, decoded.
    package var name: String?
    /// The file's size as declared when it was sent (`X-File-Size`).
    package var size: Int64?
    /// The number of chunks the file was sent in, for a chunked upload.
    package var chunkCount: Int?

    /// Creates a state.
    package init(complete: Bool, chunks: Set<Int>, name: String? = nil, size: Int64? = nil, chunkCount: Int? = nil) {
        self.complete = complete
        self.chunks = chunks
        self.name = name
        self.size = size
        self.chunkCount = chunkCount
    }
}
