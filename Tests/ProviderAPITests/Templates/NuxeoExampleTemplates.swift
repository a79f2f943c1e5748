import Foundation

/// An example template file: a few Nuxeo REST endpoints described as data, the way an adapter would ship them.
let nuxeoExampleTemplates = #"""
    {
      "templates": {
        "documentByPath": {
          "method": "GET",
          "path": "/api/v1/path{path*}",
          "headers": [["Accept", "application/json"], ["properties", "{schemas?}"], ["X-NXRepository", "{repository?}"]],
          "decoder": "document"
        },
        "children": {
          "path": "/api/v1/id/{uid}/@children?currentPageIndex={page}&pageSize={pageSize?}",
          "query": [{"name": "sortBy", "value": "{sortBy?}"}],
          "headers": {"Accept": "application/json", "properties": "{schemas?}"},
          "decoder": "json"
        },
        "automation": {
          "method": "POST",
          "path": "/api/v1/automation/{operation}",
          "headers": [["Accept", "application/json"]],
          "body": {"json": {"input": "{input?}", "params": "{params}", "context": {}}},
          "contentType": "application/json+nxrequest",
          "expectedStatuses": [200, 204],
          "timeout": 60,
          "decoder": "json"
        },
        "deleteDocument": {
          "method": "DELETE",
          "path": "/api/v1/id/{uid}",
          "expectedStatuses": [204],
          "decoder": "none"
        }
      }
    }
    """#
