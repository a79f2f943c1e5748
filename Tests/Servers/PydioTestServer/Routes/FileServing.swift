import Foundation
import Hummingbird
import NIOCore

/// Raw file answers as pydio's `FileReaderResponse` sends them, including
/// its `Range` off-by-one (`bytes=2-5` → 3 bytes, `Content-Range: bytes 2-4/12`).
enum FileServing {
    struct ConnectionDropped: Error {}

    static func serve(name: String, data: Data, mtime: Int64, range: String?, dropAfter: Int?) -> Response {
        let size = data.count
        var status = 200
        var slice = 0..<size
        var headers: [(String, String)]
        if let range, let parsed = parse(range, size: size) {
            status = 206
            slice = parsed
            headers = [
                ("Expires", "Thu, 19 Nov 1981 08:52:00 GMT"),
                ("Pragma", "public"),
                ("Cache-Control", "public, must-revalidate, post-check=0, pre-check=0"),
                ("Accept-Ranges", "bytes"),
                ("Last-Modified", UnixTime.http(mtime)),
                ("Content-Range", "bytes \(parsed.lowerBound)-\(parsed.upperBound - 1)/\(size)"),
                ("Content-Length", String(parsed.count)),
                ("Content-type", "text/html; charset=UTF-8"),
            ]
        } else {
            let quoted = name.replacingOccurrences(of: "\"", with: "\\\"")
            headers = [
                ("Accept-Ranges", "bytes"),
                ("Last-Modified", UnixTime.http(mtime)),
                ("Content-Type", "application/force-download; name=\"\(quoted)\""),
                ("Content-Transfer-Encoding", "binary"),
                ("Content-Length", String(size)),
                ("Content-Range", "bytes 0-\(size - 1)/\(size);"),
                ("Content-Disposition", "attachment; filename=\"\(quoted)\""),
                ("Expires", "0"),
                ("Cache-Control", "no-cache, must-revalidate"),
                ("Pragma", "no-cache"),
            ]
        }
        // A view of the stored bytes, not a copy of the whole file per download (as in the Nuxeo server).
        let bytes = data[slice]
        let body = ResponseBody(contentLength: bytes.count) { writer in
            let limit = dropAfter.map { min($0, bytes.count) } ?? bytes.count
            var offset = 0
            while offset < limit {
                let end = min(offset + 64 * 1024, limit)
                try await writer.write(ByteBuffer(bytes: bytes[bytes.startIndex + offset..<bytes.startIndex + end]))
                offset = end
            }
            if dropAfter != nil { throw ConnectionDropped() }
            try await writer.finish(nil)
        }
        return Response(status: HTTPResponse.Status(code: status), headers: Reply.fields(headers), body: body)
    }

    /// PHP: `offset = intval(a)`, `length = intval(b) - offset`; `0` → to the end;
    /// past the end or negative → to the end.
    static func parse(_ header: String, size: Int) -> Range<Int>? {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes=") else { return nil }
        let spec = value.dropFirst(6).split(separator: ",").first.map(String.init) ?? ""
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: .whitespaces)) ?? 0
        }
        let offset = min(max(parts.first ?? 0, 0), size)
        var length = (parts.count > 1 ? parts[1] : 0) - offset
        if length == 0 { length = size - offset }
        if length + offset > size || length < 0 { length = size - offset }
        return offset..<(offset + length)
    }
}
