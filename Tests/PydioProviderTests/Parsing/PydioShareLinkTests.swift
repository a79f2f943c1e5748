import Foundation
import ProviderAPI
import PydioProvider
import Testing
import HTTPProviderKit

/// Links read from `load_shared_element_data` recordings: expiry and password (57), neither (31).
@Suite("Pydio share links from the recordings")
struct PydioShareLinkTests {
    typealias R = PydioRecognizers

    @Test("57: a link with an expiry and a password")
    func expiryAndPassword() throws {
        let data = try R.chain(R.json).value(of: PydioFixtures.live("57_share_data_expiry_password"))
        let link = try #require(PydioShareLink.links(in: data).first)
        #expect(link.hash == "e8b5b3" && link.hasPassword && !link.isExpired)
        #expect(link.expireAfterDays == 7 && link.expireTime == "2026/12/01 00:34")
        let expected = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
            year: 2026, month: 12, day: 1, hour: 0, minute: 34).date
        #expect(link.expires == expected)
    }

    @Test("31: a link without expiry or password")
    func plainLink() throws {
        let data = try R.chain(R.json).value(of: PydioFixtures.live("31_share_data"))
        let link = try #require(PydioShareLink.links(in: data).first)
        #expect(link.hash == "471622" && !link.hasPassword && link.expireTime == nil && link.expires == nil)
        #expect(link.expireAfterDays == 0)
    }

    @Test("an unreadable expire_time gives no date, not an error")
    func oddExpiry() throws {
        let data = try JSONValue(json: Data(#"{"links":{"ab12cd":{"hash":"ab12cd","expire_time":"soon","has_password":"1"}}}"#.utf8))
        let link = try #require(PydioShareLink.links(in: data).first)
        #expect(link.expireTime == "soon" && link.expires == nil && link.hasPassword)
    }
}
