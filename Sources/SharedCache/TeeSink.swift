import Foundation
import NIOCore
import ProviderAPI

/// Writes a download into the caller's sink and, on the side, into the blob store.
///
/// The cache is best effort: a failure of the side sink (a digest that does not match, a full
/// disk) never fails the caller's download; the side copy is just dropped.
actor TeeSink: DownloadSink {
    let primary: any DownloadSink
    let side: BlobSink
    private var sideFailed = false
    private var sideBegun = false
    private var sideWritten: Int64 = 0

    init(primary: any DownloadSink, side: BlobSink) {
        self.primary = primary
        self.side = side
    }

    /// The blob key when the side copy was stored.
    var storedKey: String? { sideFailed ? nil : side.key }

    func resumePoint() async throws -> ResumePoint? { try await primary.resumePoint() }

    func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        try await primary.begin(offset: offset, expectedLength: expectedLength, validator: validator)
        if offset != 0 {
            // A cut body continued within the same download goes on into the side copy too;
            // any other resume leaves the side copy without the start of the content.
            if sideBegun, !sideFailed, offset == sideWritten { return }
            if sideBegun, !sideFailed { await side.fail() }
            sideFailed = true
            return
        }
        if sideBegun, !sideFailed { await side.fail() }
        sideFailed = false
        sideWritten = 0
        sideBegun = true
        do { try await side.begin(offset: 0, expectedLength: expectedLength, validator: validator) } catch { sideFailed = true }
    }

    func write(_ buffer: ByteBuffer) async throws {
        try await primary.write(buffer)
        guard !sideFailed else { return }
        sideWritten += Int64(buffer.readableBytes)
        do { try await side.write(buffer) } catch {
            sideFailed = true
            await side.fail()
        }
    }

    func finish() async throws {
        if !sideFailed {
            do { try await side.finish() } catch { sideFailed = true }
        }
        try await primary.finish()
    }

    func fail() async {
        await primary.fail()
        if !sideFailed { await side.fail() }
    }
}
