import Foundation
import ProviderAPI

/// Creating folders.
enum FolderCases {
    static var all: [ConformanceCase] { [create, missingParent] }

    static let create = ConformanceCase(
        "folders.create", summary: "createFolder returns the new folder, nested folders included"
    ) { context in
        let outer = try await context.makeFolder("outer")
        try context.expect(outer.kind == .folder && outer.path == (try context.path("outer")), "createFolder returned \(outer.kind) \(outer.path)")
        let inner = try await context.makeFolder("inner", in: outer.path)
        try context.expect(inner.path == (try outer.path.appending("inner")), "createFolder returned the path \(inner.path)")
        let stat = try await context.provider.item(at: inner.path)
        try context.expect(stat.kind == .folder, "item(at:) of a new folder is a \(stat.kind)")
        let listed = try await context.children(of: outer.path)
        try context.expect(listed.map(\.name) == ["inner"] && listed.allSatisfy(\.isFolder), "the outer folder lists \(listed.map(\.name))")
    }

    static let missingParent = ConformanceCase(
        "folders.missingParent", summary: "createFolder or upload below a missing folder throws .notFound or .conflict"
    ) { context in
        let missing = try context.path("no-such-parent")
        let folderError = try await context.expectError([.notFound, .conflict], "createFolder in a missing parent") {
            try await context.makeFolder("child", in: missing)
        }
        let uploadError = try await context.expectError([.notFound, .conflict], "upload into a missing folder") {
            try await context.upload(text: "x", as: "child.txt", in: missing)
        }
        try await context.expectMissing(missing, "after writes below it failed")
        context.note("createFolder: .\(folderError.code), upload: .\(uploadError.code)")
    }
}
