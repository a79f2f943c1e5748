import Foundation
import ProviderAPI
import Testing
@testable import NuxeoProvider

@Suite("Nuxeo item mapping") struct NuxeoItemMapperTests {
    let mapper = NuxeoItemMapper()

    func listEntries() throws -> [NuxeoDocument] {
        try NuxeoEntityRegistry.standard.decode(
            NuxeoDocumentList.self, from: try Fixtures.data("php-client/document-list.json")
        ).entries
    }

    @Test("a File: blob size, MIME type, MD5 digest, dates, change token, blob filename as name")
    func file() throws {
        let document = try #require(try listEntries().first { $0.type == "File" })
        #expect(mapper.displayName(of: document) == "document.txt")
        let item = mapper.item(from: document, at: "/MyWorkspace/document.txt")
        #expect(item.id == "bc7b4e34-b002-4f8f-b98c-e6aafa3be5df")
        #expect(item.path == "/MyWorkspace/document.txt")
        #expect(item.name == "document.txt")
        #expect(item.kind == .file)
        #expect(item.size == 11)
        #expect(item.mimeType == "text/plain")
        #expect(item.digests == [.md5: "b10a8db164e0754105b7a99be72e3fe5"])
        #expect(close(item.modified, Fixtures.date(1_444_813_679.85)))  // dc:modified, not lastModified
        #expect(close(item.created, Fixtures.date(1_444_812_791.83)))
        #expect(item.etag == "1444812791000")
        #expect(item.permissions == nil)
        #expect(item.properties["dc:creator"] == "Administrator")
        #expect(item.properties["file:content/digest"] == "b10a8db164e0754105b7a99be72e3fe5")
        #expect(item.properties["file:content/length"] == "11")
        #expect(item.properties["dc:subjects/0"] == "technology/it")
        #expect(item.properties["common:size"] == "11")
        #expect(item.properties["dc:description"] == nil)  // null is left out
        #expect(item.properties["ecm:uuid"] == "bc7b4e34-b002-4f8f-b98c-e6aafa3be5df")
        #expect(item.properties["ecm:primaryType"] == "File")
        #expect(item.properties["ecm:path"] == "/default-domain/workspaces/MyWorkspace/MyFile")
        #expect(item.properties["ecm:currentLifeCycleState"] == "project")
        #expect(item.properties["ecm:isCheckedIn"] == "false")
        #expect(item.properties["ecm:mixinType"] == "Versionable,Publishable,Commentable,HasRelatedText,Thumbnail,Downloadable")
        // with title preference
        #expect(NuxeoItemMapper(prefersBlobFilename: false).displayName(of: document) == "MyFile")
    }

    @Test("a Folderish document: folder, no size, dc:title name, permissions from the enricher")
    func folder() throws {
        let document = try NuxeoEntityRegistry.standard.decode(
            NuxeoDocument.self, from: try Fixtures.data("php-client/document.json"))
        #expect(mapper.displayName(of: document) == "myfile.txt")
        let item = mapper.item(from: document, at: "/myfile.txt")
        #expect(item.kind == .folder)
        #expect(item.size == nil)
        #expect(item.mimeType == nil)
        #expect(item.digests.isEmpty)
        #expect(item.etag == "1444731706120")
        #expect(close(item.modified, Fixtures.date(1_444_731_706.12)))
        #expect(item.permissions == .all)
        #expect(item.properties["custom:complex/name"] == "Guin")
        #expect(item.properties["custom:complex/height"] == "1.456")
        #expect(item.properties["domain:display_type"] == "false")
        #expect(item.properties["ecm:isTrashed"] == "false")
    }

    @Test("the root: no title, falls back to the server title; no dates")
    func root() throws {
        let document = try NuxeoEntityRegistry.standard.decode(
            NuxeoDocument.self, from: try Fixtures.data("php-client/documentRoot.json"))
        #expect(mapper.displayName(of: document) == "a5491fde-cdca-4001-bc91-093343b887f4")
        let item = mapper.item(from: document, at: .root)
        #expect(item.id == "a5491fde-cdca-4001-bc91-093343b887f4")
        #expect(item.kind == .folder)
        #expect(item.modified == nil && item.created == nil && item.etag == nil)
        #expect(item.properties["ecm:parentId"] == "/")
        #expect(item.properties["ecm:currentLifeCycleState"] == nil)
    }

    @Test("a Note without a blob maps to a file named by its title, sized by nothing")
    func note() throws {
        let document = try #require(try listEntries().first { $0.uid == "65a31335-f1fd-42fa-81e2-50a108a0f040" })
        let item = mapper.item(from: document, at: "/MyNote")
        #expect(item.kind == .file)
        #expect(mapper.displayName(of: document) == "MyNote")
        #expect(item.size == nil)
        #expect(item.properties["note:mime_type"] == "text/html")
    }

    @Test("facets decide folders; a document without facets falls back to its type")
    func folderDetection() throws {
        func document(_ body: String) throws -> NuxeoDocument {
            try NuxeoDocument(nuxeoJSON: NuxeoJSON.parse(Data(body.utf8)))
        }
        #expect(try document(#"{"uid":"a","type":"Folder"}"#).isFolderish)
        #expect(try document(#"{"uid":"a","type":"File"}"#).isFolderish == false)
        #expect(try document(#"{"uid":"a","type":"Folder","facets":["Versionable"]}"#).isFolderish == false)
        #expect(try document(#"{"uid":"a","type":"MyContainer","facets":["Folderish"]}"#).isFolderish)
    }

    @Test("digests: algorithm names, inference from length, non-hex and mismatched digests are skipped")
    func digests() {
        let md5 = "b10a8db164e0754105b7a99be72e3fe5"
        let sha256 = String(repeating: "ab", count: 32)
        #expect(NuxeoBlob(digestAlgorithmName: "MD5", digest: md5).verifiableDigest?.algorithm == .md5)
        #expect(NuxeoBlob(digestAlgorithmName: "SHA-256", digest: sha256.uppercased()).verifiableDigest?.algorithm == .sha256)
        #expect(NuxeoBlob(digestAlgorithmName: "SHA-256", digest: sha256.uppercased()).verifiableDigest?.hex == sha256)
        #expect(NuxeoBlob(digestAlgorithmName: "sha256", digest: sha256).verifiableDigest?.algorithm == .sha256)
        #expect(NuxeoBlob(digestAlgorithmName: "SHA-1", digest: String(repeating: "1", count: 40)).verifiableDigest?.algorithm == .sha1)
        #expect(NuxeoBlob(digest: md5).verifiableDigest?.algorithm == .md5)
        #expect(NuxeoBlob(digest: sha256).verifiableDigest?.algorithm == .sha256)
        #expect(NuxeoBlob(digest: String(repeating: "c", count: 128)).verifiableDigest?.algorithm == DigestAlgorithm(rawValue: "sha512"))
        #expect(NuxeoBlob(digest: "notInBinaryStore").verifiableDigest == nil)
        #expect(NuxeoBlob(digest: "abc").verifiableDigest == nil)
        #expect(NuxeoBlob(digestAlgorithmName: "MD5", digest: sha256).verifiableDigest == nil)
        #expect(NuxeoBlob(digestAlgorithmName: "MD5", digest: nil).verifiableDigest == nil)
        #expect(NuxeoBlob(digestAlgorithmName: "Sha_256", digest: sha256).verifiableDigest?.algorithm == .sha256)
        #expect(NuxeoBlob(digestAlgorithmName: "SHA-\u{200B}1", digest: String(repeating: "1", count: 40)).verifiableDigest?.algorithm
            == DigestAlgorithm(rawValue: "sha\u{200B}1"), "a name that is not ASCII goes through Foundation's replace")
        #expect(NuxeoBlob(digest: "b10a8db164e0754105b7a99be72e3fg5").verifiableDigest == nil)
    }

    @Test("display names: the first candidate that can be a path segment, in order (blob name, dc:title, title, path, uid)")
    func displayNameOrder() throws {
        func name(blob: String?, dcTitle: String?, title: String?, path: String?, folder: Bool = false, prefersBlob: Bool = true) throws -> String {
            func json(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "null" }
            let content = blob.map { #""file:content":{"name":\#(json($0)),"length":"1"},"# } ?? ""
            let text = #"""
                {"entity-type":"document","uid":"u-1","type":"\#(folder ? "Folder" : "File")","facets":[\#(folder ? #""Folderish""# : "")],
                "title":\#(json(title)),"path":\#(json(path)),"properties":{\#(content)"dc:title":\#(json(dcTitle))}}
                """#
            let document = try NuxeoEntityRegistry.standard.decode(NuxeoDocument.self, from: Data(text.utf8))
            return NuxeoItemMapper(prefersBlobFilename: prefersBlob).displayName(of: document)
        }
        #expect(try name(blob: "b.txt", dcTitle: "D", title: "T", path: "/w/p") == "b.txt")
        #expect(try name(blob: "b.txt", dcTitle: "D", title: "T", path: "/w/p", prefersBlob: false) == "D")
        #expect(try name(blob: "b.txt", dcTitle: "D", title: "T", path: "/w/p", folder: true) == "D")
        #expect(try name(blob: "a/b", dcTitle: "..", title: "T", path: "/w/p") == "T")
        #expect(try name(blob: "", dcTitle: "Q1/Q2", title: ".", path: "/w/p") == "p")
        #expect(try name(blob: nil, dcTitle: nil, title: nil, path: "/w/p/") == "p")
        #expect(try name(blob: nil, dcTitle: nil, title: "..", path: "/") == "u-1")
        #expect(try name(blob: nil, dcTitle: nil, title: nil, path: nil) == "u-1")
    }

    @Test("permission names map to portable permissions")
    func permissions() {
        #expect(NuxeoItemMapper.permissions(from: ["Read"]) == [.read])
        #expect(NuxeoItemMapper.permissions(from: ["Read", "Write"]) == [.read, .write, .rename])
        #expect(NuxeoItemMapper.permissions(from: ["ReadWrite", "RemoveChildren"]) == [.read, .write, .rename, .createChildren, .delete])
        #expect(NuxeoItemMapper.permissions(from: ["Everything"]) == .all)
        #expect(NuxeoItemMapper.permissions(from: ["Unknown"]) == [])
    }
}
