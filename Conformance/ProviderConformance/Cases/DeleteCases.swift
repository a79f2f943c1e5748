import Foundation
import ProviderAPI

/// Deleting files, trees and missing items.
enum DeleteCases {
    static var all: [ConformanceCase] { [file, tree, missing] }

    static let file = ConformanceCase(
        "delete.file", summary: "A deleted file is gone from item(at:) and from the listing"
    ) { context in
        let kept = try await context.upload(text: "keep", as: "keep.txt")
        let doomed = try await context.upload(text: "bye", as: "doomed.txt")
        try await context.provider.delete(doomed.path)
        try await context.expectMissing(doomed.path, "after delete")
        let names = try await context.children().map(\.name)
        try context.expect(names == [kept.name], "after delete the folder holds \(names)")
    }

    static let tree = ConformanceCase(
        "delete.tree", summary: "Deleting a non-empty folder removes everything below it"
    ) { context in
        let root = try await TreeFixture.make("tree", in: context.folder, context: context)
        try await context.provider.delete(root)
        try await context.expectMissing(root, "after deleting the tree")
        for file in TreeFixture.files {
            try await context.expectMissing(root.appending(try ItemPath(file.path)), "after deleting the tree")
        }
        try context.expect(try await context.children().isEmpty, "the case folder is not empty after deleting the tree")
    }

    static let missing = ConformanceCase(
        "delete.missing", summary: "Deleting a missing item throws .notFound"
    ) { context in
        let path = try context.path("never-there.txt")
        try await context.expectError(.notFound, "delete(\(path))") { try await context.provider.delete(path) }
    }
}
