import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit
import Logging

/// Finds out, by writing on scratch names, what a WebDAV server really does where its headers
/// cannot tell, and proves each name rule on the route that will use it.
///
/// What is proved where:
/// - **Preconditions** (`PUT`): whether it refuses `If-None-Match: *` over an existing file, a
///   stale `If-Match` and a stale `If`, accepts the current etag; whether `MKCOL` refuses an
///   existing folder; whether a listing shows dot-files and carries etags and content types.
/// - **Partial bodies** (`PUT` cut short): whether what arrived stays under the name (a partial
///   new file, or an old file's content destroyed). That chooses the upload route: one `PUT`,
///   or a temporary sibling then `MOVE` (``WebDAVServerProfile/uploadsThroughTemporary``).
/// - **Names, on every route** (``WebDAVVerifiedBehaviour/NameRoute``): the whole probe set
///   (``nameProbes``: one name per character of ``nameCharacters``, a literal `%41` that a server
///   decoding twice turns into `A`, a leading space, a trailing space, a trailing dot, NFD, NFC,
///   mixed case, a name of 255 bytes) is created by `PUT`, by `PUT` of a temporary then `MOVE`
///   (`Overwrite: F`, as uploads and `move` send it), by `COPY`, and as folders by `MKCOL`, each
///   route in a folder of its own read back by one listing. A name counts as kept only when that
///   listing shows it byte for byte; anything else (refused, or stored under another name, such
///   as a `MOVE` whose `Destination` the server decodes and cuts at `?` or `;`) makes its class
///   refused for every route, so `NameEncoder` maps it. A route that loses the 255-byte name is
///   tried again with shorter ones, which give the longest name declared.
/// - **Lookups**, on the route uploads take: a file written as `strata-Case-Probe.txt` is asked
///   for (`PROPFIND`, depth 0) as `STRATA-cASE-pROBE.TXT` (found: case is folded), and an NFD name
///   kept as sent is asked for in its NFC spelling (found: the two spellings are one name,
///   `normalizationInsensitive`).
/// - **Folder overwrite**: a folder `MOVE`d, and one `COPY`d, with `Overwrite: T` onto an existing
///   folder replaces it, or merges into it.
/// - **Ranges** (`GET`): a probe file of 100 known bytes asked for `bytes=10-19`, `bytes=37-`,
///   `bytes=99-` and `bytes=-10` answers each with a `206`, the exact `Content-Range` and the
///   right bytes; only then are range and resumed downloads declared.
///
/// It works in a fresh folder `strata-verify-<random>` inside the folder of the first write,
/// which it removes at the end: about 170 small requests, several at once, once per server and
/// user (``WebDAVProvider`` remembers the verdict in the process, and in a `ServerFactStore` where
/// one is configured). A server that does not let it create that folder leaves every verdict
/// unknown, and the provider keeps its conservative guesses.
package struct WebDAVCapabilityVerifier: Sendable {
    typealias NameRoute = WebDAVVerifiedBehaviour.NameRoute
    let provider: WebDAVProvider

    /// A verifier that sends its requests through `provider`.
    package init(provider: WebDAVProvider) { self.provider = provider }

    /// Runs the probes inside `parent`; `nil` when they could not run there.
    package func verify(in parent: ItemPath) async -> WebDAVVerifiedBehaviour? {
        guard let folder = try? parent.appending("strata-verify-\(Self.token())"),
            let file = try? folder.appending(".strata-probe.txt")
        else { return nil }
        let made = await send(.MKCOL, folder, folder: true)
        guard let made, (200..<300).contains(made) else {
            provider.logger.debug(
                "server behaviour not verified: no folder could be made for the probes",
                metadata: ["parent": "\(parent)", "status": "\(made.map { String($0) } ?? "none")"])
            return nil
        }
        let verdict = await probe(folder: folder, file: file)
        _ = await send(.DELETE, folder, folder: true)
        provider.logger.debug(
            "server behaviour verified", metadata: ["in": "\(parent)", "verdict": "\(verdict.map { String(describing: $0) } ?? "none")"])
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

        // The listing says whether dot-files are listed, and what a file's entry carries.
        guard let children = try? await provider.propfind(folder, depth: "1", body: DAVRequestBodies.propfindItems, folder: true)
        else { return nil }
        let listed = children.first { (try? provider.mapper.path(forHref: $0.href)) == file }
        verdict.listsDotFiles = listed != nil
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
        // RFC 4918 9.7.1: a PUT below a missing folder is 409; some servers make the folders.
        guard let missing = try? folder.appending("missing-\(Self.token())"), let inside = try? missing.appending("x.txt"),
            let below = await send(.PUT, inside, body: "x")
        else { return nil }
        verdict.putCreatesParents = (200..<300).contains(below)

        // Names on every route; the lookups on the route uploads take there.
        guard let names = await proveNames(in: folder, uploadRoute: partial ? .move : .put) else { return nil }
        names.apply(to: &verdict)

        guard let merges = await mergesOnFolderOverwrite(.MOVE, in: folder),
            let copyMerges = await mergesOnFolderOverwrite(.COPY, in: folder)
        else { return nil }
        verdict.mergesOnFolderOverwrite = merges
        verdict.copyMergesOnFolderOverwrite = copyMerges
        guard let problems = await rangeProblems(in: folder) else { return nil }
        verdict.servesRanges = problems.isEmpty
        verdict.rangeProblems = problems
        return verdict
    }

    /// `MOVE`s (or `COPY`s) a folder holding `a.txt` onto one holding `b.txt` with `Overwrite: T`:
    /// RFC 4918 9.8.4 and 9.9.3 replace the destination, so `b.txt` is gone; a server that merges
    /// (lighttpd on `MOVE`) keeps it. A refused request counts as not replacing.
    private func mergesOnFolderOverwrite(_ method: HTTPMethod, in folder: ItemPath) async -> Bool? {
        let tag = method.rawValue.lowercased()
        guard let source = try? folder.appending("strata-src-\(tag)"), let target = try? folder.appending("strata-dst-\(tag)"),
            let inSource = try? source.appending("a.txt"), let inTarget = try? target.appending("b.txt"),
            let arrivedPath = try? target.appending("a.txt")
        else { return nil }
        for (path, isFolder) in [(source, true), (inSource, false), (target, true), (inTarget, false)] {
            guard let status = await send(isFolder ? .MKCOL : .PUT, path, folder: isFolder, body: isFolder ? nil : "x"),
                (200..<300).contains(status)
            else { return nil }
        }
        let headers: HTTPHeaders = [
            "Destination": provider.mapper.url(for: target, folder: true).absoluteString, "Overwrite": "T", "Depth": "infinity",
        ]
        guard let status = await send(method, source, folder: true, headers: headers) else { return nil }
        guard (200..<300).contains(status) else { return true }
        guard let left = await send(.GET, inTarget), let arrived = await send(.GET, arrivedPath) else { return nil }
        return left != 404 || arrived != 200
    }

    /// The characters checked in names: those some file systems or servers refuse, those URLs
    /// give a meaning (`#`, `%`, `?`, `;`, `&`), and `+` (a space to a server that decodes paths
    /// as form fields).
    package static let nameCharacters: [Character] = ["\\", ":", "*", "?", "\"", "<", ">", "|", "#", "%", ";", "&", "+"]

    /// One name written on every route, and the label of what it checks (a character of
    /// ``nameCharacters``, `%41`, `leading space`, `trailing space`, `trailing dot`, `NFD`, `NFC`,
    /// `mixed case` or `long name`).
    package struct NameProbe: Sendable, Hashable {
        /// What the name checks; the label reported in ``WebDAVVerifiedBehaviour/namesNotKept``.
        package var label: String
        /// The name written.
        package var name: String
    }

    /// A name with upper- and lower-case letters, whose case-swapped spelling
    /// (``swappedCase``) is asked for after it was written.
    static let mixedCase = "strata-Case-Probe.txt"
    /// ``mixedCase`` with every letter's case swapped (`STRATA-cASE-pROBE.TXT`).
    static var swappedCase: String {
        String(mixedCase.map { $0.isUppercase ? Character($0.lowercased()) : Character($0.uppercased()) })
    }
    /// The same word in NFD (`e` + U+0301) and in NFC (U+00E9), under different stems.
    static let nfdName = "strata-nfd-cafe\u{301}"
    static let nfcName = "strata-nfc-caf\u{E9}"

    /// A name of exactly `bytes` UTF-8 bytes (ASCII).
    static func longName(_ bytes: Int) -> String {
        let stem = "strata-long-\(bytes)-"
        return stem + String(repeating: "x", count: max(0, bytes - stem.utf8.count))
    }

    /// The names written on every route: first a plain one (`plain`), which shows whether the
    /// route works at all.
    package static var nameProbes: [NameProbe] {
        var probes = [NameProbe(label: "plain", name: "strata-plain.txt")]
        probes += nameCharacters.enumerated().map { index, character in
            NameProbe(label: String(character), name: "strata-c\(index)-a\(character)b")
        }
        probes += [
            NameProbe(label: "%41", name: "strata-e-a%41b"),
            NameProbe(label: "leading space", name: " strata-lead"),
            NameProbe(label: "trailing space", name: "strata-trail "),
            NameProbe(label: "trailing dot", name: "strata-dot."),
            NameProbe(label: "NFD", name: nfdName),
            NameProbe(label: "NFC", name: nfcName),
            NameProbe(label: "mixed case", name: mixedCase),
            NameProbe(label: "long name", name: longName(255)),
        ]
        return probes
    }

    /// The shorter names tried on a route that lost the 255-byte one.
    static let shorterNames = [200, 143, 100, 64]

    /// What one route did with the probe names.
    struct RouteFindings {
        var notKept: Set<String> = []
        var normalization: WebDAVVerifiedBehaviour.NameNormalization = .preserved
        var longest = 255
    }

    /// What the routes and the lookups showed, before it becomes the verdict.
    struct NameFindings {
        var routes: [NameRoute: RouteFindings] = [:]
        var nameCase: WebDAVVerifiedBehaviour.NameCase?
        var normalizationInsensitive = false

        /// The verdicts: the union of what every route did not keep. A route that did not keep
        /// even the plain name does not work on this server (a `COPY` refused whatever the name,
        /// say): it tells nothing of names, and is left out (its own entry says `plain`).
        func apply(to verdict: inout WebDAVVerifiedBehaviour) {
            let working = routes.filter { !$0.value.notKept.contains("plain") }
            let lost = working.values.reduce(into: Set<String>()) { $0.formUnion($1.notKept) }
            var refused = Set(WebDAVCapabilityVerifier.nameCharacters.map(String.init).filter(lost.contains))
            // A literal escape decoded again: `%` itself is mapped, so no escape reaches the server.
            if lost.contains("%41") { refused.insert("%") }
            verdict.refusedNameCharacters = refused
            verdict.allowsLeadingSpace = !lost.contains("leading space")
            verdict.allowsTrailingSpace = !lost.contains("trailing space")
            verdict.allowsTrailingDot = !lost.contains("trailing dot")
            verdict.maxNameBytes = working.values.map(\.longest).min() ?? 255
            let forms = Set(working.values.map(\.normalization))
            verdict.nameNormalization = forms.count == 1 ? forms.first : .lost
            verdict.nameCase = nameCase
            verdict.normalizationInsensitive = normalizationInsensitive
            verdict.namesNotKept = routes.mapValues(\.notKept)
        }
    }

    /// Writes ``nameProbes`` on every route, each in a folder of its own inside `folder`, reads
    /// each folder back with one listing, and makes the case and normalisation lookups on
    /// `uploadRoute`; `nil` when a route's folder could not be made or listed.
    private func proveNames(in folder: ItemPath, uploadRoute: NameRoute) async -> NameFindings? {
        var findings = NameFindings()
        let probes = Self.nameProbes
        guard let copySource = try? folder.appending("strata-copy-source.txt"),
            let made = await send(.PUT, copySource, body: ""), (200..<300).contains(made)
        else { return nil }
        for route in NameRoute.allCases {
            guard let routeFolder = try? folder.appending("names-\(route.rawValue)"),
                let accepted = await create(probes.map(\.name), route: route, in: routeFolder, copySource: copySource),
                let listed = await listedNames(routeFolder)
            else { return nil }
            var found = Self.judge(probes, accepted: accepted, listed: listed)
            if found.notKept.contains("long name"), !found.notKept.contains("plain") {
                guard let longest = await longestKept(route: route, in: folder, copySource: copySource) else { return nil }
                found.longest = longest
            }
            findings.routes[route] = found
        }
        // The lookups where uploads write, or by PUT where that route does not work at all.
        var lookupRoute = uploadRoute
        if findings.routes[lookupRoute]?.notKept.contains("plain") != false { lookupRoute = .put }
        guard let lookupFolder = try? folder.appending("names-\(lookupRoute.rawValue)"), let written = findings.routes[lookupRoute],
            let lookups = await lookUp(in: lookupFolder, route: written)
        else { return nil }
        (findings.nameCase, findings.normalizationInsensitive) = lookups
        return findings
    }

    /// Which names a route kept: those accepted and listed byte for byte (scalar by scalar: Swift's
    /// `==` would take NFC and NFD spellings as equal); and what it did to the NFD and NFC names.
    static func judge(_ probes: [NameProbe], accepted: [Bool], listed: [String]) -> RouteFindings {
        let shown = Set(listed.map { Array($0.unicodeScalars) })
        func isListed(_ name: String) -> Bool { shown.contains(Array(name.unicodeScalars)) }
        var findings = RouteFindings()
        var kept: [String: Bool] = [:]
        for (probe, accepted) in zip(probes, accepted) {
            let isKept = accepted && isListed(probe.name)
            kept[probe.label] = accepted
            if !isKept { findings.notKept.insert(probe.label) }
        }
        let nfdAccepted = kept["NFD"] ?? false
        let nfcAccepted = kept["NFC"] ?? false
        let nfdAsSent = nfdAccepted && isListed(nfdName)
        let nfdAsNFC = nfdAccepted && isListed(nfdName.precomposedStringWithCanonicalMapping)
        let nfcAsSent = nfcAccepted && isListed(nfcName)
        let nfcAsNFD = nfcAccepted && isListed(nfcName.decomposedStringWithCanonicalMapping)
        if nfdAsSent && nfcAsSent {
            findings.normalization = .preserved
        } else if nfdAsNFC && nfcAsSent {
            findings.normalization = .nfc
        } else if nfdAsSent && nfcAsNFD {
            findings.normalization = .nfd
        } else {
            findings.normalization = .lost
        }
        return findings
    }

    /// The case and normalisation lookups in a route's folder after its names were written: the
    /// case-swapped spelling of ``mixedCase``, and the NFC spelling of ``nfdName`` where the NFD
    /// one was kept as sent.
    private func lookUp(in folder: ItemPath, route: RouteFindings) async -> (WebDAVVerifiedBehaviour.NameCase?, Bool)? {
        func found(_ name: String) async -> Bool? {
            guard let path = try? folder.appending(name),
                let status = await send(.PROPFIND, path, headers: ["Depth": "0"]),
                status == 404 || (200..<300).contains(status)
            else { return nil }
            return status != 404
        }
        var nameCase: WebDAVVerifiedBehaviour.NameCase?
        // A refused probe name tells nothing of case: the verdict stays unknown (and the
        // capabilities then do not claim case-sensitivity).
        let mixedListed = !route.notKept.contains("mixed case")
        if mixedListed {
            guard let swapped = await found(Self.swappedCase) else { return nil }
            nameCase = swapped ? .insensitive : .sensitive
        } else if let original = await found(Self.mixedCase), original {
            guard let swapped = await found(Self.swappedCase) else { return nil }
            nameCase = swapped ? .folded : .sensitive
        }
        var insensitive = false
        if !route.notKept.contains("NFD") {
            guard let other = await found(Self.nfdName.precomposedStringWithCanonicalMapping) else { return nil }
            insensitive = other
        }
        return (nameCase, insensitive)
    }

    /// The longest of ``shorterNames`` that `route` keeps as sent (in a folder of its own), or
    /// half the shortest when it keeps none of them.
    private func longestKept(route: NameRoute, in folder: ItemPath, copySource: ItemPath) async -> Int? {
        guard let routeFolder = try? folder.appending("long-\(route.rawValue)") else { return nil }
        let names = Self.shorterNames.map(Self.longName)
        guard let accepted = await create(names, route: route, in: routeFolder, copySource: copySource),
            let listed = await listedNames(routeFolder)
        else { return nil }
        let shown = Set(listed.map { Array($0.unicodeScalars) })
        let kept = zip(Self.shorterNames, zip(names, accepted)).filter { $1.1 && shown.contains(Array($1.0.unicodeScalars)) }
        return kept.map(\.0).max() ?? (Self.shorterNames.min() ?? 64) / 2
    }

    /// Makes `folder` and creates each of `names` in it as `route` does, several at once;
    /// whether each was accepted (no answer counts as refused), or `nil` when `folder` could not be made.
    private func create(_ names: [String], route: NameRoute, in folder: ItemPath, copySource: ItemPath) async -> [Bool]? {
        let made = await send(.MKCOL, folder, folder: true)
        guard let made, (200..<300).contains(made) else { return nil }
        return await Self.concurrently(names.count) { [self] index in
            await create(names[index], index: index, route: route, in: folder, copySource: copySource)
        }
    }

    /// Creates one name as `route` does: `PUT`; `PUT` of a temporary sibling then `MOVE` with
    /// `Overwrite: F` (as ``WebDAVProvider`` uploads through a temporary); `COPY` of `copySource`
    /// with `Overwrite: F`; `MKCOL`.
    private func create(_ name: String, index: Int, route: NameRoute, in folder: ItemPath, copySource: ItemPath) async -> Bool {
        guard let path = try? folder.appending(name) else { return false }
        func ok(_ status: Int?) -> Bool { status.map { (200..<300).contains($0) } ?? false }
        switch route {
        case .put:
            return ok(await send(.PUT, path, body: ""))
        case .mkcol:
            return ok(await send(.MKCOL, path, folder: true))
        case .copy:
            let headers: HTTPHeaders = [
                "Destination": provider.mapper.url(for: path).absoluteString, "Overwrite": "F", "Depth": "infinity",
            ]
            return ok(await send(.COPY, copySource, headers: headers))
        case .move:
            guard let temporary = try? folder.appending(".strata-upload-\(index).tmp"), ok(await send(.PUT, temporary, body: "")) else {
                return false
            }
            let headers: HTTPHeaders = ["Destination": provider.mapper.url(for: path).absoluteString, "Overwrite": "F"]
            return ok(await send(.MOVE, temporary, headers: headers))
        }
    }

    /// The names a `Depth: 1` listing of `folder` shows, as the provider reads hrefs.
    private func listedNames(_ folder: ItemPath) async -> [String]? {
        guard let children = try? await provider.propfind(folder, depth: "1", body: DAVRequestBodies.propfindItems, folder: true)
        else { return nil }
        return children.compactMap { try? provider.mapper.path(forHref: $0.href) }.filter { $0 != folder }.map(\.name)
    }

    /// Runs `body` for `0..<count`, at most `width` at a time; the results in order.
    static func concurrently<T: Sendable>(_ count: Int, width: Int = 6, _ body: @escaping @Sendable (Int) async -> T) async -> [T] {
        await withTaskGroup(of: (Int, T).self) { group in
            var results = [T?](repeating: nil, count: count)
            var next = 0
            while next < min(width, count) {
                let index = next
                group.addTask { (index, await body(index)) }
                next += 1
            }
            while let (index, value) = await group.next() {
                results[index] = value
                if next < count {
                    let index = next
                    group.addTask { (index, await body(index)) }
                    next += 1
                }
            }
            return results.compactMap { $0 }
        }
    }

    /// The content of the range probe file: 100 bytes, no two windows of it alike.
    static let rangeContent: [UInt8] = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    /// The ranges asked of the probe file, and the bytes each must answer.
    static let rangeRequests: [(header: String, bytes: ClosedRange<Int>)] = [
        ("bytes=10-19", 10...19), ("bytes=37-", 37...99), ("bytes=99-", 99...99), ("bytes=-10", 90...99),
    ]

    /// Writes the range probe file and asks it for ``rangeRequests``: what went wrong with each
    /// range not answered with a `206`, its exact `Content-Range` and its bytes (empty when all
    /// were); `nil` when the file could not be written.
    private func rangeProblems(in folder: ItemPath) async -> [String]? {
        guard let file = try? folder.appending("strata-range.bin") else { return nil }
        var put = TransportRequest(method: .PUT, url: provider.mapper.url(for: file))
        put.headers.add(name: "Content-Type", value: "application/octet-stream")
        put.body = .bytes(ByteBuffer(bytes: Self.rangeContent))
        guard let written = try? await provider.executor.execute(put) else { return nil }
        await written.body.discard()
        guard (200..<300).contains(written.status) else { return nil }
        let url = provider.mapper.url(for: file)
        let executor = provider.executor
        let answers = await Self.concurrently(Self.rangeRequests.count) { index in
            let (header, bytes) = Self.rangeRequests[index]
            return Self.rangeProblem(header: header, bytes: bytes, answer: await Self.fetch(url, range: header, executor: executor))
        }
        return answers.compactMap { $0 }
    }

    /// A `GET` of `url` with `Range: range`: status, `Content-Range` and body; `nil` when no answer came.
    private static func fetch(_ url: URL, range: String, executor: RequestExecutor) async -> (Int, String?, [UInt8])? {
        let request = TransportRequest(method: .GET, url: url, headers: ["Range": range])
        guard let response = try? await executor.execute(request) else { return nil }
        guard let body = try? await response.body.collect(upTo: 1 << 20) else { return nil }
        return (response.status, response.headers.first(name: "content-range"), Array(body.readableBytesView))
    }

    /// What is wrong with `answer` to a request for `bytes` (`header`), or `nil` when it is right.
    static func rangeProblem(header: String, bytes: ClosedRange<Int>, answer: (Int, String?, [UInt8])?) -> String? {
        guard let (status, contentRange, body) = answer else { return "\(header): no answer (the connection was dropped)" }
        guard status == 206 else { return "\(header): HTTP \(status), not 206" }
        let wanted = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(rangeContent.count)"
        guard let contentRange else { return "\(header): 206 without Content-Range" }
        let said = contentRange.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "  ", with: " ")
        guard said.lowercased() == wanted else { return "\(header): Content-Range \(said), not \(wanted)" }
        guard body == Array(rangeContent[bytes]) else {
            return "\(header): \(body.count) bytes that are not bytes \(bytes.lowerBound)-\(bytes.upperBound)"
        }
        return nil
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
