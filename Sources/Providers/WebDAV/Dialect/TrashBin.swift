import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// One deleted item in an ownCloud or Nextcloud trash bin.
public struct TrashItem: Sendable, Hashable {
    /// The entry's name in the trash bin (`report.txt.d1700000000` on Nextcloud, a file id on ownCloud).
    public var id: String
    /// The name the item had.
    public var originalName: String
    /// Where it was, relative to the user's home (`Documents/report.txt`).
    public var originalLocation: String
    /// When it was deleted.
    public var deleted: Date?
    /// Whether it was a file or a folder.
    public var kind: ItemKind
    /// Its size, where reported.
    public var size: Int64?

    /// Creates a trash entry.
    package init(id: String, originalName: String, originalLocation: String, deleted: Date?, kind: ItemKind, size: Int64? = nil) {
        self.id = id
        self.originalName = originalName
        self.originalLocation = originalLocation
        self.deleted = deleted
        self.kind = kind
        self.size = size
    }
}

/// Reads trash-bin listings: ownCloud's `oc:trashbin-original-filename`,
/// `oc:trashbin-original-location` and `oc:trashbin-delete-datetime`, and Nextcloud's
/// `nc:trashbin-filename`, `nc:trashbin-original-location` and `nc:trashbin-deletion-time`.
package enum TrashBin {
    static let oc = OwnCloudProperties.oc
    static let nc = OwnCloudProperties.nc

    /// The `PROPFIND` body of a trash listing.
    package static let propfindBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns"><d:prop>\
        <d:resourcetype/><d:getcontentlength/><oc:size/>\
        <oc:trashbin-original-filename/><oc:trashbin-original-location/><oc:trashbin-delete-datetime/>\
        <nc:trashbin-filename/><nc:trashbin-original-location/><nc:trashbin-deletion-time/></d:prop></d:propfind>
        """

    /// The entries directly inside the trash root `rootPath` (percent-encoded path ending in `/`);
    /// the root itself and entries below other entries are left out.
    package static func items(_ responses: [DAVResponse], rootPath: String) throws -> [TrashItem] {
        let root = try DAVPathMapper.decodeSegments(rootPath)
        var items: [TrashItem] = []
        for response in responses {
            var href = Substring(response.href)
            if let scheme = href.range(of: "://") {
                href = href[scheme.upperBound...]
                href = href[(href.firstIndex(of: "/") ?? href.endIndex)...]
            }
            let segments = try DAVPathMapper.decodeSegments(String(href))
            guard segments.starts(with: root), segments.count == root.count + 1, let id = segments.last else { continue }
            let found = response.found
            func text(_ namespace: String, _ name: String) -> String? {
                found[DAVPropertyName(namespace, name)].flatMap { $0.text.isEmpty ? nil : $0.text }
            }
            let isFolder = found[DAVPropertyName("DAV:", "resourcetype")]?.children.contains(DAVPropertyName("DAV:", "collection")) ?? false
            let name = text(nc, "trashbin-filename") ?? text(oc, "trashbin-original-filename") ?? id
            let location = text(nc, "trashbin-original-location") ?? text(oc, "trashbin-original-location") ?? name
            var deleted: Date?
            if let seconds = text(nc, "trashbin-deletion-time").flatMap({ Int64($0) }) {
                deleted = UnixTime.date(seconds: Double(seconds))
            } else if let stamp = text(oc, "trashbin-delete-datetime") {
                deleted = HTTPDate.parse(stamp) ?? HTTPDate.parseISO8601(stamp)
            }
            let size = text("DAV:", "getcontentlength").flatMap { Int64($0) } ?? text(oc, "size").flatMap { Int64($0) }
            items.append(TrashItem(
                id: id, originalName: name, originalLocation: location, deleted: deleted, kind: isFolder ? .folder : .file,
                size: size))
        }
        return items.sorted { ($0.deleted ?? .distantPast, $0.id) > ($1.deleted ?? .distantPast, $1.id) }
    }
}

extension WebDAVProvider {
    /// The user's trash bin, newest first (`PROPFIND`, `Depth: 1`, of the user's trash bin under `remote.php/dav`).
    ///
    /// - Throws: `ProviderError.Code.unsupported` for plain WebDAV or a server without a trash bin.
    public func trashItems() async throws -> [TrashItem] {
        let dialect = try requireDialect("the trash bin")
        guard dialect.features.trash else { throw ProviderError.unsupported("the trash bin on this server") }
        var headers = HTTPHeaders()
        headers.add(name: "Depth", value: "1")
        headers.add(name: "Content-Type", value: "application/xml; charset=utf-8")
        let request = TransportRequest(
            method: .PROPFIND, url: dialect.trashRoot, headers: headers, body: .bytes(ByteBuffer(string: TrashBin.propfindBody)))
        let response = try await executor.execute(request)
        guard response.status == 207 else {
            throw await error(for: response, request: request, path: nil) { $0 == 404 || $0 == 405 ? .unsupported : nil }
        }
        let data = try await collect(response, request: request)
        return try TrashBin.items(try MultistatusParser.parse(data), rootPath: dialect.trashRoot.path)
    }

    /// Puts a deleted item back where it was (`MOVE` out of the trash bin): Nextcloud restores
    /// through `…/trashbin/USER/restore/`, ownCloud 10 to the original location in the user's files.
    ///
    /// - Throws: `ProviderError.Code.alreadyExists` when something took its place.
    public func restore(_ entry: TrashItem) async throws {
        let dialect = try requireDialect("the trash bin")
        guard dialect.features.trash else { throw ProviderError.unsupported("the trash bin on this server") }
        let source = URL(string: dialect.trashRoot.absoluteString + DAVPathMapper.encode(segment: entry.id)) ?? dialect.trashRoot
        let destination: URL
        switch dialect.flavor {
        case .nextcloud:
            let user = DAVPathMapper.encode(segment: dialect.user)
            destination = dialect.url("remote.php/dav/trashbin/\(user)/restore/\(DAVPathMapper.encode(segment: entry.id))")
        case .owncloud:
            let segments = entry.originalLocation.split(separator: "/").map { DAVPathMapper.encode(segment: String($0)) }
            destination = URL(string: dialect.filesRoot.absoluteString + segments.joined(separator: "/")) ?? dialect.filesRoot
        }
        var headers = HTTPHeaders()
        headers.add(name: "Destination", value: destination.absoluteString)
        headers.add(name: "Overwrite", value: "F")
        let request = TransportRequest(method: .MOVE, url: source, headers: headers)
        let response = try await executor.execute(request)
        guard response.isSuccess else {
            throw await error(for: response, request: request, path: nil) { $0 == 412 ? .alreadyExists : nil }
        }
        await response.body.discard()
    }
}
