import Foundation
import Testing

@testable import StrataCLI

@Suite("ls output formatting")
struct OutputFormatTests {
    @Test("dates are RFC 3339 in UTC, as ISO8601DateFormatter wrote them", arguments: [
        0, 1, 59, 86_399, 951_782_400, 1_700_000_000.75, 4_102_444_799, -1, -86_401,
    ] as [Double])
    func dates(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let reference = ISO8601DateFormatter()
        reference.formatOptions = [.withInternetDateTime]
        #expect(Output.date(date) == reference.string(from: date))
    }

    @Test("no date prints a dash")
    func noDate() {
        #expect(Output.date(nil) == "-")
        #expect(Output.size(nil) == "-")
    }

    @Test("sizes as String(format: \"%.1f\") wrote them", arguments: [
        0, 1, 1023, 1024, 1280, 1535, 1536, 10_240, 1_048_575, 1_048_576, 5_000_000_000, 1 << 50,
    ] as [Int64])
    func sizes(_ bytes: Int64) {
        let (value, unit) = ReferenceSize.scaled(bytes)
        let expected = unit == "B" ? "\(bytes) B" : String(format: "%.1f %@", value, unit)
        #expect(Output.size(bytes) == expected)
    }
}
