import Foundation
import Hummingbird
import NIOCore

extension NuxeoRouter {
    /// `@blob/{xpath}`: `file:content` (or `blobholder:0`); 302 when redirects are on.
    func blob(_ req: ServerRequest, uid: String, xpath: String) throws -> Response {
        guard ["file:content", "blobholder:0"].contains(xpath) else { throw NuxeoError.notFound("Property not found: \(xpath)") }
        let doc = core.withState { $0.repository.document(uid) }
        guard let doc, let blob = doc.blob else { throw NuxeoError.notFound("No blob found for xpath \(xpath)") }
        if let host = core.faults.blobRedirectHost {
            let location = "\(core.baseURL(host: host))/s3/\(uid)?sig=\(UUID().uuidString.lowercased())"
            return Reply.empty(302, headers: [("Location", location)])
        }
        return serve(req, blob: blob, modified: doc.modified)
    }

    /// `/nxfile/default/{uid}/{xpath…}/{filename}` (the `data` URL of blob properties).
    func nxfile(_ req: ServerRequest, rest: String) throws -> Response {
        let parts = rest.split(separator: "/").map { FormDecoding.decodeSegment(String($0)) }
        guard parts.count >= 4, parts[1] == "default", ["GET", "HEAD"].contains(req.method) else {
            throw NuxeoError.notFound(req.rawPath)
        }
        let xpath = parts.count > 4 ? parts[3..<(parts.count - 1)].joined(separator: "/") : parts[3]
        return try blob(req, uid: parts[2], xpath: xpath)
    }

    /// `/s3/{uid}?sig=…`: the redirect target, served WITHOUT authentication.
    func blobFromS3(_ req: ServerRequest, rest: String) throws -> Response {
        let uid = String(rest.dropFirst("/s3/".count))
        let doc = core.withState { $0.repository.document(uid) }
        guard let doc, let blob = doc.blob else { return Reply.empty(404) }
        return serve(req, blob: blob, modified: doc.modified)
    }

    /// Headers of spec §3, `If-None-Match` → 304, single `Range` → 206, body streamed in pieces.
    func serve(_ req: ServerRequest, blob: StoredBlob, modified: Int64?) -> Response {
        let etag = "\"\(blob.digest)\""
        var headers: [(String, String)] = [
            ("ETag", etag),
            ("Content-Disposition", Self.contentDisposition(blob.filename, inline: req.queryValue("inline") == "true")),
            ("Content-Type", (blob.mimeType ?? "application/octet-stream") + (blob.encoding.map { "; charset=\($0)" } ?? "")),
            ("Accept-Ranges", "bytes"),
        ]
        if let modified { headers.append(("Last-Modified", DateCodec.http(modified))) }
        if let match = req.header("If-None-Match") {
            let tags = match.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if tags.contains("*") || tags.contains(etag) || tags.contains(blob.digest) {
                return Reply.empty(304, headers: headers.filter { $0.0 != "Content-Type" })
            }
        }
        var status = 200
        var range = 0..<blob.length
        if let header = req.header("Range"), let parsed = Self.parseRange(header, length: blob.length) {
            status = 206
            range = parsed
            headers.append(("Content-Range", "bytes \(parsed.lowerBound)-\(parsed.upperBound - 1)/\(blob.length)"))
        }
        headers.append(("Content-Length", String(range.count)))
        if req.method == "HEAD" { return Reply.empty(status, headers: headers) }
        // A view of the stored bytes (no copy of the whole blob per download: the bench's 256 MiB
        // file cost the server as much CPU as the client's MD5 on a 2-core machine).
        let slice = blob.data[range]
        let drop = core.faults.takeBlobDrop()
        let body = ResponseBody(contentLength: slice.count) { writer in
            let limit = drop.map { min($0, slice.count) } ?? slice.count
            var offset = 0
            while offset < limit {
                let end = min(offset + 64 * 1024, limit)
                try await writer.write(ByteBuffer(bytes: slice[slice.startIndex + offset..<slice.startIndex + end]))
                offset = end
            }
            if drop != nil { throw ConnectionDropped() }
            try await writer.finish(nil)
        }
        return Response(status: Reply.status(status), headers: Reply.fields(headers), body: body)
    }

    struct ConnectionDropped: Error {}

    /// One `bytes=a-b | a- | -n` range; `nil` (→ full 200) for multi-range, malformed or unsatisfiable.
    static func parseRange(_ header: String, length: Int) -> Range<Int>? {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes="), length > 0 else { return nil }
        let spec = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let n = Int(last), n > 0 else { return nil }
            return max(length - n, 0)..<length
        }
        guard let start = Int(first), start < length else { return nil }
        if last.isEmpty { return start..<length }
        guard let end = Int(last), end >= start else { return nil }
        return start..<min(end + 1, length)
    }

    /// RFC 2231: `attachment; filename=x` for plain names, else `filename*=UTF-8''…`.
    static func contentDisposition(_ name: String, inline: Bool) -> String {
        let kind = inline ? "inline" : "attachment"
        let plain = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+.^_`|~-")
        if !name.isEmpty, name.unicodeScalars.allSatisfy({ plain.contains($0) }) {
            return "\(kind); filename=\(name)"
        }
        return "\(kind); filename*=UTF-8''\(FormDecoding.encodeComponent(name))"
    }
}
