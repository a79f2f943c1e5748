import Foundation
import ProviderAPI

/// Creates many small files with a few uploads at a time.
enum BulkUpload {
    /// Uploads a file for each of `names` into `folder`, each holding its own name,
    /// ``ConformanceOptions/uploadConcurrency`` at a time.
    static func run(names: [String], in folder: ItemPath, context: ConformanceContext) async throws {
        let provider = context.provider
        try await withThrowingTaskGroup(of: Void.self) { group in
            var iterator = names.makeIterator()
            func addNext() -> Bool {
                guard let name = iterator.next() else { return false }
                group.addTask {
                    _ = try await provider.upload(
                        DataSource(string: name), to: folder, name: name, options: UploadOptions(conflict: .fail))
                }
                return true
            }
            for _ in 0..<context.options.uploadConcurrency where !addNext() { break }
            while try await group.next() != nil {
                _ = addNext()
            }
        }
    }
}
