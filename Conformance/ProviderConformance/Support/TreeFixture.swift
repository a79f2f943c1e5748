import Foundation
import ProviderAPI

/// A small folder tree for move, copy and delete cases.
enum TreeFixture {
    /// The files of the tree, relative to its root, with their content.
    static let files: [(path: String, content: String)] = [
        ("top.txt", "top"), ("sub/inner.txt", "inner"), ("sub/deeper/deep.txt", "deep"),
    ]

    /// Creates the tree as `name` in `parent`, with an extra file holding `marker`; returns its root.
    @discardableResult
    static func make(_ name: String, in parent: ItemPath, marker: String = "", context: ConformanceContext) async throws -> ItemPath {
        let root = try await context.makeFolder(name, in: parent).path
        let sub = try await context.makeFolder("sub", in: root).path
        let deeper = try await context.makeFolder("deeper", in: sub).path
        try await context.upload(text: "top", as: "top.txt", in: root)
        try await context.upload(text: "inner", as: "inner.txt", in: sub)
        try await context.upload(text: "deep", as: "deep.txt", in: deeper)
        if !marker.isEmpty { try await context.upload(text: marker, as: "marker-\(marker).txt", in: root) }
        return root
    }

    /// Checks that `root` holds the tree made with `marker`, and nothing else at its top.
    static func expect(at root: ItemPath, marker: String = "", context: ConformanceContext) async throws {
        for file in files {
            try await context.expectContent(root.appending(try ItemPath(file.path)), Array(file.content.utf8))
        }
        var wanted = ["sub", "top.txt"]
        if !marker.isEmpty { wanted.append("marker-\(marker).txt") }
        let names = try await context.children(of: root).map(\.name).sorted()
        try context.expect(names == wanted.sorted(), "\(root) holds \(names), expected \(wanted.sorted())")
    }
}
