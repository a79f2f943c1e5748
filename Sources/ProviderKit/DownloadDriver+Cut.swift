import Foundation
import ProviderAPI

extension DownloadDriver {
    /// Writes into `sink` only the bytes `from..<to` of a body wider than asked (a
    /// ``DownloadVerdict/cut(bodyStart:from:to:total:)``), as a body of its own: `begin` at 0,
    /// every kept piece in order, then `finish`, or `fail` on any error. The rest of the body is
    /// read and dropped; cancellation is honoured between pieces.
    ///
    /// ```swift
    /// case .cut(let bodyStart, let from, let to, _):
    ///     let kept = try await DownloadDriver.cut(body, bodyStart: bodyStart, from: from, to: to,
    ///                                             validator: etag, into: sink, progress: options.progress)
    /// ```
    ///
    /// - Parameters:
    ///   - body: the answer's body.
    ///   - bodyStart: where the body starts in the content.
    ///   - lower: the first byte to keep (`from:`).
    ///   - upper: the byte after the last one to keep (`to:`); `nil` keeps everything from `lower` on.
    ///   - validator: what the sink keeps beside the bytes (`DownloadSink.begin(offset:expectedLength:validator:)`).
    ///   - sink: where the kept bytes go.
    ///   - progress: told after each kept piece, towards the bytes asked.
    ///   - request: the request to name in errors, if any.
    /// - Returns: how many bytes were kept.
    /// - Throws: `ProviderError.Code.network` when the body ends before `to` ("the body ended after N
    ///   of the M bytes asked for"); the body's own error, as a `ProviderError`.
    public static func cut<Body: AsyncSequence>(
        _ body: Body, bodyStart: Int64, from lower: Int64, to upper: Int64?, validator: String?, into sink: any DownloadSink,
        progress: ProgressHandler?, request: String? = nil
    ) async throws -> Int64 where Body.Element == ByteBuffer {
        let wanted = upper.map { $0 - lower }
        try await sink.begin(offset: 0, expectedLength: wanted, validator: validator)
        var kept: Int64 = 0
        do {
            var position = bodyStart
            for try await var piece in body {
                try Task.checkCancellation()
                let pieceStart = position
                position += Int64(piece.readableBytes)
                let from = max(lower, pieceStart)
                let to = min(upper ?? position, position)
                guard to > from else { continue }
                piece.moveReaderIndex(forwardBy: Int(from - pieceStart))
                if let part = piece.readSlice(length: Int(to - from)) {
                    try await sink.write(part)
                    kept += Int64(part.readableBytes)
                    progress?(TransferProgress(completed: kept, expected: wanted))
                }
            }
            if let wanted, kept != wanted {
                throw ProviderError(.network, "the body ended after \(kept) of the \(wanted) bytes asked for", request: request)
            }
            try await sink.finish()
        } catch {
            await sink.fail()
            throw ProviderError.wrap(error, request: request)
        }
        return kept
    }
}
