import Foundation
import NuxeoProvider
import ProviderAPI
import HTTPProviderKit

/// The Nuxeo side: entity decoding, item mapping, Drive change summaries and error bodies.
public enum NuxeoFuzzTargets {
    /// A JSON answer through the standard entity registry (documents mapped to items as a listing
    /// does), as a typed document, as a Drive change summary, and as an error body.
    public static func nuxeo(_ data: Data) -> FuzzOutcome {
        var outcomes: [FuzzOutcome] = []
        var json: JSONValue?
        outcomes.append(FuzzOutcome.of { json = try NuxeoJSON.parse(data) })
        guard let json else { return outcomes[0] }
        let mapper = NuxeoItemMapper()
        func map(_ document: NuxeoDocument) {
            let item = mapper.item(from: document, at: ItemPath.root)
            _ = item.modified?.timeIntervalSince1970
            _ = mapper.flattenedProperties(of: document)
        }
        outcomes.append(FuzzOutcome.of {
            switch try NuxeoEntityRegistry.standard.decode(json: json) {
            case .document(let document): map(document)
            case .documents(let list):
                _ = list.hasNextPage
                _ = list.knownResultsCount
                list.entries.forEach(map)
            case .exception(let exception): _ = NuxeoErrorMapper.error(status: exception.status ?? 500, exception: exception)
            default: break
            }
        })
        outcomes.append(FuzzOutcome.of { map(try NuxeoEntityRegistry.standard.decode(NuxeoDocument.self, from: data)) })
        outcomes.append(FuzzOutcome.of {
            let summary = try NuxeoDriveChangeSummary(json: json)
            _ = summary.synchronizationRoots
            _ = summary.changesNewestFirst
        })
        _ = NuxeoErrorMapper.error(status: 500, body: data, request: "GET /nuxeo/api/v1/path/")
        return FuzzOutcome.combined(outcomes)
    }
}
