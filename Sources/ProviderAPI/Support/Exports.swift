// `ByteBuffer` is part of the contract (``DownloadSink/write(_:)``, ``UploadStream``), so
// importing ProviderAPI is enough to use it.
@_exported import struct NIOCore.ByteBuffer
