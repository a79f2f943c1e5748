import Foundation
import ProviderAPI
import ProviderKit

/// Calls outside the declared capabilities throw `.unsupported` without sending a request.
enum UnsupportedCases {
    static var all: [ConformanceCase] { [calls] }

    /// One call that needs a feature.
    struct Probe: Sendable {
        let feature: Capabilities.Features
        let label: String
        let call: @Sendable (ConformanceContext, ItemPath) async throws -> Void
    }

    static let probes: [Probe] = [
        Probe(feature: .move, label: "move") { context, file in
            _ = try await context.provider.move(file, to: try context.path("moved.txt"), options: TransferOptions())
        },
        Probe(feature: .copy, label: "copy") { context, file in
            _ = try await context.provider.copy(file, to: try context.path("copied.txt"), options: TransferOptions())
        },
        Probe(feature: .rangeDownload, label: "download(range:)") { context, file in
            _ = try await context.provider.download(file, to: MemorySink(), options: DownloadOptions(range: .bytes(0...0)))
        },
        Probe(feature: .resumeDownload, label: "download(resume:) with a partial file") { context, file in
            let sink = FileSink(url: context.localURL("resume.txt"), resumable: true)
            try Data("p".utf8).write(to: sink.partialURL)
            _ = try await context.provider.download(file, to: sink, options: DownloadOptions(resume: true))
        },
        Probe(feature: .preconditions, label: "upload(ifMatch:)") { context, file in
            try await context.upload(text: "y", as: file.name, options: UploadOptions(conflict: .overwrite, ifMatch: "\"stale\""))
        },
        Probe(feature: .preconditions, label: "download(ifMatch:)") { context, file in
            _ = try await context.provider.download(file, to: MemorySink(), options: DownloadOptions(ifMatch: "\"stale\""))
        },
        Probe(feature: .preconditions, label: "download(ifNoneMatch:)") { context, file in
            _ = try await context.provider.download(file, to: MemorySink(), options: DownloadOptions(ifNoneMatch: "\"stale\""))
        },
        Probe(feature: .search, label: "search") { context, _ in
            _ = try await context.provider.search(.nameContains("probe"), page: .first)
        },
        Probe(feature: .shares, label: "shares(of:)") { context, file in
            _ = try await context.provider.shares(of: file)
        },
        Probe(feature: .shares, label: "share") { context, file in
            _ = try await context.provider.share(file, with: ShareRequest(kind: .publicLink))
        },
        Probe(feature: .shares, label: "revoke") { context, file in
            try await context.provider.revoke(Share(id: "strata-conformance-probe", path: file, kind: .publicLink))
        },
        Probe(feature: .changes, label: "changes") { context, _ in
            _ = try await context.provider.changes(since: nil)
        },
        Probe(feature: .quota, label: "quota") { context, _ in
            _ = try await context.provider.quota()
        },
    ]

    /// Share kinds a provider with `.shares` may not offer, with a recipient for each.
    static let shareKinds: [(tag: ShareKind.Tag, kind: ShareKind)] = [
        (.publicLink, .publicLink), (.user, .user("strata-conformance-nobody")),
        (.group, .group("strata-conformance-nobody")), (.email, .email("nobody@example.invalid")),
    ]

    static let calls = ConformanceCase(
        "unsupported.calls",
        summary: "Every call whose feature is not declared throws .unsupported and sends no request"
    ) { context in
        let file = try await context.upload(text: "x", as: "probe.txt")
        var checked: [String] = []
        var failures: [String] = []
        func probe(_ label: String, _ call: () async throws -> Void) async {
            let before = context.transport.total
            var failure: String?
            do {
                try await call()
                failure = "\(label) succeeded"
            } catch let error as ProviderError where error.code == .unsupported {
            } catch {
                failure = "\(label) threw \(error), not .unsupported"
            }
            let sent = context.transport.total - before
            if sent != 0 { failure = (failure.map { $0 + "; " } ?? "") + "\(label) sent \(sent) request(s)" }
            if let failure { failures.append(failure) }
            checked.append(label)
        }
        for item in probes where !context.capabilities.supports(item.feature) {
            await probe(item.label) { try await item.call(context, file.path) }
        }
        if context.capabilities.supports(.shares) {
            for (tag, kind) in shareKinds where !context.capabilities.shareKinds.contains(tag) {
                await probe("share(.\(tag.rawValue))") { _ = try await context.provider.share(file.path, with: ShareRequest(kind: kind)) }
            }
        }
        try context.expect(failures.isEmpty, failures.joined(separator: "; "))
        try await context.expectContent(file.path, Array("x".utf8), "after the refused calls")
        context.note(checked.isEmpty ? "nothing to check: every probed feature is declared" : "checked \(checked.joined(separator: ", "))")
    }
}
