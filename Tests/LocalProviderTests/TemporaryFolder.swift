import Foundation

/// A fresh folder under the system's temporary folder, removed when the value goes.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-local-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `relative` inside the folder.
    func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }
}
