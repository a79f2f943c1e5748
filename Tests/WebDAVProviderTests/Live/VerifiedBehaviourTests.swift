import Foundation
import ProviderAPI
import StrataTestSupport
import Testing
import WebDAVProvider

/// What ``WebDAVCapabilityVerifier`` finds on each real server, and what the provider then does.
@Suite("WebDAV behaviour verified on real servers", .liveServers)
struct VerifiedBehaviourTests {
    /// What each server was seen to do (Debian 12 packages; notes/webdav-servers.md). On a Linux
    /// file system all six keep every checked character (`\ : * ? " < > | # % ; & +`), a literal
    /// `%41`, a leading and a trailing space, a trailing dot, a 255-byte name, and NFC and NFD
    /// names byte for byte, on every route (PUT, PUT + MOVE, COPY, MKCOL); none finds an NFD name
    /// by its NFC spelling; all six answer bounded, open and suffix ranges right. lighttpd merges
    /// folders on COPY as on MOVE.
    static let expected: [String: WebDAVVerifiedBehaviour] = Self.verdicts.reduce(into: [:]) { expected, entry in
        var verdict = entry.value
        verdict.copyMergesOnFolderOverwrite = verdict.mergesOnFolderOverwrite
        verdict.allowsTrailingSpace = true
        verdict.allowsTrailingDot = true
        verdict.maxNameBytes = 255
        verdict.normalizationInsensitive = false
        verdict.namesNotKept = [.put: [], .move: [], .copy: [], .mkcol: []]
        verdict.servesRanges = true
        verdict.rangeProblems = []
        verdict.putCreatesParents = false
        if entry.key == "chezdav" {
            let lost: Set<String> = ["%41", "%", "#", "?"]
            verdict.namesNotKept = [.put: lost, .move: lost, .copy: lost, .mkcol: lost]
        }
        if entry.key == "copyparty" {
            // A PUT below a missing folder makes the folders (RFC 4918 9.7.1: 409).
            verdict.putCreatesParents = true
            // A PUT drops a name's leading and trailing spaces (a MOVE, COPY or MKCOL keeps them).
            verdict.allowsTrailingSpace = false
            verdict.namesNotKept?[.put] = ["leading space", "trailing space"]
        }
        expected[entry.key] = verdict
    }

    /// The verdicts that differ from server to server.
    static let verdicts: [String: WebDAVVerifiedBehaviour] = [
        "apache": WebDAVVerifiedBehaviour(
            refusesIfNoneMatchStar: true, refusesStaleIfMatch: true, refusesStaleIfHeader: true, acceptsCurrentETag: true,
            mkcolRefusesExisting: true, listsDotFiles: true, reportsETags: true, reportsContentTypes: true, keepsPartialUploads: false, mergesOnFolderOverwrite: false,
            refusedNameCharacters: [], allowsLeadingSpace: true, nameNormalization: .preserved, nameCase: .sensitive),
        "sabre": WebDAVVerifiedBehaviour(
            refusesIfNoneMatchStar: true, refusesStaleIfMatch: true, refusesStaleIfHeader: true, acceptsCurrentETag: true,
            mkcolRefusesExisting: true, listsDotFiles: true, reportsETags: true, reportsContentTypes: false, keepsPartialUploads: false, mergesOnFolderOverwrite: false,
            refusedNameCharacters: [], allowsLeadingSpace: true, nameNormalization: .preserved, nameCase: .sensitive),
        "lighttpd": WebDAVVerifiedBehaviour(
            refusesIfNoneMatchStar: true, refusesStaleIfMatch: true, refusesStaleIfHeader: true, acceptsCurrentETag: true,
            mkcolRefusesExisting: true, listsDotFiles: true, reportsETags: true, reportsContentTypes: true, keepsPartialUploads: false, mergesOnFolderOverwrite: true,
            refusedNameCharacters: [], allowsLeadingSpace: true, nameNormalization: .preserved, nameCase: .sensitive),
        "nginx": WebDAVVerifiedBehaviour(
            refusesIfNoneMatchStar: false, refusesStaleIfMatch: false, refusesStaleIfHeader: false, acceptsCurrentETag: false,
            mkcolRefusesExisting: true, listsDotFiles: false, reportsETags: false, reportsContentTypes: false, keepsPartialUploads: false, mergesOnFolderOverwrite: false,
            refusedNameCharacters: [], allowsLeadingSpace: true, nameNormalization: .preserved, nameCase: .sensitive),
        "rclone": WebDAVVerifiedBehaviour(
            // If-Match is ignored (so the current etag "passes"); `If` is refused whatever the etag.
            refusesIfNoneMatchStar: false, refusesStaleIfMatch: false, refusesStaleIfHeader: true, acceptsCurrentETag: true,
            mkcolRefusesExisting: false, listsDotFiles: true, reportsETags: true, reportsContentTypes: true, keepsPartialUploads: true, mergesOnFolderOverwrite: false,
            refusedNameCharacters: [], allowsLeadingSpace: true, nameNormalization: .preserved, nameCase: .sensitive),
        "rclonefold": WebDAVVerifiedBehaviour(
            // rclone serve with --vfs-case-insensitive: as rclone, and a name is found whatever its case.
            refusesIfNoneMatchStar: false, refusesStaleIfMatch: false, refusesStaleIfHeader: true, acceptsCurrentETag: true,
            mkcolRefusesExisting: false, listsDotFiles: true, reportsETags: true, reportsContentTypes: true, keepsPartialUploads: true, mergesOnFolderOverwrite: false,
            refusedNameCharacters: [], allowsLeadingSpace: true, nameNormalization: .preserved, nameCase: .insensitive),
        "copyparty": WebDAVVerifiedBehaviour(
            // copyparty 1.20.26 with `daw`: no etags (so no preconditions), a cut PUT is kept, an
            // overwriting MOVE/COPY merges folders, and a leading space is dropped from a name.
            refusesIfNoneMatchStar: false, refusesStaleIfMatch: false, refusesStaleIfHeader: false, acceptsCurrentETag: false,
            mkcolRefusesExisting: true, listsDotFiles: true, reportsETags: false, reportsContentTypes: true, keepsPartialUploads: true, mergesOnFolderOverwrite: true,
            refusedNameCharacters: [], allowsLeadingSpace: false, nameNormalization: .preserved, nameCase: .sensitive),
        "chezdav": WebDAVVerifiedBehaviour(
            // chezdav (phodav 3.0): If-None-Match and If-Match ignored (the If header is honoured),
            // a cut PUT is kept; hrefs hold raw `?` and `#` and decoded `%XX` (and are empty for a
            // name with `%`), so `?`, `#` and `%` are refused and mapped.
            refusesIfNoneMatchStar: false, refusesStaleIfMatch: false, refusesStaleIfHeader: true, acceptsCurrentETag: true,
            mkcolRefusesExisting: true, listsDotFiles: true, reportsETags: true, reportsContentTypes: true, keepsPartialUploads: true, mergesOnFolderOverwrite: false,
            refusedNameCharacters: ["%", "?", "#"], allowsLeadingSpace: true, nameNormalization: .preserved, nameCase: .sensitive),
    ]

    @Test("after the first write the profile says what the server does, and the capabilities follow it", arguments: LiveServers.allNames)
    func verdicts(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let (_, root, name) = try await LiveServers.scratch(server)
        defer { Task { try? await root.delete(try ItemPath(name)) } }
        let provider = try await WebDAVProvider.connect(LiveServers.configuration(server, folder: name))
        _ = try await provider.createFolder(named: "first", in: .root)

        let verified = provider.profile.verified
        #expect(verified == Self.expected[serverName], "\(serverName): \(verified)")
        let capabilities = provider.capabilities
        let honours = verified.honoursPreconditions == true
        #expect(capabilities.supports(.preconditions) == honours)
        #expect(!capabilities.supports(.exclusiveCreate), "a refused If-None-Match is not shown to be atomic")
        #expect(capabilities.names.allowsDotFiles == (verified.listsDotFiles == true))
        #expect(capabilities.names.forbiddenCharacters == Set((verified.refusedNameCharacters ?? ["?"]).map { Character($0) }))
        #expect(capabilities.names.allowsLeadingSpace == (verified.allowsLeadingSpace == true))
        #expect(capabilities.names.normalization == verified.nameNormalization?.declared)
        #expect(capabilities.names.caseSensitive == (verified.nameCase == .sensitive))
        #expect(capabilities.names.allowsTrailingSpace == (verified.allowsTrailingSpace == true))
        #expect(capabilities.names.allowsTrailingDot == (verified.allowsTrailingDot == true))
        #expect(capabilities.names.maxNameBytes == verified.maxNameBytes)
        #expect(capabilities.names.normalizationInsensitive == (verified.normalizationInsensitive == true))
        #expect(capabilities.supports(.rangeDownload) == (verified.servesRanges == true))
        #expect(capabilities.supports(.resumeDownload) == (verified.servesRanges == true))
        // The probe folder is gone.
        #expect(try await provider.listAll(.root).map(\.name) == ["first"])
    }

    @Test("without verified preconditions, .fail and createFolder still refuse a taken name", arguments: LiveServers.allNames)
    func takenNames(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let (provider, root, name) = try await LiveServers.scratch(server)
        defer { Task { try? await root.delete(try ItemPath(name)) } }
        _ = try await provider.upload(data: Data("old".utf8), to: "/f.txt")
        let fail = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(
                DataSource(string: "new"), to: .root, name: "f.txt", options: UploadOptions(conflict: .fail))
        }
        #expect(fail?.code == .alreadyExists)
        #expect(String(decoding: try await provider.data(at: "/f.txt"), as: UTF8.self) == "old")
        _ = try await provider.createFolder(named: "d", in: .root)
        let again = await #expect(throws: ProviderError.self) { _ = try await provider.createFolder(named: "d", in: .root) }
        #expect(again?.code == .alreadyExists)
    }
}
