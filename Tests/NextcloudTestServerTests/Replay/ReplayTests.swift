import Foundation
import Testing
@testable import NextcloudTestServer

/// Every recorded response the server reproduces, compared after normalising volatile values:
/// status, Content-Type, element/key structure and order, and values.
@Suite("Replay of the ownCloud/Nextcloud recordings")
struct ReplayTests {
    static var cases: [ReplayCase] { DAVReplayCases.all + OCSReplayCases.all }
    static var names: [String] { cases.map(\.fixture) }

    @Test("the server answers like the recording", arguments: names)
    func replay(_ fixture: String) async throws {
        let replay = try #require(Self.cases.first { $0.fixture == fixture })
        try await withServer(replay.configuration) { server, client in
            let response = try await replay.act(server, client)
            #expect(response.status == replay.status, "\(fixture): status \(response.status)\n\(response.text)")
            let type = (response.header("Content-Type") ?? "").split(separator: ";").first.map { $0.lowercased() } ?? ""
            #expect(type == replay.contentType.lowercased(), "\(fixture): Content-Type \(type)")
            let recorded: Shape
            let answered: Shape
            switch replay.kind {
            case .xml:
                recorded = try Shape.xml(try Fixtures.data(fixture), volatile: replay.volatile, ignored: replay.ignored, maxChildren: replay.maxChildren)
                answered = try Shape.xml(response.body, volatile: replay.volatile, ignored: replay.ignored, maxChildren: replay.maxChildren)
            case .loggedXML:
                recorded = try Shape.xml(Data(try Fixtures.httpBody(fixture).utf8), volatile: replay.volatile, ignored: replay.ignored)
                answered = try Shape.xml(response.body, volatile: replay.volatile, ignored: replay.ignored)
            case .json:
                recorded = try Shape.json(try Fixtures.data(fixture), volatile: replay.volatile, ignored: replay.ignored)
                answered = try Shape.json(response.body, volatile: replay.volatile, ignored: replay.ignored)
            }
            #expect(answered == recorded, "\(fixture): \(answered.difference(from: recorded) ?? "")\n--- server:\n\(response.text.prefix(3000))")
        }
    }
}
