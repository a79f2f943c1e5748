import Foundation

/// Nuxeo answers for the hostile scenarios, in the shapes the Nuxeo adapter reads: the root
/// document of `GET /nuxeo/api/v1/path/`, `documents` pages of `@children`, and a JSON 404.
public enum HostileNuxeo {
    /// The uid of the served root folder.
    public static let rootUid = "hostile-root"

    /// Serves the root folder at `/nuxeo/api/v1/path…` and sends `@children` to `children`
    /// with the asked `currentPageIndex` and `pageSize`; anything else is a Nuxeo 404.
    public static func route(
        children: @escaping @Sendable (_ page: Int, _ pageSize: Int, HostileContext) -> HostileResponse
    ) -> @Sendable (HostileRequest, HostileContext) -> HostileResponse {
        { request, context in
            if request.path.hasPrefix("/nuxeo/api/v1/path") {
                return json(200, document(uid: rootUid, title: "root", path: "/", folder: true))
            }
            if request.path.hasSuffix("/@children") {
                let query = request.queryItems
                let page = query["currentPageIndex"].flatMap { Int($0) } ?? 0
                let size = query["pageSize"].flatMap { Int($0) } ?? 1000
                return children(page, size, context)
            }
            return json(404, #"{"entity-type":"exception","status":404,"message":"not found"}"#)
        }
    }

    /// A `document` entity.
    /// `title` and `path` go in as JSON string contents (escape `"` and `\\` yourself);
    /// `extraProperties` (`"key":value` pairs, as JSON text) are added to `properties`.
    public static func document(
        uid: String, title: String, path: String, folder: Bool, extraProperties: String? = nil,
        lastModified: String = "2023-01-02T10:00:00.000Z"
    ) -> String {
        let facets = folder ? #"["Folderish"]"# : "[]"
        let type = folder ? "Folder" : "File"
        let extra = extraProperties.map { "," + $0 } ?? ""
        return #"{"entity-type":"document","repository":"default","uid":"\#(uid)","path":"\#(path)","type":"\#(type)","#
            + #""state":"project","parentRef":"\#(rootUid)","isCheckedOut":true,"isVersion":false,"isProxy":false,"isTrashed":false,"#
            + #""changeToken":"1-0","title":"\#(title)","lastModified":"\#(lastModified)","facets":\#(facets),"#
            + #""properties":{"dc:title":"\#(title)"\#(extra)}}"#
    }

    /// A `documents` page of `entries` that claims a next page (`isNextPageAvailable`) when `more`.
    public static func page(_ entries: [String], index: Int, pageSize: Int, more: Bool) -> String {
        #"{"entity-type":"documents","isPaginable":true,"resultsCount":-1,"pageSize":\#(pageSize),"maxPageSize":1000,"#
            + #""currentPageSize":\#(entries.count),"currentPageIndex":\#(index),"numberOfPages":-1,"#
            + #""isPreviousPageAvailable":\#(index > 0),"isNextPageAvailable":\#(more),"isLastPageAvailable":false,"#
            + #""entries":[\#(entries.joined(separator: ","))]}"#
    }

    /// A JSON answer.
    public static func json(_ status: Int, _ body: String) -> HostileResponse {
        .complete(status, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
    }
}
