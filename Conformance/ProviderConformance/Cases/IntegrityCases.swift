import Foundation
import ProviderAPI
import ProviderKit

/// A download is never accepted short.
enum IntegrityCases {
    static var all: [ConformanceCase] { [truncatedWithoutLength] }

    static let truncatedWithoutLength = ConformanceCase(
        "integrity.truncatedWithoutLength",
        summary: """
            A download whose answer carries no Content-Length and ends early is refused with .network or .integrity, \
            or completed by an automatic resume with the exact content; it is never accepted short
            """
    ) { context in
        let size: Int64 = 256 << 10
        let cut: Int64 = 100_003
        let source = try context.makeRandomFile(named: "truncated.source", size: size)
        let uploaded = try await context.provider.upload(
            try FileSource(url: source.url), to: context.folder, name: "truncated.bin", options: UploadOptions())

        // Every answer loses its length; the first body longer than the cut ends there, cleanly,
        // as a length-less answer whose connection closes does. Metadata answers are shorter and pass.
        let (faulty, faults) = try await context.makeFaultInjectingProvider()
        faults.inject { _ in .truncateBody(after: cut) }
        let local = context.localURL("truncated.bin")
        let before = faults.appliedFaults
        let outcome = await TransportChecks.outcome {
            try await faulty.download(uploaded.path, to: FileSink(url: local), options: DownloadOptions())
        }
        try TransportChecks.expectUsed(faults, context: context)
        try TransportChecks.expectApplied(faults, since: before, "the truncation of the download after \(cut) bytes")

        switch outcome {
        case .success:
            let got = LocalFile.size(of: local)
            try context.expect(got == size, "the truncated download was accepted with \(got.map { String($0) } ?? "no file of") of \(size) bytes")
            let digest = try LocalFile.sha256(of: local)
            try context.expect(digest == source.sha256, "the download completed after the cut has SHA-256 \(digest), the original \(source.sha256)")
            context.note("completed by an automatic resume (\(faults.requests.count) requests)")
        case .failure(let thrown):
            guard let error = thrown as? ProviderError else {
                throw ConformanceFailure("the truncated download threw \(type(of: thrown)): \(thrown), not ProviderError")
            }
            try context.expect(
                error.code == .network || error.code == .integrity, "the truncated download threw \(error), not .network or .integrity")
            try context.expect(!FileManager.default.fileExists(atPath: local.path), "the refused download left a file under the final name")
            context.note("refused: \(error.code)")
        }
    }
}
