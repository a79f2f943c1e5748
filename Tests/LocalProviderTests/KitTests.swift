import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI
import ProviderKit
import Testing

@Suite("ProviderKit: download plans")
struct DownloadPlanTests {
    let item = Item(path: "/f.bin", kind: .file, size: 100, etag: "\"v1\"")

    @Test("a plain download reads the whole file as a body of its own")
    func whole() throws {
        let plan = try DownloadPlan(options: DownloadOptions(), item: item, resumePoint: nil)
        #expect(plan.start == 0 && plan.end == 100 && !plan.continuesSink && plan.coversWholeFile && plan.sinkOffset == 0)
    }

    @Test("ranges are clipped to the content, and a range past the end or negative is invalidArgument")
    func ranges() throws {
        func bounds(_ range: ByteRange) throws -> (Int64, Int64) {
            let plan = try DownloadPlan(options: DownloadOptions(range: range), item: item, resumePoint: nil)
            #expect(plan.sinkOffset == 0)
            return (plan.start, plan.end)
        }
        #expect(try bounds(.bytes(10...19)) == (10, 20))
        #expect(try bounds(.bytes(90...500)) == (90, 100))
        #expect(try bounds(.from(99)) == (99, 100))
        #expect(try bounds(.suffix(30)) == (70, 100))
        #expect(try bounds(.suffix(500)) == (0, 100))
        for range in [ByteRange.from(100), .bytes(100...120), .from(-1), .suffix(0)] {
            #expect(throws: ProviderError.self) { try bounds(range) }
            do { _ = try bounds(range) } catch let error as ProviderError { #expect(error.code == .invalidArgument) }
        }
    }

    @Test("resume continues what the sink holds only while its validator is the item's etag, else starts over")
    func resume() throws {
        let options = DownloadOptions(resume: true)
        let same = try DownloadPlan(options: options, item: item, resumePoint: ResumePoint(length: 40, validator: "\"v1\""))
        #expect(same.start == 40 && same.end == 100 && same.continuesSink && same.sinkOffset == 40 && !same.coversWholeFile)
        // Bytes of unknown origin are never continued: a file rewritten at the same size would be spliced.
        let unknown = try DownloadPlan(options: options, item: item, resumePoint: ResumePoint(length: 40, validator: nil))
        #expect(unknown.start == 0 && !unknown.continuesSink && unknown.coversWholeFile)
        let untagged = try DownloadPlan(
            options: options, item: Item(path: "/f.bin", kind: .file, size: 100), resumePoint: ResumePoint(length: 40, validator: "\"v1\""))
        #expect(untagged.start == 0 && !untagged.continuesSink)
        let changed = try DownloadPlan(options: options, item: item, resumePoint: ResumePoint(length: 40, validator: "\"v0\""))
        #expect(changed.start == 0 && !changed.continuesSink)
        let complete = try DownloadPlan(options: options, item: item, resumePoint: ResumePoint(length: 100, validator: "\"v1\""))
        #expect(complete.length == 0 && complete.sinkOffset == 100)
        let completeUnknown = try DownloadPlan(options: options, item: item, resumePoint: ResumePoint(length: 100, validator: nil))
        #expect(completeUnknown.start == 0 && completeUnknown.length == 100)
        let notAsked = try DownloadPlan(options: DownloadOptions(), item: item, resumePoint: ResumePoint(length: 40, validator: "\"v1\""))
        #expect(notAsked.start == 0)
        #expect { try DownloadPlan(options: options, item: item, resumePoint: ResumePoint(length: 101, validator: "\"v1\"")) } throws: { error in
            (error as? ProviderError)?.code == .conflict
        }
    }

    @Test("ifMatch and ifNoneMatch against the item's etag")
    func preconditions() throws {
        #expect { try DownloadPlan(options: DownloadOptions(ifMatch: "\"v0\""), item: item, resumePoint: nil) } throws: { error in
            (error as? ProviderError)?.code == .preconditionFailed
        }
        #expect(try DownloadPlan(options: DownloadOptions(ifMatch: "\"v1\""), item: item, resumePoint: nil).length == 100)
        #expect(try DownloadPlan(options: DownloadOptions(ifNoneMatch: "\"v1\""), item: item, resumePoint: nil).notModified)
        #expect(try !DownloadPlan(options: DownloadOptions(ifNoneMatch: "\"v0\""), item: item, resumePoint: nil).notModified)
    }
}

@Suite("ProviderKit: the download driver")
struct DownloadDriverTests {
    static func body(_ pieces: [[UInt8]]) -> AsyncStream<ByteBuffer> {
        AsyncStream { continuation in
            for piece in pieces { continuation.yield(ByteBuffer(bytes: piece)) }
            continuation.finish()
        }
    }

    @Test("writes the body, reports progress and finishes the sink")
    func writes() async throws {
        let item = Item(path: "/f", kind: .file, size: 6, digests: [.md5: Digester.hex(.md5, of: Array("abcdef".utf8)) ?? ""])
        let plan = try DownloadPlan(options: DownloadOptions(), item: item, resumePoint: nil)
        let seen = Seen()
        let options = DownloadOptions(progress: { progress in seen.add(progress.completed) })
        let sink = MemorySink()
        let result = try await DownloadDriver(plan: plan, item: item, options: options).run(Self.body([Array("abc".utf8), Array("def".utf8)]), into: sink)
        #expect(await sink.bytes == Array("abcdef".utf8))
        #expect(await sink.isFinished)
        #expect(result.bytesReceived == 6 && result.offset == 0)
        #expect(seen.values == [0, 3, 6])
    }

    @Test("a short body is network, a long one and a wrong digest integrity, and the sink never finishes")
    func refuses() async throws {
        let item = Item(path: "/f", kind: .file, size: 4, digests: [.sha256: String(repeating: "0", count: 64)])
        let plan = try DownloadPlan(options: DownloadOptions(), item: item, resumePoint: nil)
        for (pieces, code) in [([[UInt8](repeating: 1, count: 3)], ProviderError.Code.network), ([[1, 2, 3, 4, 5]], .integrity), ([[1, 2, 3, 4]], .integrity)] {
            let sink = MemorySink()
            await #expect { try await DownloadDriver(plan: plan, item: item, options: DownloadOptions()).run(Self.body(pieces), into: sink) } throws: { error in
                (error as? ProviderError)?.code == code
            }
            #expect(await !sink.isFinished)
        }
    }

    @Test("notModified leaves the sink alone")
    func notModified() async throws {
        let item = Item(path: "/f", kind: .file, size: 4, etag: "e")
        let plan = try DownloadPlan(options: DownloadOptions(ifNoneMatch: "e"), item: item, resumePoint: nil)
        let result = try await DownloadDriver(plan: plan, item: item, options: DownloadOptions()).run(Self.body([[9]]), into: MemorySink())
        #expect(result.notModified && result.bytesReceived == 0)
    }
}

/// Collects progress values from a `@Sendable` handler.
final class Seen: Sendable {
    private let box = NIOLockedValueBox<[Int64]>([])
    func add(_ value: Int64) { box.withLockedValue { $0.append(value) } }
    var values: [Int64] { box.withLockedValue { $0 } }
}

@Suite("ProviderKit: upload placement and conflict names")
struct UploadPlacementTests {
    let file = Item(path: "/a.txt", kind: .file, etag: "e1")

    @Test("conflict names put the number before the extension")
    func names() {
        #expect(ConflictNames.candidate("a.txt", attempt: 0) == "a.txt")
        #expect(ConflictNames.candidate("a.txt", attempt: 2) == "a (2).txt")
        #expect(ConflictNames.candidate(".profile", attempt: 1) == ".profile (1)")
        #expect(ConflictNames.candidate("archive.tar.gz", attempt: 1) == "archive.tar (1).gz")
        #expect(ConflictNames.firstFree("a.txt", attempts: 1..<5) { ["a (1).txt", "a (2).txt"].contains($0) } == "a (3).txt")
        #expect(ConflictNames.firstFree("a.txt", attempts: 1..<3) { _ in true } == nil)
    }

    @Test("the rules for one name")
    func decide() throws {
        func code(_ existing: Item?, _ options: UploadOptions) -> ProviderError.Code? {
            do { _ = try UploadPlacement.decide(existing: existing, options: options, path: "/a.txt") } catch let error as ProviderError {
                return error.code
            } catch { return nil }
            return nil
        }
        #expect(try UploadPlacement.decide(existing: nil, options: UploadOptions(conflict: .fail), path: "/a.txt") == .exclusive)
        #expect(try UploadPlacement.decide(existing: nil, options: UploadOptions(conflict: .overwrite), path: "/a.txt") == .replace)
        #expect(try UploadPlacement.decide(existing: file, options: UploadOptions(conflict: .overwrite), path: "/a.txt") == .replace)
        #expect(try UploadPlacement.decide(existing: file, options: UploadOptions(conflict: .rename), path: "/a.txt") == nil)
        #expect(try UploadPlacement.decide(existing: file, options: UploadOptions(conflict: .fail, ifMatch: "e1"), path: "/a.txt") == .replace)
        #expect(code(file, UploadOptions(conflict: .fail)) == .alreadyExists)
        #expect(code(file, UploadOptions(ifMatch: "e0")) == .preconditionFailed)
        #expect(code(nil, UploadOptions(ifMatch: "e1")) == .preconditionFailed)
        #expect(code(Item(path: "/a.txt", kind: .folder), UploadOptions(conflict: .overwrite)) == .alreadyExists)
    }

    @Test("rename tries the next name, also when an exclusive write loses a race")
    func place() async throws {
        let taken: Set<String> = ["a.txt", "a (1).txt"]
        let raced = "a (2).txt"
        let placed = try await UploadPlacement.place(
            "a.txt", options: UploadOptions(conflict: .rename),
            existing: { taken.contains($0) ? Item(path: try ItemPath.root.appending($0), kind: .file) : nil },
            write: { name, placement -> String in
                #expect(placement == .exclusive)
                if name == raced { throw ProviderError(.alreadyExists, "raced") }
                return name
            })
        #expect(placed == "a (3).txt")
    }

    @Test("ifMatch compares etags weakly: a server's W/\"e1\" and \"e1\" are one version")
    func weakETags() throws {
        let weak = Item(path: "/a.txt", kind: .file, etag: "W/\"e1\"")
        #expect(try UploadPlacement.decide(existing: weak, options: UploadOptions(ifMatch: "\"e1\""), path: "/a.txt") == .replace)
        #expect(try UploadPlacement.decide(existing: file, options: UploadOptions(ifMatch: "W/e1"), path: "/a.txt") == .replace)
        #expect { try UploadPlacement.decide(existing: weak, options: UploadOptions(ifMatch: "\"e2\""), path: "/a.txt") } throws: { error in
            (error as? ProviderError)?.code == .preconditionFailed
        }
        #expect { try UploadPlacement.decide(existing: Item(path: "/d", kind: .folder), options: UploadOptions(), path: "/d", folderTaken: .conflict) } throws: { error in
            (error as? ProviderError)?.code == .conflict
        }
    }

    @Test("a write that keeps the rules itself is not preceded by a look at the name")
    func unseen() async throws {
        let all: UploadPlacement.WriteChecks = [.exclusive, .ifMatch, .folders]
        #expect(UploadPlacement.unseen(options: UploadOptions(conflict: .overwrite), checks: all) == .replace)
        #expect(UploadPlacement.unseen(options: UploadOptions(conflict: .fail), checks: all) == .exclusive)
        #expect(UploadPlacement.unseen(options: UploadOptions(conflict: .fail, ifMatch: "e1"), checks: all) == .replace)
        #expect(UploadPlacement.unseen(options: UploadOptions(conflict: .overwrite, ifMatch: "e1"), checks: [.folders]) == nil)
        #expect(UploadPlacement.unseen(options: UploadOptions(conflict: .overwrite), checks: [.exclusive, .ifMatch]) == nil)
        #expect(UploadPlacement.unseen(options: UploadOptions(conflict: .fail), checks: [.ifMatch, .folders]) == nil)
        #expect(UploadPlacement.unseen(options: UploadOptions(conflict: .rename), checks: [.renames]) == .exclusive)
        #expect(UploadPlacement.unseen(options: UploadOptions(conflict: .fail), checks: [.renames]) == nil)

        // An exclusive server under .rename: no look, the server's refusals move on to the next name.
        let taken: Set<String> = ["a.txt", "a (1).txt"]
        let placed = try await UploadPlacement.place(
            "a.txt", options: UploadOptions(conflict: .rename), checks: all,
            existing: { name -> Item? in
                Issue.record("looked at \(name)")
                return nil
            },
            write: { name, placement -> String in
                #expect(placement == .exclusive)
                if taken.contains(name) { throw ProviderError(.alreadyExists, "taken") }
                return name
            })
        #expect(placed == "a (2).txt")
    }

    @Test("a name seen free is taken exclusively also to overwrite; taken meanwhile, it is looked at again")
    func overwriteSeenFree() async throws {
        let looks = Seen()
        let writes = NIOLockedValueBox<[UploadPlacement]>([])
        let placed = try await UploadPlacement.place(
            "a.txt", options: UploadOptions(conflict: .overwrite), checks: [.exclusive],
            existing: { name -> Item? in
                looks.add(1)
                // Free at the first look; a file was made there before the write.
                return looks.values.count == 1 ? nil : Item(path: "/a.txt", kind: .file, etag: "e9")
            },
            write: { name, placement -> UploadPlacement in
                writes.withLockedValue { $0.append(placement) }
                if placement == .exclusive { throw ProviderError(.alreadyExists, "raced") }
                return placement
            })
        #expect(placed == .replace)
        #expect(writes.withLockedValue { $0 } == [.exclusive, .replace])
        #expect(looks.values.count == 2)

        // A folder made there meanwhile is refused, never replaced.
        let folderLooks = Seen()
        await #expect { () async throws -> Void in
            _ = try await UploadPlacement.place(
                "d", options: UploadOptions(conflict: .overwrite), checks: [.exclusive], folderTaken: .conflict,
                existing: { _ -> Item? in
                    folderLooks.add(1)
                    return folderLooks.values.count == 1 ? nil : Item(path: "/d", kind: .folder)
                },
                write: { _, placement -> Void in
                    #expect(placement == .exclusive)
                    throw ProviderError(.alreadyExists, "raced")
                })
        } throws: { error in
            (error as? ProviderError)?.code == .conflict
        }
    }

    @Test("a server that renames writes once, with the name asked for; a server's numbering is tried as given")
    func serverNames() async throws {
        let writes = Seen()
        let placed = try await UploadPlacement.place(
            "a.txt", options: UploadOptions(conflict: .rename), checks: [.renames],
            existing: { name -> Item? in
                Issue.record("looked at \(name)")
                return nil
            },
            write: { name, placement -> String in
                writes.add(1)
                #expect(placement == .exclusive)
                return name
            })
        #expect(placed == "a.txt" && writes.values.count == 1)
        // Under .fail the same server is checked, then written.
        await #expect { () async throws -> Void in
            _ = try await UploadPlacement.place(
                "a.txt", options: UploadOptions(conflict: .fail), checks: [.renames],
                existing: { _ in Item(path: "/a.txt", kind: .file) }, write: { _, _ in Issue.record("wrote over a taken name") })
        } throws: { error in
            (error as? ProviderError)?.code == .alreadyExists
        }
        let taken: Set<String> = ["a.txt", "a-1.txt"]
        let numbered = try await UploadPlacement.place(
            "a.txt", options: UploadOptions(conflict: .rename),
            candidate: { name, attempt in attempt == 0 ? name : "a-\(attempt).txt" },
            existing: { taken.contains($0) ? Item(path: try ItemPath.root.appending($0), kind: .file) : nil },
            write: { name, _ in name })
        #expect(numbered == "a-2.txt")
    }
}

@Suite("ProviderKit: listing pages")
struct ListingPagerTests {
    @Test("names sort by their UTF-8 bytes")
    func order() {
        let nfc = "\u{E9}"
        let nfd = "e\u{301}"
        #expect(ListingPager.sorted(["b", "a", "B", nfc, nfd, "a b"]) == ["B", "a", "a b", "b", nfd, nfc])
    }

    @Test("pages follow on from the last name, whatever was removed meanwhile")
    func pages() throws {
        let names = ListingPager.sorted((0..<10).map { "n\($0)" })
        var request = PageRequest(limit: 4)
        var seen: [String] = []
        while true {
            let (page, next) = try ListingPager.page(of: names, request: request, scope: "/f")
            seen += page
            guard let next else { break }
            request.cursor = next
        }
        #expect(seen == names)
        let removed = names.filter { $0 != "n3" }
        let cursor = ListingCursor(position: "n3", scope: "/f").cursor
        let (after, _) = try ListingPager.page(of: removed, request: PageRequest(limit: 2, cursor: cursor), scope: "/f")
        #expect(Array(after) == ["n4", "n5"])
        #expect(try ListingPager.page(of: names, request: PageRequest(), scope: "/f").next == nil)
    }

    @Test("a cursor of another listing, or none of ours, is invalidArgument; a name with | and % survives its cursor")
    func foreignCursors() throws {
        let names = ListingPager.sorted(["a|b", "a%7Cb", "c", "d"])
        let (first, next) = try ListingPager.page(of: names, request: PageRequest(limit: 1), scope: "/f")
        #expect(Array(first) == ["a%7Cb"])
        let (second, after) = try ListingPager.page(of: names, request: PageRequest(limit: 1, cursor: next), scope: "/f")
        #expect(Array(second) == ["a|b"])
        let (third, _) = try ListingPager.page(of: names, request: PageRequest(limit: 1, cursor: after), scope: "/f")
        #expect(Array(third) == ["c"])
        for cursor in [next, PageCursor("c"), ListingCursor(position: "c", scope: "/g").cursor, ListingCursor(position: "c", scope: "/f|x").cursor] {
            let scope = cursor == next ? "/f/sub" : "/f"
            #expect { try ListingPager.page(of: names, request: PageRequest(limit: 1, cursor: cursor), scope: scope) } throws: { error in
                (error as? ProviderError)?.code == .invalidArgument
            }
        }
    }
}

@Suite("ProviderKit: listing cursors and snapshot pages")
struct SnapshotPagerTests {
    static func listing(_ count: Int) -> SnapshotPager.Listing {
        SnapshotPager.Listing(items: (0..<count).map { Item(path: try! ItemPath.root.appending("n\($0)"), kind: .file) })
    }

    @Test("a cursor carries its listing's scope and position; a server page number reads back, a foreign one is refused")
    func cursors() throws {
        let cursor = ListingCursor(number: 3, scope: "/Reports")
        #expect(cursor.cursor == PageCursor("3|/Reports"))
        #expect(try ListingCursor.read(cursor.cursor, scope: "/Reports").number() == 3)
        #expect(ListingCursor(cursor.cursor, scope: "/Other") == nil)
        #expect { try ListingCursor.read(cursor.cursor, scope: "search", of: "a search") } throws: { error in
            (error as? ProviderError)?.code == .invalidArgument && ((error as? ProviderError)?.message ?? "").contains("a search")
        }
        #expect { try ListingCursor.read(PageCursor("x|/Reports"), scope: "/Reports").number() } throws: { error in
            (error as? ProviderError)?.code == .invalidArgument
        }
        #expect(SnapshotPager.cut(count: 10, offset: 8, limit: 4) == (8..<10, nil))
        #expect(SnapshotPager.cut(count: 10, offset: 0, limit: 0) == (0..<1, 1))
        #expect(SnapshotPager.cut(count: 10, offset: 12, limit: nil) == (10..<10, nil))
    }

    @Test("pages come from one read of the listing, whatever it holds when the next pages are asked for")
    func snapshot() async throws {
        let pager = SnapshotPager()
        let reads = Seen()
        let size = NIOLockedValueBox(7)
        let read: @Sendable () async throws -> SnapshotPager.Listing = {
            reads.add(1)
            return Self.listing(size.withLockedValue { $0 })
        }
        var request = PageRequest(limit: 3)
        var names: [String] = []
        while true {
            let page = try await pager.page(request, scope: "/f", read: read)
            #expect(page.totalCount == 7)
            names += page.items.map(\.name)
            size.withLockedValue { $0 = 2 }  // entries removed meanwhile: the snapshot keeps its pages
            guard let next = page.next else { break }
            request.cursor = next
        }
        #expect(names == (0..<7).map { "n\($0)" })
        #expect(reads.values.count == 1)
        // A listing that fits one page keeps no snapshot and gives no cursor.
        #expect(try await pager.page(PageRequest(limit: 3), scope: "/f", read: read).next == nil)
    }

    @Test("an expired snapshot is read again and continues at its offset; a cursor of another folder is refused")
    func expired() async throws {
        let first = SnapshotPager(lifetime: .zero)
        let read: @Sendable () async throws -> SnapshotPager.Listing = { Self.listing(5) }
        let page = try await first.page(PageRequest(limit: 2), scope: "/f", read: read)
        let cursor = try #require(page.next)
        let rest = try await first.page(PageRequest(limit: 10, cursor: cursor), scope: "/f", read: read)
        #expect(rest.items.map(\.name) == ["n2", "n3", "n4"] && rest.next == nil)
        await #expect { try await first.page(PageRequest(limit: 2, cursor: cursor), scope: "/g", read: read) } throws: { error in
            (error as? ProviderError)?.code == .invalidArgument
        }
        await #expect { try await first.page(PageRequest(limit: 2, cursor: PageCursor("2|/f")), scope: "/f", read: read) } throws: { error in
            (error as? ProviderError)?.code == .invalidArgument
        }
    }
}
