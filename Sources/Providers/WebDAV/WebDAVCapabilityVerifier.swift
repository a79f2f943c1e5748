import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// Finds out, by writing on scratch names, what a WebDAV server really does where its headers
/// cannot tell: whether it refuses `If-None-Match: *` over an existing file, a stale `If-Match`
/// and a stale `If`, accepts the current etag, refuses `MKCOL` over an existing folder, lists
/// dot-files, reports etags and content types, keeps what arrived of a `PUT` whose body
/// was cut (a partial new file, or an old file's content destroyed), and which file names it
/// keeps as sent: a name per character of ``nameCharacters``, one with a leading space, and one
/// in NFD and one in NFC, all seen in the one listing of the scratch folder; and whether it folds
/// case: a file written as `strata-Case-Probe.txt` is asked for (`PROPFIND`, depth 0) as
/// `STRATA-cASE-pROBE.TXT`: found, two names differing only in case are one file there.
///
/// It works in a fresh folder `strata-verify-<random>` inside the folder of the first write,
/// which it removes at the end: about thirty small requests, once per server and user (``WebDAVProvider``
/// remembers the verdict in the process, and in a `ServerFactStore` where one is configured). A server that does not let it create that folder
/// leaves every verdict unknown, and the provider keeps its conservative guesses.
public struct WebDAVCapabilityVerifier: Sendable {
    let provider: WebDAVProvider

    /// A verifier that sends its requests through `provider`.
    public init(provider: WebDAVProvider) { self.provider = provider }

    /// Runs the probes inside `parent`; `nil` when they could not run there.
    public func verify(in parent: ItemPath) async -> WebDAVVerifiedBehaviour? {
        guard let folder = try? parent.appending("strata-verify-\(Self.token())"),
            let file = try? folder.appending(".strata-probe.txt")
        else { return nil }
        guard let made = await send(.MKCOL, folder, folder: true), (200..<300).contains(made) else { return nil }
        let verdict = await probe(folder: folder, file: file)
        _ = await send(.DELETE, folder, folder: true)
        return verdict
    }

    private func probe(folder: ItemPath, file: ItemPath) async -> WebDAVVerifiedBehaviour? {
        var verdict = WebDAVVerifiedBehaviour()
        // RFC 4918 9.3.1: MKCOL over an existing collection is 405 (rclone serve 1.60 answers 201).
        guard let again = await send(.MKCOL, folder, folder: true) else { return nil }
        verdict.mkcolRefusesExisting = !(200..<300).contains(again)
        guard let created = await send(.PUT, file, body: "a"), (200..<300).contains(created) else { return nil }
        guard let exclusive = await send(.PUT, file, headers: ["If-None-Match": "*"], body: "b"),
            let staleMatch = await send(.PUT, file, headers: ["If-Match": "\"strata-stale\""], body: "c"),
            let staleIf = await send(.PUT, file, headers: ["If": "([\"strata-stale\"])"], body: "d")
        else { return nil }
        verdict.refusesIfNoneMatchStar = exclusive == 412
        verdict.refusesStaleIfMatch = staleMatch == 412
        verdict.refusesStaleIfHeader = staleIf == 412

        // One file per candidate name; the same listing tells which came back exactly as sent.
        guard var names = await putNameProbes(in: folder) else { return nil }
        // The case probe: found under its case-swapped spelling, the server folds case.
        if names.mixedCase.accepted {
            guard let swapped = try? folder.appending(names.swappedCase),
                let status = await send(.PROPFIND, swapped, headers: ["Depth": "0"]),
                status == 404 || (200..<300).contains(status)
            else { return nil }
            names.swappedCaseFound = status != 404
        }

        // The listing says whether dot-files are listed, and what a file's entry carries.
        guard let children = try? await provider.propfind(folder, depth: "1", body: DAVRequestBodies.propfindItems, folder: true)
        else { return nil }
        let listed = children.first { (try? provider.mapper.path(forHref: $0.href)) == file }
        verdict.listsDotFiles = listed != nil
        let listedNames = children.compactMap { try? provider.mapper.path(forHref: $0.href).name }
        judgeNames(names, listed: listedNames, into: &verdict)
        var entry = listed
        if entry == nil { entry = try? await provider.propfind(file, depth: "0", body: DAVRequestBodies.propfindItems).first }
        guard let entry else { return nil }
        let found = entry.found
        verdict.reportsContentTypes = !(found[.getcontenttype]?.text.isEmpty ?? true)
        let etag = found[.getetag].flatMap { DAVItemMapper.normalizeETag($0.text) }
        verdict.reportsETags = etag != nil
        if let etag {
            // The header the provider sends for this etag: If-Match, or If for a weak one.
            let header: HTTPHeaders = WebDAVProvider.isWeak(etag) ? ["If": "([\(etag)])"] : ["If-Match": etag]
            let current = await send(.PUT, file, headers: header, body: "e")
            verdict.acceptsCurrentETag = current.map { (200..<300).contains($0) } ?? false
        } else {
            verdict.acceptsCurrentETag = false
        }
        guard let partial = await keepsPartialUploads(in: folder) else { return nil }
        verdict.keepsPartialUploads = partial
        guard let merges = await mergesOnFolderOverwrite(in: folder) else { return nil }
        verdict.mergesOnFolderOverwrite = merges
        return verdict
    }

    /// `MOVE`s a folder holding `a.txt` onto one holding `b.txt` with `Overwrite: T`: RFC 4918
    /// 9.9.3 replaces the destination, so `b.txt` is gone; a server that merges (lighttpd) keeps
    /// it. A refused `MOVE` counts as not replacing.
    private func mergesOnFolderOverwrite(in folder: ItemPath) async -> Bool? {
        guard let source = try? folder.appending("strata-src"), let target = try? folder.appending("strata-dst"),
            let inSource = try? source.appending("a.txt"), let inTarget = try? target.appending("b.txt"),
            let moved = try? target.appending("a.txt")
        else { return nil }
        for (path, isFolder) in [(source, true), (inSource, false), (target, true), (inTarget, false)] {
            guard let status = await send(isFolder ? .MKCOL : .PUT, path, folder: isFolder, body: isFolder ? nil : "x"),
                (200..<300).contains(status)
            else { return nil }
        }
        let headers: HTTPHeaders = [
            "Destination": provider.mapper.url(for: target, folder: true).absoluteString, "Overwrite": "T", "Depth": "infinity",
        ]
        guard let status = await send(.MOVE, source, folder: true, headers: headers) else { return nil }
        guard (200..<300).contains(status) else { return true }
        guard let left = await send(.GET, inTarget), let arrived = await send(.GET, moved) else { return nil }
        return left != 404 || arrived != 200
    }

    /// The characters checked in file names: those some file systems or servers refuse, and
    /// those URLs give a meaning (`#`, `%`, `?`).
    public static let nameCharacters: [Character] = ["\\", ":", "*", "?", "\"", "<", ">", "|", "#", "%"]

    /// The names written to learn the name rules, and whether the server accepted each `PUT`.
    struct NameProbes {
        var characters: [(character: Character, name: String, accepted: Bool)] = []
        var leadingSpace = (name: " strata-lead", accepted: false)
        /// The same word in NFD (`e` + U+0301) and in NFC (U+00E9), under different stems.
        var nfd = (name: "strata-nfd-cafe\u{301}", accepted: false)
        var nfc = (name: "strata-nfc-caf\u{E9}", accepted: false)
        /// A name with upper- and lower-case letters, and whether its case-swapped spelling
        /// (`swappedCase`) was found after it was written.
        var mixedCase = (name: "strata-Case-Probe.txt", accepted: false)
        var swappedCaseFound = false
        /// `mixedCase`'s name with every letter's case swapped (`STRATA-cASE-pROBE.TXT`).
        var swappedCase: String {
            String(mixedCase.name.map { $0.isUppercase ? Character($0.lowercased()) : Character($0.uppercased()) })
        }
    }

    /// `PUT`s an empty file per candidate name into `folder` (which the caller deletes);
    /// `nil` when a request got no answer.
    private func putNameProbes(in folder: ItemPath) async -> NameProbes? {
        var probes = NameProbes()
        func put(_ name: String) async -> Bool? {
            guard let path = try? folder.appending(name) else { return false }
            return await send(.PUT, path, body: "").map { (200..<300).contains($0) }
        }
        for (index, character) in Self.nameCharacters.enumerated() {
            let name = "strata-c\(index)-a\(character)b"
            guard let accepted = await put(name) else { return nil }
            probes.characters.append((character, name, accepted))
        }
        guard let lead = await put(probes.leadingSpace.name), let nfd = await put(probes.nfd.name),
            let nfc = await put(probes.nfc.name), let mixed = await put(probes.mixedCase.name)
        else { return nil }
        probes.mixedCase.accepted = mixed
        probes.leadingSpace.accepted = lead
        probes.nfd.accepted = nfd
        probes.nfc.accepted = nfc
        return probes
    }

    /// The name verdicts from what was accepted and what the listing shows, compared scalar by
    /// scalar (Swift's `==` would take NFC and NFD spellings as equal).
    func judgeNames(_ probes: NameProbes, listed: [String], into verdict: inout WebDAVVerifiedBehaviour) {
        let shown = Set(listed.map { Array($0.unicodeScalars) })
        func isListed(_ name: String) -> Bool { shown.contains(Array(name.unicodeScalars)) }
        verdict.refusedNameCharacters = Set(
            probes.characters.filter { !($0.accepted && isListed($0.name)) }.map { String($0.character) })
        verdict.allowsLeadingSpace = probes.leadingSpace.accepted && isListed(probes.leadingSpace.name)
        let nfdAsSent = probes.nfd.accepted && isListed(probes.nfd.name)
        let nfdAsNFC = probes.nfd.accepted && isListed(probes.nfd.name.precomposedStringWithCanonicalMapping)
        let nfcAsSent = probes.nfc.accepted && isListed(probes.nfc.name)
        let nfcAsNFD = probes.nfc.accepted && isListed(probes.nfc.name.decomposedStringWithCanonicalMapping)
        let normalization: WebDAVVerifiedBehaviour.NameNormalization
        if nfdAsSent && nfcAsSent {
            normalization = .preserved
        } else if nfdAsNFC && nfcAsSent {
            normalization = .nfc
        } else if nfdAsSent && nfcAsNFD {
            normalization = .nfd
        } else {
            normalization = .lost
        }
        verdict.nameNormalization = normalization
        // A refused probe name tells nothing of case: the verdict stays unknown (and the
        // capabilities then do not claim case-sensitivity).
        if probes.mixedCase.accepted {
            if !probes.swappedCaseFound {
                verdict.nameCase = .sensitive
            } else {
                verdict.nameCase = isListed(probes.mixedCase.name) ? .insensitive : .folded
            }
        }
    }

    /// Cuts a `PUT` onto a new name and one over an existing file after part of their declared
    /// bodies: whether anything is left under the new name, or the old content changed.
    private func keepsPartialUploads(in folder: ItemPath) async -> Bool? {
        guard let kept = try? folder.appending("kept.txt"), let fresh = try? folder.appending("partial.bin"),
            let put = await send(.PUT, kept, body: "kept"), (200..<300).contains(put)
        else { return nil }
        await sendCut(kept)
        await sendCut(fresh)
        // A server that notices the cut late gets a moment to act on it.
        try? await Task.sleep(for: .milliseconds(200))
        let (keptStatus, keptBody) = await get(kept)
        guard let keptStatus, let freshStatus = await send(.GET, fresh) else { return nil }
        return !(keptStatus == 200 && keptBody == "kept") || freshStatus != 404
    }

    /// A `PUT` that declares 64 KiB, sends 16 KiB, waits a moment for the server to start on it,
    /// and fails (the connection is closed under the request).
    private func sendCut(_ path: ItemPath) async {
        let source = CutSource(sent: 16 << 10, declared: 64 << 10)
        var request = TransportRequest(method: .PUT, url: provider.mapper.url(for: path), body: .source(source))
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        guard let response = try? await provider.executor.execute(request) else { return }
        await response.body.discard()
    }

    /// `GET` of a small file: its status and text, `nil` when no answer came.
    private func get(_ path: ItemPath) async -> (Int?, String?) {
        let request = TransportRequest(method: .GET, url: provider.mapper.url(for: path))
        guard let response = try? await provider.executor.execute(request) else { return (nil, nil) }
        guard let body = try? await response.body.collect(upTo: 1 << 20) else { return (response.status, nil) }
        return (response.status, String(buffer: body))
    }

    /// Sends one request and returns its status, or `nil` when it failed to get an answer.
    private func send(
        _ method: HTTPMethod, _ path: ItemPath, folder: Bool = false, headers: HTTPHeaders = [:], body: String? = nil
    ) async -> Int? {
        var request = TransportRequest(method: method, url: provider.mapper.url(for: path, folder: folder), headers: headers)
        if let body {
            request.headers.add(name: "Content-Type", value: "text/plain")
            request.body = .bytes(ByteBuffer(string: body))
        }
        guard let response = try? await provider.executor.execute(request) else { return nil }
        await response.body.discard()
        return response.status
    }

    private static func token() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
}

/// An upload body that breaks off: `sent` bytes of a declared `declared`, then an error.
private struct CutSource: UploadSource {
    struct Cut: Error {}
    let sent: Int
    let declared: Int64
    var length: Int64? { declared }
    var isReplayable: Bool { false }

    func makeStream() throws -> UploadStream {
        let delivered = NIOLockedValueBox(false)
        let sent = sent
        return UploadStream {
            if delivered.withLockedValue({ done in defer { done = true }; return done }) {
                try await Task.sleep(for: .milliseconds(100))
                throw Cut()
            }
            return ByteBuffer(repeating: UInt8(ascii: "x"), count: sent)
        }
    }
}
