import Foundation
import NIOHTTP1
import ProviderAPI
import PydioProvider
import Testing
import HTTPProviderKit

/// Times and sizes out of range in an `ls` answer, on the recorded `23_ls_dir` listing.
@Suite("Pydio nodes: out-of-range times and sizes")
struct PydioNumberTests {
    typealias R = PydioRecognizers

    /// The recorded listing with the first `attribute="…"` of `hello.txt`'s element replaced by `value`.
    private func listing(_ attribute: String, _ value: String) throws -> RecognizableAnswer {
        let text = String(decoding: try PydioFixtures.data("live-8.2.5/23_ls_dir.body"), as: UTF8.self)
        let marker = try #require(text.range(of: "filename=\"/fixtures/hello.txt\""))
        let element = text[..<marker.lowerBound].range(of: "<tree", options: .backwards).map(\.lowerBound) ?? marker.lowerBound
        let end = try #require(text[element...].firstIndex(of: ">"))
        var tag = String(text[element...end])
        let pattern = try NSRegularExpression(pattern: "\(attribute)=\"[^\"]*\"")
        tag = pattern.stringByReplacingMatches(
            in: tag, range: NSRange(tag.startIndex..., in: tag), withTemplate: "\(attribute)=\"\(value)\"")
        #expect(tag.contains("\(attribute)=\"\(value)\""))
        let body = text.replacingCharacters(in: element...end, with: tag)
        return RecognizableAnswer(status: 200, headers: ["Content-Type": "text/xml; charset=UTF-8"], body: Data(body.utf8), request: "ls")
    }

    @Test("the recording itself reads, with its times")
    func recording() throws {
        let dir = try R.chain(R.listing).value(of: PydioFixtures.live("23_ls_dir"))
        let hello = try #require(dir.children.first { $0.path == "/fixtures/hello.txt" })
        #expect(hello.modified == Date(timeIntervalSince1970: try #require(Double(hello.attributes["ajxp_modiftime"] ?? ""))))
    }

    @Test("a modification time that is not finite or out of range makes the listing invalid", arguments: [
        "inf", "-inf", "nan", "infinity", "1e300", "-1e300", "1e19", "99999999999999999999", "253402300800",
    ])
    func badTimes(_ value: String) throws {
        let answer = try listing("ajxp_modiftime", value)
        do {
            _ = try R.chain(R.listing).value(of: answer)
            Issue.record("\(value) was accepted")
        } catch let error as ProviderError {
            #expect(error.code == .invalidResponse, "\(error)")
            #expect(error.message?.contains("ajxp_modiftime") == true, "\(error)")
        }
    }

    @Test("a modification time that is no number at all is unknown, as before", arguments: ["", "yesterday"])
    func unknownTimes(_ value: String) throws {
        let dir = try R.chain(R.listing).value(of: try listing("ajxp_modiftime", value))
        #expect(try #require(dir.children.first { $0.path == "/fixtures/hello.txt" }).modified == nil)
    }

    @Test("a size that is negative or overflows makes the listing invalid", arguments: [
        "-1", "-9223372036854775808", "9223372036854775808", "99999999999999999999999", "1e30", "12.5",
    ])
    func badSizes(_ value: String) throws {
        let answer = try listing("bytesize", value)
        #expect(throws: ProviderError.self) { _ = try R.chain(R.listing).value(of: answer) }
    }

    @Test("the largest size and a size that is no number read as before")
    func sizes() throws {
        let big = try R.chain(R.listing).value(of: try listing("bytesize", "9223372036854775807"))
        #expect(big.children.first { $0.path == "/fixtures/hello.txt" }?.size == Int64.max)
        let none = try R.chain(R.listing).value(of: try listing("bytesize", "n/a"))
        #expect(none.children.first { $0.path == "/fixtures/hello.txt" }?.size == nil)
    }

    @Test("a pagination count below 0 or not a number says nothing: the page's entries stand in (recording 90)", arguments: ["-5", "x", "1e3", ""])
    func badPaginationCount(_ value: String) throws {
        let text = String(decoding: try PydioFixtures.data("live-8.2.5/90_ls_paginated_page2.body"), as: UTF8.self)
        #expect(text.contains("count=\"510\""))
        let body = text.replacingOccurrences(of: "count=\"510\"", with: "count=\"\(value)\"")
        let answer = RecognizableAnswer(status: 200, headers: ["Content-Type": "text/xml; charset=UTF-8"], body: Data(body.utf8), request: "ls")
        let listing = try R.chain(R.listing).value(of: answer)
        let page = try #require(listing.page)
        #expect(page.count == listing.children.count)
        #expect(page.current == 2 && page.total == 3)
        let recorded = try R.chain(R.listing).value(of: PydioFixtures.live("90_ls_paginated_page2"))
        #expect(recorded.page?.count == 510)
    }
}
