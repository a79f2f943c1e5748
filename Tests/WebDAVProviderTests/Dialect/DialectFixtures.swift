import Foundation
import ProviderAPI
import Testing

@testable import WebDAVProvider

/// The dialect's parsing tests, grouped so that `swift test --filter WebDAVProviderTests.Dialect` runs them all.
@Suite("ownCloud/Nextcloud dialect parsing") enum Dialect {}

/// Items from a recorded multistatus, read as a provider with the dialect reads them.
func dialectItems(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Item] {
    let responses = try MultistatusParser.parse(try Fixtures.data(name, sourceLocation: sourceLocation))
    var items: [String: Item] = [:]
    for response in responses {
        let segments = try DAVPathMapper.decodeSegments(response.href)
        let path = try ItemPath(segments: Array(segments.dropFirst(min(segments.count, 4))))
        let plain = DAVItemMapper.item(path: path, properties: response.found)
        items[segments.last ?? ""] = OwnCloudProperties.refine(plain, properties: response.found)
    }
    return items
}

/// The body of an ownCloud iOS SDK log block (`.http`): everything after the first blank line.
func httpBody(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
    let text = String(decoding: try Fixtures.data(name, sourceLocation: sourceLocation), as: UTF8.self)
    let range = try #require(text.range(of: "\n\n"), "no blank line in \(name)", sourceLocation: sourceLocation)
    return Data(text[range.upperBound...].utf8)
}

/// A share mapper path function for a provider rooted at the user's home.
func homePaths(_ text: String) throws -> ItemPath? { try ItemPath(text) }
