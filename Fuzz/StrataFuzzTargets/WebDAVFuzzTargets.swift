import Foundation
import HTTPProviderKit
import ProviderAPI
import WebDAVProvider

/// The WebDAV side: multistatus bodies, the XML byte reader under them, and OCS envelopes.
public enum WebDAVFuzzTargets {
    private static let root = URL(string: "https://dav.example/remote.php/dav/files/user/")

    /// A multistatus body, parsed whole and again in pieces (the two must agree), each
    /// response's href mapped to a path and its properties to an item, as a listing does;
    /// the same bytes also go through the WebDAV error-body reader.
    public static func multistatus(_ data: Data) -> FuzzOutcome {
        var whole: [DAVResponse] = []
        let wholeOutcome = FuzzOutcome.of { whole = try MultistatusParser.parse(data) }

        var streamed: [DAVResponse] = []
        let parser = MultistatusParser(onResponse: { streamed.append($0) })
        let streamedOutcome = FuzzOutcome.of {
            for piece in FuzzTarget.pieces(of: data, size: FuzzTarget.pieceSize(for: data)) { try parser.feed(piece) }
            _ = try parser.finish()
        }
        if wholeOutcome.isFinding || streamedOutcome.isFinding {
            return FuzzOutcome.combined([wholeOutcome, streamedOutcome])
        }
        if (wholeOutcome == .accepted) != (streamedOutcome == .accepted) {
            return .finding("multistatus read whole: \(wholeOutcome), read in pieces: \(streamedOutcome)")
        }
        if wholeOutcome == .accepted, whole != streamed {
            return .finding("multistatus read whole and in pieces gave different responses")
        }

        var outcomes = [wholeOutcome]
        if let root, let mapper = try? DAVPathMapper(root: root) {
            for response in whole {
                outcomes.append(FuzzOutcome.of {
                    let path = try mapper.path(forHref: response.href)
                    let item = OwnCloudProperties.refine(
                        DAVItemMapper.item(path: path, properties: response.found), properties: response.found)
                    _ = OwnCloudProperties.shareTypes(of: item)
                })
            }
        }
        outcomes.append(FuzzOutcome.of { _ = try TrashBin.items(whole, rootPath: "/remote.php/dav/trashbin/user/trash/") })
        _ = DAVErrorBody.parse(data)
        return FuzzOutcome.combined(outcomes)
    }

    /// Any XML, through `XMLByteReader` whole and in pieces: the element events, qualified names,
    /// attributes, texts (trimmed and as read) and status codes must be the same both ways.
    public static func xmlReader(_ data: Data) -> FuzzOutcome {
        let whole = EventRecorder()
        let wholeOutcome = FuzzOutcome.of {
            let reader = XMLByteReader(delegate: whole, maxDepth: 64, maxTextLength: 1 << 16, reportsAttributes: true)
            try reader.feed(data)
            try reader.finish()
        }
        let streamed = EventRecorder()
        let streamedOutcome = FuzzOutcome.of {
            let reader = XMLByteReader(delegate: streamed, maxDepth: 64, maxTextLength: 1 << 16, reportsAttributes: true)
            for piece in FuzzTarget.pieces(of: data, size: FuzzTarget.pieceSize(for: data)) { try reader.feed(piece) }
            try reader.finish()
        }
        if wholeOutcome.isFinding || streamedOutcome.isFinding {
            return FuzzOutcome.combined([wholeOutcome, streamedOutcome])
        }
        if (wholeOutcome == .accepted) != (streamedOutcome == .accepted) {
            return .finding("XML read whole: \(wholeOutcome), read in pieces: \(streamedOutcome)")
        }
        if wholeOutcome == .accepted, whole.events != streamed.events {
            return .finding("XML read whole and in pieces reported different events")
        }
        return wholeOutcome
    }

    /// An OCS answer (JSON or XML), its error, and the shares in its data.
    public static func ocs(_ data: Data) -> FuzzOutcome {
        var envelope: OCSEnvelope?
        let parsed = FuzzOutcome.of { envelope = try OCSEnvelope.parse(data) }
        guard let envelope else { return parsed }
        _ = envelope.error(request: "GET /ocs/v2.php/apps/files_sharing/api/v1/shares", httpStatus: 200)
        return FuzzOutcome.combined([
            parsed,
            FuzzOutcome.of { _ = try OCSShareMapper.shares(envelope.data) { try ItemPath($0) } },
        ])
    }
}

/// Records what an `XMLByteReader` reports, to compare two reads.
private final class EventRecorder: XMLByteReaderDelegate {
    var events: [String] = []

    func didStart(_ name: XMLName, reader: XMLByteReader) throws {
        events.append("<\(name) \(reader.qualifiedName) \(reader.depth) \(reader.attributes) \(reader.rawText.debugDescription)")
    }

    func didEnd(_ name: XMLName, reader: XMLByteReader) throws {
        events.append(
            ">\(name) \(reader.depth) \(reader.text) \(reader.rawText.debugDescription) \(reader.rawTextLength) \(reader.textStatusCode.map(String.init) ?? "-")")
    }
}
