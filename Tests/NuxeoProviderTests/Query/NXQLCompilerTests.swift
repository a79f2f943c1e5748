import Foundation
import ProviderAPI
import Testing
@testable import NuxeoProvider

@Suite("NXQL compiler") struct NXQLCompilerTests {
    static let prefix = "SELECT * FROM Document WHERE ecm:isProxy = 0 AND ecm:isVersion = 0 AND ecm:isTrashed = 0 AND ecm:mixinType <> 'HiddenInNavigation'"
    static let jan1 = Date(timeIntervalSince1970: 1_704_103_200)  // 2024-01-01T10:00:00Z
    static let feb1 = Date(timeIntervalSince1970: 1_706_781_600.5)  // 2024-02-01T10:00:00.500Z

    struct Case: Sendable, CustomTestStringConvertible {
        let query: Query
        let whereTail: String  // what follows the default filters
        var testDescription: String { whereTail }
    }

    static let cases: [Case] = [
        Case(query: .nameContains("report"), whereTail: #" AND dc:title ILIKE '%report%'"#),
        Case(query: .nameContains("it's"), whereTail: #" AND dc:title ILIKE '%it\'s%'"#),
        Case(query: .nameContains(#"a\b"#), whereTail: #" AND dc:title ILIKE '%a\\\\b%'"#),
        Case(query: .nameContains("50%"), whereTail: #" AND dc:title ILIKE '%50\\%%'"#),
        Case(query: .nameContains("a_b"), whereTail: #" AND dc:title ILIKE '%a\\_b%'"#),
        Case(query: .nameContains("line1\nline2"), whereTail: #" AND dc:title ILIKE '%line1\nline2%'"#),
        Case(query: .nameContains("tab\there\r"), whereTail: #" AND dc:title ILIKE '%tab\there\r%'"#),
        Case(query: .nameContains("Ünïcødé 📄 名前"), whereTail: " AND dc:title ILIKE '%Ünïcødé 📄 名前%'"),
        Case(query: .nameContains("' OR 1=1 --"), whereTail: #" AND dc:title ILIKE '%\' OR 1=1 --%'"#),
        Case(query: .nameContains(#"\'"#), whereTail: #" AND dc:title ILIKE '%\\\\\'%'"#),
        Case(query: .nameContains(""), whereTail: ""),
        Case(query: .fullText("hello worl*"), whereTail: " AND ecm:fulltext = 'hello worl*'"),
        Case(query: .fullText(#"say "hi" it's \o/"#), whereTail: #" AND ecm:fulltext = 'say "hi" it\'s \\o/'"#),
        Case(query: .fullText("  "), whereTail: ""),
        Case(query: .kind(.folder), whereTail: " AND ecm:mixinType = 'Folderish'"),
        Case(query: .kind(.file), whereTail: " AND ecm:mixinType <> 'Folderish'"),
        Case(query: .mimeType("image/*"), whereTail: " AND file:content/mime-type LIKE 'image/%'"),
        Case(query: .mimeType("text/plain"), whereTail: " AND file:content/mime-type = 'text/plain'"),
        Case(query: .mimeType("application/x_y/*"), whereTail: #" AND file:content/mime-type LIKE 'application/x\\_y/%'"#),
        Case(query: .modified(after: jan1, before: nil), whereTail: " AND dc:modified >= TIMESTAMP '2024-01-01T10:00:00.000Z'"),
        Case(query: .modified(after: nil, before: feb1), whereTail: " AND dc:modified < TIMESTAMP '2024-02-01T10:00:00.500Z'"),
        Case(
            query: .modified(after: jan1, before: feb1),
            whereTail: " AND (dc:modified >= TIMESTAMP '2024-01-01T10:00:00.000Z' AND dc:modified < TIMESTAMP '2024-02-01T10:00:00.500Z')"),
        Case(query: .modified(after: nil, before: nil), whereTail: ""),
        Case(query: .size(min: 10, max: nil), whereTail: " AND file:content/length >= 10"),
        Case(query: .size(min: nil, max: 1_048_576), whereTail: " AND file:content/length <= 1048576"),
        Case(query: .size(min: 0, max: 5), whereTail: " AND (file:content/length >= 0 AND file:content/length <= 5)"),
        Case(query: .size(min: nil, max: nil), whereTail: ""),
        Case(query: .under(.root), whereTail: " AND ecm:path STARTSWITH '/'"),
        Case(query: .under("/a b/it's"), whereTail: #" AND ecm:path STARTSWITH '/a b/it\'s'"#),
        Case(
            query: .and([.nameContains("x"), .kind(.file)]),
            whereTail: " AND (dc:title ILIKE '%x%' AND ecm:mixinType <> 'Folderish')"),
        Case(
            query: .or([.mimeType("image/*"), .mimeType("video/*")]),
            whereTail: " AND (file:content/mime-type LIKE 'image/%' OR file:content/mime-type LIKE 'video/%')"),
        Case(query: .not(.kind(.folder)), whereTail: " AND NOT (ecm:mixinType = 'Folderish')"),
        Case(
            query: .and([.or([.nameContains("a"), .nameContains("b")]), .not(.or([.kind(.folder), .size(min: 1, max: 2)]))]),
            whereTail: " AND ((dc:title ILIKE '%a%' OR dc:title ILIKE '%b%') AND NOT (ecm:mixinType = 'Folderish' OR (file:content/length >= 1 AND file:content/length <= 2)))"),
        Case(query: .and([.kind(.file)]), whereTail: " AND ecm:mixinType <> 'Folderish'"),
        Case(query: .and([]), whereTail: ""),
        Case(query: .and([.nameContains(""), .kind(.folder)]), whereTail: " AND ecm:mixinType = 'Folderish'"),
        Case(query: .or([]), whereTail: " AND ecm:mixinType = 'Folderish' AND ecm:mixinType <> 'Folderish'"),
        Case(query: .or([.kind(.file), .and([])]), whereTail: ""),
        Case(query: .not(.and([])), whereTail: " AND ecm:mixinType = 'Folderish' AND ecm:mixinType <> 'Folderish'"),
        Case(query: .and([.kind(.file), .or([])]), whereTail: " AND ecm:mixinType = 'Folderish' AND ecm:mixinType <> 'Folderish'"),
        Case(
            query: .and([.native("dc:creator = 'bob'"), .kind(.file)]),
            whereTail: " AND ((dc:creator = 'bob') AND ecm:mixinType <> 'Folderish')"),
    ]

    @Test("portable queries compile to exact NXQL", arguments: cases)
    func compiles(testCase: Case) throws {
        #expect(try NXQLCompiler().compile(testCase.query) == Self.prefix + testCase.whereTail)
    }

    @Test("a top-level native query passes through untouched, without filters or ORDER BY")
    func nativePassThrough() throws {
        let nxql = "SELECT * FROM Note WHERE ecm:fulltext = 'C++' AND dc:title LIKE 'x%'\n"
        #expect(try NXQLCompiler().compile(.native(nxql), sort: [SortKey(.name)]) == nxql)
    }

    @Test("a whole statement nested in a query is invalidArgument")
    func nestedStatement() {
        do {
            _ = try NXQLCompiler().compile(.and([.kind(.file), .native("  select * from Document")]))
            Issue.record("compiled a nested SELECT")
        } catch let error as ProviderError {
            #expect(error.code == .invalidArgument)
        } catch {
            Issue.record("not a ProviderError: \(error)")
        }
    }

    @Test("ORDER BY from sort keys")
    func orderBy() throws {
        let nxql = try NXQLCompiler().compile(
            .kind(.file), sort: [SortKey(.name), SortKey(.modified, ascending: false), SortKey(.size)])
        #expect(nxql == Self.prefix + " AND ecm:mixinType <> 'Folderish' ORDER BY dc:title ASC, dc:modified DESC, file:content/length ASC")
        #expect(NXQLCompiler().orderBy([]) == nil)
    }

    @Test("options: lifecycle trash, no default filters, another type, ancestor ids")
    func options() throws {
        let legacy = NXQLCompiler(options: .init(trashFilter: .lifeCycleState, excludesProxies: false, excludesHiddenInNavigation: false))
        #expect(try legacy.compile(.kind(.folder)) == "SELECT * FROM Document WHERE ecm:isVersion = 0 AND ecm:currentLifeCycleState <> 'deleted' AND ecm:mixinType = 'Folderish'")

        let bare = NXQLCompiler(options: .init(
            documentType: "File", trashFilter: .none, excludesProxies: false, excludesVersions: false,
            excludesHiddenInNavigation: false))
        #expect(try bare.compile(.and([])) == "SELECT * FROM File")
        #expect(try bare.compile(.or([.kind(.file), .kind(.folder)])) == "SELECT * FROM File WHERE ecm:mixinType <> 'Folderish' OR ecm:mixinType = 'Folderish'")
        #expect(try bare.predicate(.and([])) == nil)


        let rooted = NXQLCompiler(options: .init(resolveLocation: { path in
            path.isRoot ? .ancestorId("root-uid") : .path("/default-domain/workspaces/ws" + path.description)
        }))
        #expect(try rooted.predicate(.under(.root)) == "ecm:ancestorId = 'root-uid'")
        #expect(try rooted.predicate(.under("/a/b")) == "ecm:path STARTSWITH '/default-domain/workspaces/ws/a/b'")

        let failing = NXQLCompiler(options: .init(resolveLocation: { _ in throw ProviderError(.notFound, "no such folder") }))
        #expect(throws: ProviderError.self) { try failing.compile(.under("/x")) }
    }

    @Test("literals escape backslash first, then quote, newline, CR and tab; quotes are never doubled")
    func literals() {
        #expect(NXQLCompiler.literal("") == "''")
        #expect(NXQLCompiler.literal(#"\'"#) == #"'\\\''"#)
        #expect(NXQLCompiler.literal("a\r\n\tb") == #"'a\r\n\tb'"#)
        #expect(!NXQLCompiler.literal("it's").contains("''"))
        #expect(NXQLCompiler.likeEscaped(#"%_\x"#) == #"\%\_\\x"#)
        #expect(NXQLCompiler.timestamp(Self.jan1) == "TIMESTAMP '2024-01-01T10:00:00.000Z'")
        #expect(NXQLCompiler.timestamp(Date(timeIntervalSince1970: 0.999_6)) == "TIMESTAMP '1970-01-01T00:00:01.000Z'")
        #expect(NXQLCompiler.timestamp(Date(timeIntervalSince1970: -0.25)) == "TIMESTAMP '1969-12-31T23:59:59.750Z'")
    }
}
