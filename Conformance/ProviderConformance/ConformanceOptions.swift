import Foundation
import ProviderAPI
import HTTPProviderKit
import ProviderTesting

/// How a ``ConformanceSuite`` runs.
///
/// ```swift
/// var options = ConformanceOptions()
/// options.caseFilter = ["listing", "names.emoji"]   // a group, and one case
/// ```
public struct ConformanceOptions: Sendable {
    /// The environment variable that turns on the large-file cases when set to `1`.
    package static let largeFilesEnvironmentKey = "STRATA_CONFORMANCE_LARGE"

    /// Whether to run the cases that move `largeFileSize` bytes (1 GiB by default).
    ///
    /// Off by default; always on when the environment has `STRATA_CONFORMANCE_LARGE=1`.
    public var largeFiles: Bool
    /// How many entries the paging case creates and lists (default 1050).
    public var pagingCount: Int
    /// The names of the cases, or of whole groups, to run; `nil` runs every case.
    public var caseFilter: Set<String>?
    /// The transport under the suite's `CountingTransport`.
    package var baseTransport: any HTTPTransport
    /// The size of the large-file round trip (default 1 GiB). The file is streamed from and to disk.
    package var largeFileSize: Int64
    /// The size of the multi-megabyte round trip (default 10 MiB).
    package var mediumFileSize: Int
    /// How many uploads run at once when a case creates many files (default 6).
    package var uploadConcurrency: Int
    /// How far the server's clock may be from this machine's when modified times are compared (default 5 s).
    package var allowedClockSkew: Duration
    /// How long cases wait for eventually consistent results, such as a search index or a change feed (default 15 s).
    package var settleTimeout: Duration
    /// The sizes at which the adapter under test changes its upload route (a chunk size, the length
    /// from which it uploads in chunks, a spool threshold), when it has any beside the defaults of
    /// Strata's adapters (all below `mediumFileSize`). `files.datedUploadsKeepContent` uploads
    /// one byte more than each, besides 0 bytes, 1000 bytes and `mediumFileSize` + 1. Empty by default.
    public var uploadThresholds: [Int64] = []

    /// Creates options.
    public init(
        largeFiles: Bool = false, pagingCount: Int = 1050, caseFilter: Set<String>? = nil,
        baseTransport: any HTTPTransport = AsyncHTTPClientTransport.shared, largeFileSize: Int64 = 1 << 30,
        mediumFileSize: Int = 10 << 20, uploadConcurrency: Int = 6, allowedClockSkew: Duration = .seconds(5),
        settleTimeout: Duration = .seconds(15)
    ) {
        self.largeFiles = largeFiles || ConformanceOptions.largeFilesRequestedByEnvironment
        self.pagingCount = max(2, pagingCount)
        self.caseFilter = caseFilter
        self.baseTransport = baseTransport
        self.largeFileSize = max(1, largeFileSize)
        self.mediumFileSize = max(1, mediumFileSize)
        self.uploadConcurrency = max(1, uploadConcurrency)
        self.allowedClockSkew = allowedClockSkew
        self.settleTimeout = settleTimeout
    }

    /// Whether the environment asks for the large-file cases (`STRATA_CONFORMANCE_LARGE=1`).
    package static var largeFilesRequestedByEnvironment: Bool {
        ProcessInfo.processInfo.environment[largeFilesEnvironmentKey] == "1"
    }

    /// Whether `conformanceCase` is selected by ``caseFilter``.
    package func selects(_ conformanceCase: ConformanceCase) -> Bool {
        guard let caseFilter else { return true }
        return caseFilter.contains(conformanceCase.name) || caseFilter.contains(conformanceCase.group)
    }
}
