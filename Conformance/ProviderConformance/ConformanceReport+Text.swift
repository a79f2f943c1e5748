import Foundation

extension ConformanceReport {
    /// The report as a table, one line per case, ending in ``summaryLine``.
    ///
    /// ```text
    /// conformance of webdav http://127.0.0.1:8080/dav, started 2026-01-02T03:04:05Z, 41.2 s
    /// PASS  listing.paging          listing    3.10 s
    /// FAIL  names.question          names      0.20 s  notFound HTTP 404 GET /why?.txt
    /// SKIP  search.byName           search     0.00 s  provider does not declare .search
    /// conformance: 60 passed, 1 failed, 4 skipped
    /// ```
    public var text: String {
        let nameWidth = min(40, results.map(\.name.count).max() ?? 4)
        let groupWidth = min(16, results.map(\.group.count).max() ?? 4)
        var lines = ["conformance of \(subject), started \(startedAt.formatted(.iso8601)), \(seconds(durationSeconds))"]
        for result in results {
            var line = "\(label(result.outcome))  \(pad(result.name, nameWidth))  \(pad(result.group, groupWidth))  "
            line += pad(seconds(result.durationSeconds), 9, leading: true)
            var detail = result.outcome.detail.map { [$0] } ?? []
            detail += result.notes
            if !detail.isEmpty { line += "  " + detail.joined(separator: "; ") }
            lines.append(line.replacingOccurrences(of: "\n", with: " "))
        }
        lines.append(summaryLine)
        return lines.joined(separator: "\n")
    }

    private func label(_ outcome: CaseResult.Outcome) -> String {
        switch outcome {
        case .passed: return "PASS"
        case .failed: return "FAIL"
        case .skipped: return "SKIP"
        }
    }

    private func pad(_ text: String, _ width: Int, leading: Bool = false) -> String {
        guard text.count < width else { return text }
        let fill = String(repeating: " ", count: width - text.count)
        return leading ? fill + text : text + fill
    }

    private func seconds(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
