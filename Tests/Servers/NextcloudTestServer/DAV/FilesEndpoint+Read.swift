import Foundation
import Hummingbird
import HTTPProviderKit
import ProviderAPI

extension FilesEndpoint {
    /// GET (with a single `Range`) and HEAD of a file.
    func get(_ req: ServerRequest, head: Bool) throws -> Response {
        let node = try core.withState { state -> FileNode in
            guard let id = locate(&state, path)?.id, let node = state.files.nodes[id] else {
                throw SabreError.notFound(relative)
            }
            return node
        }
        if node.isFolder {
            throw SabreError.methodNotAllowed("Sabre\\DAV\\Collection does not support GET; use PROPFIND")
        }
        var headers: [(String, String)] = [
            ("Content-Type", node.mimeType),
            ("ETag", "\"\(node.etag)\""), ("OC-ETag", "\"\(node.etag)\""),
            ("Last-Modified", HTTPDate.format(Date(timeIntervalSince1970: TimeInterval(node.mtime)))),
            ("Accept-Ranges", "bytes"),
            ("Content-Disposition", "attachment; filename*=UTF-8''\(FormCodec.encodePath(node.name)); filename=\"\(node.name.replacingOccurrences(of: "\"", with: ""))\""),
        ]
        if let checksum = node.checksum, let first = checksum.split(separator: " ").first {
            headers.append(("OC-Checksum", String(first)))
        }
        let size = node.data.count
        var status = 200
        var slice = 0..<size
        if let range = req.header("Range") {
            guard let parsed = Self.parseRange(range, size: size) else {
                return Reply.bytes(Data(), status: 416, headers: [("Content-Range", "bytes */\(size)")])
            }
            status = 206
            slice = parsed
            headers.append(("Content-Range", "bytes \(parsed.lowerBound)-\(parsed.upperBound - 1)/\(size)"))
        }
        if head {
            return Reply.bytes(Data(), status: status, headers: headers + [("Content-Length", String(slice.count))])
        }
        return Reply.bytes(node.data.subdata(in: slice), status: status, headers: headers)
    }

    /// `bytes=a-b`, `bytes=a-`, `bytes=-n` (the first range only); `nil` when unsatisfiable.
    static func parseRange(_ header: String, size: Int) -> Range<Int>? {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes=") else { return 0..<size }
        let spec = value.dropFirst(6).split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return 0..<size }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix > 0, size > 0 else { return nil }
            return max(0, size - suffix)..<size
        }
        guard let start = Int(parts[0]), start < size else { return nil }
        let end = parts[1].isEmpty ? size - 1 : min(Int(parts[1]) ?? (size - 1), size - 1)
        guard end >= start else { return nil }
        return start..<(end + 1)
    }
}
