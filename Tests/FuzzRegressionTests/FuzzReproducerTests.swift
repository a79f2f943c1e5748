import Foundation
import ProviderAPI
import StrataFuzzTargets
import StrataTestSupport
import Testing

/// Replays every kept fuzz input through its target, as `strata-fuzz` would: each must be read
/// or refused with a `ProviderError`, never trap or break a target's promise.
@Suite("Fuzz reproducers")
struct FuzzReproducerTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // …/Tests/FuzzRegressionTests
        .deletingLastPathComponent()  // …/Tests
        .deletingLastPathComponent()  // the package root

    /// `Fuzz/Reproducers/<target>/`: crashes found by `scripts/fuzz`, and hostile shapes kept on purpose.
    static func reproducers(of target: FuzzTarget) -> [URL] {
        let folder = packageRoot.appendingPathComponent("Fuzz/Reproducers/\(target.rawValue)", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test("every target has a reproducer folder with inputs in it", arguments: FuzzTarget.allCases)
    func folderExists(target: FuzzTarget) {
        #expect(!Self.reproducers(of: target).isEmpty, "no inputs in Fuzz/Reproducers/\(target.rawValue)")
    }

    @Test("every kept input is read or refused, with no finding", arguments: FuzzTarget.allCases)
    func replay(target: FuzzTarget) throws {
        for file in Self.reproducers(of: target) {
            let data = try Data(contentsOf: file)
            let outcome = target.run(data)
            #expect(!outcome.isFinding, "\(target.rawValue)/\(file.lastPathComponent): \(outcome)")
        }
    }

    @Test("the recorded server answers in Tests/Fixtures give no finding in any target", arguments: FuzzTarget.allCases)
    func fixtures(target: FuzzTarget) throws {
        let folder = TestFixtures.root
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath } ?? []
        #expect(files.count > 100, "expected the recorded answers in \(folder.path)")
        for file in files {
            let data = try Data(contentsOf: file)
            let outcome = target.run(data)
            #expect(!outcome.isFinding, "\(target.rawValue) on \(file.lastPathComponent): \(outcome)")
        }
    }
}
