import Foundation

extension Capabilities {
    /// Throws ``ProviderError/Code/unsupported`` when `options` ask for a feature this provider
    /// does not declare, so that no request is sent for a call that cannot be honoured.
    ///
    /// A range needs ``Features/rangeDownload``, `resume` needs ``Features/resumeDownload``,
    /// and `ifMatch` or `ifNoneMatch` need ``Features/preconditions``. Every adapter calls this
    /// first in ``StorageProvider/download(_:to:options:)``; the conformance suite checks it.
    public func require(_ options: DownloadOptions) throws {
        if options.range != nil { try require(.rangeDownload, for: "range downloads") }
        if options.resume { try require(.resumeDownload, for: "resumed downloads") }
        if options.ifMatch != nil { try require(.preconditions, for: "download(ifMatch:) preconditions") }
        if options.ifNoneMatch != nil { try require(.preconditions, for: "download(ifNoneMatch:) conditional downloads") }
    }

    /// Throws ``ProviderError/Code/unsupported`` when `options` ask for a feature this provider
    /// does not declare: `ifMatch` needs ``Features/preconditions``.
    ///
    /// ``UploadOptions/modified`` without ``Features/setModifiedTime`` is not refused: the
    /// contract says it is ignored. Every adapter calls this first in
    /// ``StorageProvider/upload(_:to:name:options:)``.
    public func require(_ options: UploadOptions) throws {
        if options.ifMatch != nil { try require(.preconditions, for: "upload(ifMatch:) preconditions") }
    }
}
