/// What a sync's deletions would take from the destination, counted before anything runs: every
/// file and folder below each folder it deletes, not only the folders themselves.
///
/// ``TransferManager/Options/maxDelete`` is held to `items` and
/// ``TransferManager/Options/maxDeletePercent`` to ``files`` against `destinationFiles`.
public struct DeletionCount: Sendable, Hashable, Encodable {
    /// Files deleted: those the sync deletes and those inside the folders it deletes.
    public var files = 0
    /// Folders deleted: those the sync deletes and the folders inside them.
    public var folders = 0
    /// The bytes of ``files`` (a file whose size the server did not say counts as 0).
    public var bytes: Int64 = 0
    /// The files the destination holds below the job's root: those the sync leaves, replaces or deletes.
    package var destinationFiles = 0

    /// Creates a count.
    package init(files: Int = 0, folders: Int = 0, bytes: Int64 = 0, destinationFiles: Int = 0) {
        self.files = files
        self.folders = folders
        self.bytes = bytes
        self.destinationFiles = destinationFiles
    }

    /// Files and folders deleted.
    package var items: Int { files + folders }

    /// ``files`` as a percentage of `destinationFiles`; 0 when the destination holds no file.
    public var percentOfFiles: Double { destinationFiles == 0 ? 0 : Double(files) * 100 / Double(destinationFiles) }

    private enum CodingKeys: String, CodingKey { case files, folders, bytes, destinationFiles, items, percentOfFiles }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(files, forKey: .files)
        try container.encode(folders, forKey: .folders)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(destinationFiles, forKey: .destinationFiles)
        try container.encode(items, forKey: .items)
        try container.encode(percentOfFiles, forKey: .percentOfFiles)
    }
}
