import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

/// Records the progress reports of one transfer and checks them.
final class ProgressRecorder: Sendable {
    private let reports = NIOLockedValueBox<[TransferProgress]>([])

    /// The handler to give the transfer.
    var handler: ProgressHandler {
        { [reports] progress in reports.withLockedValue { $0.append(progress) } }
    }

    /// Everything reported so far.
    var all: [TransferProgress] { reports.withLockedValue { $0 } }

    /// Why the reports are wrong for a transfer of `size` bytes, or `nil` if they are right:
    /// at least one report, `completed` never decreasing nor passing the size, the last at the size,
    /// and every known `expected` equal to the size.
    func problem(size: Int64) -> String? {
        let reports = all
        guard let last = reports.last else { return "no progress was reported" }
        var previous: Int64 = -1
        for (index, report) in reports.enumerated() {
            if report.completed < previous {
                return "progress went back from \(previous) to \(report.completed) at report \(index + 1) of \(reports.count)"
            }
            if report.completed > size {
                return "progress reported \(report.completed) bytes of a \(size)-byte file"
            }
            if let expected = report.expected, expected != size {
                return "progress expected \(expected) bytes, the file has \(size)"
            }
            previous = report.completed
        }
        if last.completed != size {
            return "the last progress report says \(last.completed) bytes, the file has \(size)"
        }
        return nil
    }
}
