import Foundation
import ProviderAPI
import HTTPProviderKit

/// The Nuxeo REST endpoints the adapter calls, described as data (`RequestTemplate`s).
///
/// This is the Swift form of Nemo Connect's property-list web services: each plain REST call
/// of the adapter is a template here, and ``NuxeoClient`` runs them by name. An app can pass a
/// changed catalog to ``NuxeoClient`` (for a proxy that renames paths, say) without touching code,
/// and a new JSON-REST adapter can start from a copy of this file and a few decoders.
///
/// Placeholders used by the client: `path`, `uid`, `parent`, `page`, `pageSize`, `query`,
/// `sortBy`, `sortOrder`, `document`, `operation`, `input`, `params`, `context`, `batch`,
/// `index`, `xpath`, `enrichers`, `properties`, and the token servlet's `application`,
/// `device`, `deviceDescription`, `permission`.
package enum NuxeoEndpoints {
    /// The template names the client needs; ``catalog(json:)`` checks a catalog has all of them.
    package static let requiredNames: Set<String> = [
        "documentByPath", "documentById", "children", "createDocument", "updateDocument", "deleteDocument",
        "search", "automation", "batchCreate", "batchFileStatus", "batchDelete", "batchExecute",
        "tokenAcquire", "tokenRevoke", "me", "batchUpload", "blob", "pageProvider",
    ]

    /// The built-in catalog.
    package static func standard() throws -> RequestTemplateCatalog {
        try catalog(json: Data(json.utf8))
    }

    /// A catalog read from JSON, checked to hold every template in ``requiredNames``.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for malformed JSON or a missing template.
    package static func catalog(json data: Data) throws -> RequestTemplateCatalog {
        let catalog = try RequestTemplateCatalog(json: data)
        let missing = requiredNames.subtracting(catalog.names)
        if !missing.isEmpty {
            throw ProviderError(.invalidArgument, "the Nuxeo endpoint catalog lacks \(missing.sorted().joined(separator: ", "))")
        }
        return catalog
    }

    /// The built-in catalog's JSON text.
    package static let json = #"""
        {
          "templates": {
            "documentByPath": {
              "method": "GET", "path": "/api/v1/path{path*}",
              "headers": [["enrichers-document", "{enrichers?}"], ["properties", "{properties?}"]],
              "decoder": "document"
            },
            "documentById": {
              "method": "GET", "path": "/api/v1/id/{uid}",
              "headers": [["enrichers-document", "{enrichers?}"], ["properties", "{properties?}"]],
              "decoder": "document"
            },
            "children": {
              "method": "GET", "path": "/api/v1/id/{uid}/@children",
              "query": [["currentPageIndex", "{page}"], ["pageSize", "{pageSize}"]],
              "headers": [["enrichers-document", "{enrichers?}"], ["properties", "{properties?}"]],
              "decoder": "documents"
            },
            "createDocument": {
              "method": "POST", "path": "/api/v1/id/{parent}",
              "headers": [["enrichers-document", "{enrichers?}"]],
              "body": {"json": "{document}"},
              "expectedStatuses": [200, 201], "decoder": "document"
            },
            "updateDocument": {
              "method": "PUT", "path": "/api/v1/id/{uid}",
              "headers": [["enrichers-document", "{enrichers?}"]],
              "body": {"json": "{document}"},
              "expectedStatuses": [200], "decoder": "document"
            },
            "deleteDocument": {
              "method": "DELETE", "path": "/api/v1/id/{uid}",
              "expectedStatuses": [200, 204], "decoder": "none"
            },
            "search": {
              "method": "GET", "path": "/api/v1/search/execute",
              "query": [["query", "{query}"], ["pageSize", "{pageSize}"], ["currentPageIndex", "{page}"],
                        ["sortBy", "{sortBy?}"], ["sortOrder", "{sortOrder?}"]],
              "headers": [["enrichers-document", "{enrichers?}"], ["properties", "{properties?}"]],
              "decoder": "documents"
            },
            "pageProvider": {
              "method": "GET", "path": "/api/v1/search/pp/{provider}/execute",
              "query": [["queryParams", "{queryParams?}"], ["pageSize", "{pageSize}"], ["currentPageIndex", "{page}"],
                        ["sortBy", "{sortBy?}"], ["sortOrder", "{sortOrder?}"]],
              "headers": [["enrichers-document", "{enrichers?}"], ["properties", "{properties?}"]],
              "decoder": "documents"
            },
            "automation": {
              "method": "POST", "path": "/api/v1/automation/{operation}",
              "headers": [["enrichers-document", "{enrichers?}"]],
              "body": {"json": {"input": "{input?}", "params": "{params}", "context": "{context}"}},
              "expectedStatuses": [200, 201, 204], "isIdempotent": false, "decoder": "raw"
            },
            "batchCreate": {
              "method": "POST", "path": "/api/v1/upload/",
              "expectedStatuses": [200, 201], "isIdempotent": true, "decoder": "json"
            },
            "batchUpload": {
              "method": "POST", "path": "/api/v1/upload/{batch}/{index}",
              "headers": [["Content-Type", "application/octet-stream"], ["X-File-Name", "{fileName}"],
                          ["X-File-Type", "{fileType}"], ["X-File-Size", "{fileSize}"],
                          ["X-Upload-Type", "{uploadType?}"], ["X-Upload-Chunk-Index", "{chunkIndex?}"],
                          ["X-Upload-Chunk-Count", "{chunkCount?}"], ["Cache-Control", "no-cache"]],
              "expectedStatuses": [200, 201, 202], "isIdempotent": true, "decoder": "json"
            },
            "blob": {
              "method": "GET", "path": "/api/v1/id/{uid}/@blob/{xpath*}",
              "expectedStatuses": [200, 206, 304], "decoder": "raw"
            },
            "batchFileStatus": {
              "method": "GET", "path": "/api/v1/upload/{batch}/{index}",
              "expectedStatuses": [200, 202], "decoder": "json"
            },
            "batchDelete": {
              "method": "DELETE", "path": "/api/v1/upload/{batch}",
              "expectedStatuses": [200, 204], "decoder": "none"
            },
            "batchExecute": {
              "method": "POST", "path": "/api/v1/upload/{batch}/{index}/execute/{operation}",
              "body": {"json": {"params": "{params}", "context": "{context}"}},
              "expectedStatuses": [200, 201, 204], "isIdempotent": false, "decoder": "raw"
            },
            "tokenAcquire": {
              "method": "GET", "path": "/authentication/token",
              "query": [["applicationName", "{application}"], ["deviceId", "{device}"],
                        ["deviceDescription", "{deviceDescription?}"], ["permission", "{permission}"]],
              "headers": [["Accept", "text/plain"]],
              "expectedStatuses": [201], "decoder": "raw", "carriesCredentials": true
            },
            "tokenRevoke": {
              "method": "GET", "path": "/authentication/token",
              "query": [["applicationName", "{application}"], ["deviceId", "{device}"], ["revoke", "true"]],
              "headers": [["Accept", "text/plain"]],
              "expectedStatuses": [200, 202], "decoder": "none"
            },
            "me": {
              "method": "GET", "path": "/api/v1/me",
              "decoder": "user"
            }
          }
        }
        """#
}
