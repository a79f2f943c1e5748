import Foundation

/// Upload batches (`batchId-<uuid>`), each a map of file index → file.
struct BatchStore: Sendable {
    private(set) var batches: [String: [Int: UploadedFile]] = [:]

    mutating func create() -> String {
        let id = "batchId-" + UUID().uuidString.lowercased()
        batches[id] = [:]
        return id
    }

    func exists(_ id: String) -> Bool { batches[id] != nil }

    func file(_ id: String, _ index: Int) -> UploadedFile? { batches[id]?[index] }

    func files(_ id: String) -> [(Int, UploadedFile)]? {
        batches[id].map { $0.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    mutating func store(_ file: UploadedFile, batch id: String, index: Int) {
        batches[id]?[index] = file
    }

    mutating func removeFile(_ id: String, _ index: Int) -> Bool {
        batches[id]?.removeValue(forKey: index) != nil
    }

    @discardableResult
    mutating func drop(_ id: String) -> Bool {
        batches.removeValue(forKey: id) != nil
    }
}
