import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI
import Testing
import WebDAVProvider

/// The `Server` header chooses a starting guess, never the verdict: what a write needs is
/// verified beside the first write, against a fake server with chosen shortcomings.
@Suite("WebDAV capabilities verified, not guessed")
struct CapabilityVerificationTests {
    @Test("a server that sends no Server header is not assumed to honour preconditions; a write shows it does")
    func noServerHeader() async throws {
        let server = FakeDAVServer(.init(server: nil, honoursPreconditions: true))
        let provider = try await WebDAVProvider.connect(server.configuration())
        #expect(!provider.capabilities.supports(.preconditions))
        #expect(!provider.capabilities.supports(.exclusiveCreate))
        #expect(provider.profile.verified == .unverified)
        _ = try await provider.createFolder(named: "first", in: .root)
        #expect(provider.profile.verified.honoursPreconditions == true)
        #expect(provider.capabilities.supports(.preconditions))
        // A refused If-None-Match shows a check, not an atomic one: exclusive create is never declared.
        #expect(provider.profile.verified.refusesIfNoneMatchStar == true)
        #expect(!provider.capabilities.supports(.exclusiveCreate))
    }

    @Test("a server that names itself Apache but ignores preconditions: .fail still refuses, a stale ifMatch is unsupported")
    func claimsButIgnores() async throws {
        let server = FakeDAVServer(.init(server: "Apache/2.4.62 (Debian)", honoursPreconditions: false))
        let provider = try await WebDAVProvider.connect(server.configuration())
        let first = try await provider.upload(DataSource(string: "old"), to: .root, name: "f.txt", options: UploadOptions())
        #expect(provider.profile.verified.refusesIfNoneMatchStar == false)
        #expect(provider.profile.verified.refusesStaleIfMatch == false)
        #expect(!provider.capabilities.supports(.preconditions))
        #expect(!provider.capabilities.supports(.exclusiveCreate))

        let fail = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(DataSource(string: "new"), to: .root, name: "f.txt", options: UploadOptions(conflict: .fail))
        }
        #expect(fail?.code == .alreadyExists)
        let renamed = try await provider.upload(DataSource(string: "other"), to: .root, name: "f.txt", options: UploadOptions(conflict: .rename))
        #expect(renamed.path != first.path)
        // A stale ifMatch would silently overwrite here: it is refused before any request.
        let before = server.requests.count
        let stale = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(
                DataSource(string: "lost update"), to: .root, name: "f.txt", options: UploadOptions(ifMatch: "\"stale\""))
        }
        #expect(stale?.code == .unsupported)
        #expect(server.requests.count == before)
        #expect(server.content("/f.txt") == "old")
    }

    @Test("MKCOL that succeeds over an existing folder: createFolder checks first")
    func mkcolOverFolder() async throws {
        let server = FakeDAVServer(.init(server: nil, mkcolRefusesExisting: false))
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.createFolder(named: "d", in: .root)
        #expect(provider.profile.verified.mkcolRefusesExisting == false)
        let again = await #expect(throws: ProviderError.self) { _ = try await provider.createFolder(named: "d", in: .root) }
        #expect(again?.code == .alreadyExists)
    }

    @Test("a server that hides dot-files says so in its name rules")
    func hiddenDotFiles() async throws {
        let server = FakeDAVServer(.init(server: nil, listsDotFiles: false))
        let provider = try await WebDAVProvider.connect(server.configuration())
        #expect(provider.capabilities.names.allowsDotFiles)
        _ = try await provider.createFolder(named: "d", in: .root)
        #expect(!provider.capabilities.names.allowsDotFiles)
    }

    @Test("a server that keeps every name: no character refused, leading space and NFD kept, nothing left behind")
    func namesKept() async throws {
        let server = FakeDAVServer(.init(server: nil))
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.createFolder(named: "d", in: .root)
        let verified = provider.profile.verified
        #expect(verified.refusedNameCharacters == [])
        #expect(verified.allowsLeadingSpace == true)
        #expect(verified.nameNormalization == .preserved)
        #expect(provider.capabilities.names == NameRules())
        #expect(server.filePaths.isEmpty, "\(server.filePaths)")
        #expect(verified.namesNotKept == [.put: [], .move: [], .copy: [], .mkcol: []])
        // Each route writes the names into a folder of its own, read back by one listing.
        let verify = server.requests.filter { $0.contains("strata-verify-") }
        for route in WebDAVVerifiedBehaviour.NameRoute.allCases {
            let folder = "/names-\(route.rawValue)/"
            #expect(verify.filter { $0.hasPrefix("PROPFIND ") && $0.hasSuffix(folder) }.count == 1, "\(route): \(verify)")
        }
        #expect(
            verify.filter { $0.hasPrefix("PUT ") && $0.contains("/names-put/strata-c") }.count == WebDAVCapabilityVerifier.nameCharacters.count)
        #expect(verify.filter { $0.hasPrefix("MOVE ") && $0.contains("/names-move/") }.count == WebDAVCapabilityVerifier.nameProbes.count)
        #expect(verify.filter { $0.hasPrefix("COPY ") }.count == WebDAVCapabilityVerifier.nameProbes.count + 1)
        // The route's folder, then a folder per name.
        #expect(verify.filter { $0.hasPrefix("MKCOL ") && $0.contains("/names-mkcol/") }.count == WebDAVCapabilityVerifier.nameProbes.count + 1)
    }

    @Test("a server that refuses some characters and a leading space: the verdict names them")
    func namesRefused() async throws {
        let server = FakeDAVServer(.init(server: nil, refusedCharacters: [":", "*", "#"], refusesLeadingSpace: true))
        let provider = try await WebDAVProvider.connect(server.configuration())
        #expect(provider.capabilities.names.forbiddenCharacters.isEmpty, "unverified: the rules of a POSIX file system")
        #expect(provider.capabilities.names.allowsLeadingSpace)
        _ = try await provider.upload(DataSource(string: "x"), to: .root, name: "f.txt", options: UploadOptions())
        let verified = provider.profile.verified
        #expect(verified.refusedNameCharacters == [":", "*", "#"])
        #expect(verified.allowsLeadingSpace == false)
        #expect(verified.nameNormalization == .preserved)
        #expect(server.filePaths == ["/f.txt"])
        let names = provider.capabilities.names
        #expect(names.forbiddenCharacters == [":", "*", "#"])
        #expect(!names.allowsLeadingSpace)
        #expect(names.normalization == .preserved)
        // What the rules refuse is mapped by NameEncoder onto names this server keeps.
        let encoded = NameEncoder(rules: names).encode(" a:b*c#d.txt")
        #expect(names.accepts(encoded))
        let item = try await provider.upload(DataSource(string: "y"), to: .root, name: encoded, options: UploadOptions())
        #expect(NameEncoder(rules: names).decode(item.name) == " a:b*c#d.txt")
    }

    @Test("a server that stores some characters as others: the changed ones count as refused")
    func namesMangled() async throws {
        let server = FakeDAVServer(.init(server: nil, mangledCharacters: ["|", "\\", "<"]))
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.createFolder(named: "d", in: .root)
        #expect(provider.profile.verified.refusedNameCharacters == ["|", "\\", "<"])
        #expect(provider.capabilities.names.forbiddenCharacters == ["|", "\\", "<"])
        #expect(provider.profile.verified.allowsLeadingSpace == true)
        #expect(server.filePaths.isEmpty, "\(server.filePaths)")
    }

    @Test("a server that stores names in NFC, or in NFD, is seen to", arguments: [NameRules.Normalization.nfc, .nfd])
    func namesNormalised(form: NameRules.Normalization) async throws {
        let server = FakeDAVServer(.init(server: nil, normalization: form))
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.createFolder(named: "d", in: .root)
        let verified = provider.profile.verified
        #expect(verified.nameNormalization == (form == .nfc ? .nfc : .nfd))
        #expect(verified.nameNormalization?.declared == form)
        #expect(provider.capabilities.names.normalization == form)
        #expect(verified.refusedNameCharacters == [])
    }

    @Test("a server that folds case is seen to: the capabilities declare it case-insensitive only once shown")
    func caseFolded() async throws {
        let server = FakeDAVServer(.init(server: nil, foldsCase: true))
        let provider = try await WebDAVProvider.connect(server.configuration())
        #expect(provider.profile.verified.nameCase == nil)
        #expect(!provider.capabilities.names.caseSensitive, "not verified: case-sensitivity is not claimed")
        _ = try await provider.createFolder(named: "d", in: .root)
        #expect(provider.profile.verified.nameCase == .insensitive)
        #expect(provider.profile.verified.isComplete)
        #expect(!provider.capabilities.names.caseSensitive)
        // The probe asked for the case-swapped spelling, and left nothing behind.
        #expect(server.requests.contains { $0.hasPrefix("PROPFIND ") && $0.contains("STRATA-cASE-pROBE.TXT") }, "\(server.requests)")
        #expect(server.filePaths.isEmpty, "\(server.filePaths)")
    }

    @Test("a server that tells names apart by case is seen to, and declared case-sensitive")
    func caseKept() async throws {
        let server = FakeDAVServer(.init(server: nil))
        let provider = try await WebDAVProvider.connect(server.configuration())
        #expect(!provider.capabilities.names.caseSensitive)
        _ = try await provider.createFolder(named: "d", in: .root)
        #expect(provider.profile.verified.nameCase == .sensitive)
        #expect(provider.capabilities.names.caseSensitive)
    }

    @Test("verification runs once per server, leaves nothing behind, and the next provider does not pay again")
    func once() async throws {
        let server = FakeDAVServer(.init(server: nil))
        let provider = try await WebDAVProvider.connect(server.configuration())
        async let one = provider.createFolder(named: "a", in: .root)
        async let two = provider.upload(DataSource(string: "x"), to: .root, name: "b.txt", options: UploadOptions())
        _ = try await (one, two)
        let next = try await WebDAVProvider.connect(server.configuration())
        #expect(next.profile.verified.isComplete)
        _ = try await next.createFolder(named: "c", in: .root)
        // The scratch folder itself (not the folders made inside it): created, then MKCOL over it.
        let probes = server.requests.filter { $0.hasPrefix("MKCOL /strata-verify-") && $0.dropFirst(6).dropLast().split(separator: "/").count == 1 }
        #expect(probes.count == 2, "\(server.requests)")
        #expect(try await next.listAll(.root).map(\.name) == ["a", "b.txt", "c"])
    }

    @Test("folder overwrite: a server shown to replace gets the MOVE alone; one that merges gets the target deleted first", arguments: [false, true])
    func folderOverwrite(merges: Bool) async throws {
        let server = FakeDAVServer(.init(server: nil, mergesFolders: merges))
        let provider = try await WebDAVProvider.connect(server.configuration())
        for folder in ["src", "dst"] { _ = try await provider.createFolder(named: folder, in: .root) }
        #expect(provider.profile.verified.mergesOnFolderOverwrite == merges)
        _ = try await provider.upload(DataSource(string: "a"), to: ItemPath("/src"), name: "a.txt", options: UploadOptions())
        _ = try await provider.upload(DataSource(string: "b"), to: ItemPath("/dst"), name: "b.txt", options: UploadOptions())
        let before = server.requests.count
        _ = try await provider.move(ItemPath("/src"), to: ItemPath("/dst"), options: TransferOptions(overwrite: true))
        #expect(try await provider.listAll(ItemPath("/dst")).map(\.name) == ["a.txt"], "replaced, not merged")
        let deletedFirst = server.requests[before...].contains { $0.hasPrefix("DELETE /dst") }
        #expect(deletedFirst == merges, "\(server.requests[before...])")
    }

    @Test("a server that keeps a cut PUT's body: uploads go through a temporary name, a broken overwrite keeps the old content")
    func partialBodies() async throws {
        let server = FakeDAVServer(.init(server: nil, keepsPartialBodies: true))
        let provider = try await WebDAVProvider.connect(server.configuration())
        #expect(provider.profile.uploadsThroughTemporary, "an unverified server is not trusted with partial bodies")
        let first = try await provider.upload(DataSource(string: "old"), to: .root, name: "f.txt", options: UploadOptions())
        #expect(provider.profile.verified.keepsPartialUploads == true)
        #expect(first.path == "/f.txt")
        #expect(server.requests.contains { $0.hasPrefix("MOVE /.strata-upload-") }, "\(server.requests)")

        let broken = await #expect(throws: (any Error).self) {
            _ = try await provider.upload(BreakingSource(), to: .root, name: "f.txt", options: UploadOptions(conflict: .overwrite))
        }
        #expect(broken != nil)
        _ = await #expect(throws: (any Error).self) {
            _ = try await provider.upload(BreakingSource(), to: .root, name: "new.txt", options: UploadOptions())
        }
        #expect(server.content("/f.txt") == "old")
        #expect(server.filePaths == ["/f.txt"], "a partial file or a temporary was left: \(server.filePaths)")

        // The conflict policies hold through the MOVE.
        let fail = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(DataSource(string: "new"), to: .root, name: "f.txt", options: UploadOptions(conflict: .fail))
        }
        #expect(fail?.code == .alreadyExists)
        let renamed = try await provider.upload(DataSource(string: "other"), to: .root, name: "f.txt", options: UploadOptions(conflict: .rename))
        #expect(renamed.path != "/f.txt")
        #expect(String(decoding: try await provider.data(at: renamed.path), as: UTF8.self) == "other")
        let replaced = try await provider.upload(DataSource(string: "newer"), to: .root, name: "f.txt", options: UploadOptions(conflict: .overwrite))
        #expect(replaced.path == "/f.txt")
        #expect(server.content("/f.txt") == "newer")
        _ = try await provider.createFolder(named: "d", in: .root)
        let overFolder = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(DataSource(string: "x"), to: .root, name: "d", options: UploadOptions(conflict: .overwrite))
        }
        #expect(overFolder?.code == .conflict)
        #expect(try await provider.item(at: "/d").kind == .folder)
        #expect(!server.filePaths.contains { $0.contains(".strata-upload-") }, "\(server.filePaths)")
    }

    @Test("a server that drops a cut PUT's body: an upload is one PUT")
    func noPartialBodies() async throws {
        let server = FakeDAVServer(.init(server: nil))
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.createFolder(named: "first", in: .root)
        #expect(provider.profile.verified.keepsPartialUploads == false)
        #expect(!provider.profile.uploadsThroughTemporary)
        let before = server.requests.count
        _ = try await provider.upload(DataSource(string: "x"), to: "/first", name: "f.txt", options: UploadOptions())
        let sent = server.requests.dropFirst(before)
        #expect(sent.filter { $0.hasPrefix("PUT ") } == ["PUT /first/f.txt"], "\(sent)")
        #expect(!sent.contains { $0.hasPrefix("MOVE ") })
    }
}

/// Names proved on the route each write takes, folder overwrite by `COPY`, ranges, and lookups
/// of the other normalisation (issue 30).
@Suite("WebDAV verification of the route in use")
struct RouteVerificationTests {
    @Test("a server that decodes MOVE's Destination and cuts it at ? ; #: uploads through a temporary never misplace a name")
    func destinationCut() async throws {
        let server = FakeDAVServer(.init(server: nil, keepsPartialBodies: true, destinationCut: ["?", ";", "#"]))
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.createFolder(named: "d", in: .root)
        let verified = provider.profile.verified
        #expect(verified.keepsPartialUploads == true)
        #expect(verified.refusedNameCharacters == ["?", ";", "#"], "\(verified)")
        #expect(verified.namesNotKept?[.move] == ["?", ";", "#"])
        #expect(verified.namesNotKept?[.copy] == ["?", ";", "#"])
        #expect(verified.namesNotKept?[.put] == [])
        #expect(verified.namesNotKept?[.mkcol] == [])
        #expect(provider.capabilities.names.forbiddenCharacters == ["?", ";", "#"])

        // Sent as it is, the name would land as `a` (the MOVE's Destination cut at `?`): refused.
        let refused = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(DataSource(string: "x"), to: "/d", name: "a?b;c.txt", options: UploadOptions())
        }
        #expect(refused?.code == .invalidArgument)
        // Mapped, it lands under the name sent and reads back as the user's name.
        let encoder = NameEncoder(rules: provider.capabilities.names)
        let item = try await provider.upload(DataSource(string: "y"), to: "/d", name: encoder.encode("a?b;c#d.txt"), options: UploadOptions())
        #expect(encoder.decode(item.name) == "a?b;c#d.txt")
        #expect(try await provider.listAll("/d").map { encoder.decode($0.name) } == ["a?b;c#d.txt"])
        #expect(server.filePaths.count == 1, "\(server.filePaths)")
    }

    @Test("a server that drops trailing dots and spaces and refuses names over 150 bytes: both mapped or refused, the longest kept declared")
    func trailingAndLong() async throws {
        let server = FakeDAVServer(.init(server: nil, stripsTrailing: true, maxNameBytes: 150))
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.createFolder(named: "d", in: .root)
        let verified = provider.profile.verified
        #expect(verified.allowsTrailingDot == false, "\(verified)")
        #expect(verified.allowsTrailingSpace == false)
        #expect(verified.maxNameBytes == 143)
        #expect(verified.namesNotKept?[.put]?.isSuperset(of: ["trailing dot", "trailing space", "long name"]) == true)
        let names = provider.capabilities.names
        #expect(!names.allowsTrailingDot && !names.allowsTrailingSpace && names.maxNameBytes == 143)
        let encoder = NameEncoder(rules: names)
        let item = try await provider.upload(DataSource(string: "x"), to: "/d", name: encoder.encode("report. "), options: UploadOptions())
        #expect(encoder.decode(item.name) == "report. ")
        #expect(try await provider.listAll("/d").map { encoder.decode($0.name) } == ["report. "])
        let long = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(DataSource(string: "x"), to: "/d", name: String(repeating: "n", count: 144), options: UploadOptions())
        }
        #expect(long?.code == .invalidArgument)
    }

    @Test("a server that refuses COPY whatever the name: the route tells nothing of names and maps nothing")
    func copyRefused() async throws {
        let server = FakeDAVServer(.init(server: nil, refusesCopy: true))
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.createFolder(named: "d", in: .root)
        let verified = provider.profile.verified
        #expect(verified.namesNotKept?[.copy]?.contains("plain") == true, "\(verified)")
        #expect(verified.refusedNameCharacters == [])
        #expect(verified.allowsTrailingDot == true && verified.maxNameBytes == 255)
        #expect(verified.isComplete)
        #expect(provider.capabilities.names == NameRules())
    }

    @Test("a server that decodes request paths twice: a literal %41 is caught and % is mapped")
    func decodedTwice() async throws {
        let server = FakeDAVServer(.init(server: nil, decodesTwice: true))
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.createFolder(named: "d", in: .root)
        let verified = provider.profile.verified
        #expect(verified.refusedNameCharacters?.contains("%") == true, "\(verified)")
        #expect(verified.namesNotKept?[.put]?.contains("%41") == true)
        let name = NameEncoder(rules: provider.capabilities.names).encode("100%41.txt")
        #expect(!name.contains("%"))
        let item = try await provider.upload(DataSource(string: "x"), to: "/d", name: name, options: UploadOptions())
        #expect(try await provider.listAll("/d").map(\.name) == [item.name])
    }

    @Test("folder overwrite by COPY: a server that merges gets the target deleted first, whatever MOVE does")
    func copyMerges() async throws {
        let server = FakeDAVServer(.init(server: nil, copyMergesFolders: true))
        let provider = try await WebDAVProvider.connect(server.configuration())
        for folder in ["src", "dst"] { _ = try await provider.createFolder(named: folder, in: .root) }
        #expect(provider.profile.verified.mergesOnFolderOverwrite == false)
        #expect(provider.profile.verified.copyMergesOnFolderOverwrite == true)
        _ = try await provider.upload(DataSource(string: "a"), to: "/src", name: "a.txt", options: UploadOptions())
        _ = try await provider.upload(DataSource(string: "b"), to: "/dst", name: "b.txt", options: UploadOptions())
        _ = try await provider.copy("/src", to: "/dst", options: TransferOptions(overwrite: true))
        #expect(try await provider.listAll("/dst").map(\.name) == ["a.txt"], "replaced, not merged")
        #expect(try await provider.listAll("/src").map(\.name) == ["a.txt"])
    }

    @Test("a server whose ranges are right: ranges and resume are declared only once a probe file answered them")
    func rangesRight() async throws {
        let server = FakeDAVServer(.init(server: nil))
        let provider = try await WebDAVProvider.connect(server.configuration())
        #expect(!provider.capabilities.supports(.rangeDownload), "not verified: not declared")
        #expect(!provider.capabilities.supports(.resumeDownload))
        _ = try await provider.upload(DataSource(string: "0123456789"), to: .root, name: "f.txt", options: UploadOptions())
        #expect(provider.profile.verified.servesRanges == true)
        #expect(provider.profile.verified.rangeProblems == [])
        #expect(provider.capabilities.supports(.rangeDownload))
        #expect(provider.capabilities.supports(.resumeDownload))
        let sink = MemorySink()
        _ = try await provider.download("/f.txt", to: sink, options: DownloadOptions(range: .suffix(3)))
        #expect(String(decoding: await sink.data, as: UTF8.self) == "789")
    }

    @Test(
        "a server whose 206 lacks Content-Range, is off by one, drops suffix ranges or ignores Range: whole-file downloads only",
        arguments: [FakeDAVServer.Behaviour.Ranges.noContentRange, .offByOne, .dropsSuffix, .ignored])
    func rangesWrong(ranges: FakeDAVServer.Behaviour.Ranges) async throws {
        let server = FakeDAVServer(.init(server: nil, ranges: ranges))
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.upload(DataSource(string: "0123456789"), to: .root, name: "f.txt", options: UploadOptions())
        let verified = provider.profile.verified
        #expect(verified.servesRanges == false)
        #expect(verified.rangeProblems?.isEmpty == false, "the verdict says why")
        #expect(verified.isComplete)
        #expect(!provider.capabilities.supports(.rangeDownload))
        #expect(!provider.capabilities.supports(.resumeDownload))
        let refused = await #expect(throws: ProviderError.self) {
            _ = try await provider.download("/f.txt", to: MemorySink(), options: DownloadOptions(range: .suffix(3)))
        }
        #expect(refused?.code == .unsupported)
        let sink = MemorySink()
        _ = try await provider.download("/f.txt", to: sink, options: DownloadOptions())
        #expect(String(decoding: await sink.data, as: UTF8.self) == "0123456789")
    }

    @Test("a server that keeps NFD names as sent but finds them by their NFC spelling is declared normalisation-insensitive")
    func normalizationInsensitive() async throws {
        let server = FakeDAVServer(.init(server: nil, findsOtherNormalization: true))
        let provider = try await WebDAVProvider.connect(server.configuration())
        #expect(provider.capabilities.names.normalizationInsensitive, "not verified: NFC and NFD are not told apart")
        _ = try await provider.createFolder(named: "d", in: .root)
        #expect(provider.profile.verified.nameNormalization == .preserved)
        #expect(provider.profile.verified.normalizationInsensitive == true)
        #expect(provider.capabilities.names.normalizationInsensitive)
        #expect(provider.capabilities.names.key("caf\u{E9}") == provider.capabilities.names.key("cafe\u{301}"))

        let exact = FakeDAVServer(.init(server: nil))
        let other = try await WebDAVProvider.connect(exact.configuration())
        _ = try await other.createFolder(named: "d", in: .root)
        #expect(other.profile.verified.normalizationInsensitive == false)
        #expect(!other.capabilities.names.normalizationInsensitive)
    }
}

/// An upload body that breaks off after a few bytes of the 100 it declares.
private struct BreakingSource: UploadSource {
    struct Broken: Error {}
    var length: Int64? { 100 }
    var isReplayable: Bool { false }
    func makeStream() throws -> UploadStream {
        let sent = NIOLockedValueBox(false)
        return UploadStream {
            if sent.withLockedValue({ done in defer { done = true }; return done }) { throw Broken() }
            return ByteBuffer(string: "partial")
        }
    }
}
