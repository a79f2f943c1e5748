import Foundation
import ProviderAPI

/// Server-side move and copy of files and folders, with and without overwrite.
///
/// Both operations share one set of cases, built for each with its feature and
/// what must remain at the source afterwards.
enum ServerTransferCases {
    /// Move or copy.
    struct Operation: Sendable {
        let name: String
        let feature: Capabilities.Features
        let keepsSource: Bool
        let call: @Sendable (any StorageProvider, ItemPath, ItemPath, TransferOptions) async throws -> Item

        static let move = Operation(name: "move", feature: .move, keepsSource: false) { try await $0.move($1, to: $2, options: $3) }
        static let copy = Operation(name: "copy", feature: .copy, keepsSource: true) { try await $0.copy($1, to: $2, options: $3) }
    }

    static var all: [ConformanceCase] { [Operation.move, .copy].flatMap(cases) }

    static func cases(_ op: Operation) -> [ConformanceCase] {
        [
            make(op, "file", "A file is \(op.name)d to a new name and into a subfolder") { context in
                let source = try await context.upload(text: "payload", as: "a.txt")
                let sub = try await context.makeFolder("sub").path
                let target = try context.path("b.txt")
                let result = try await op.call(context.provider, source.path, target, TransferOptions())
                try context.expect(result.path == target, "\(op.name) returned the path \(result.path), not \(target)")
                try context.expect(result.kind == .file, "\(op.name) returned a \(result.kind)")
                try await context.expectContent(target, Array("payload".utf8), "after \(op.name)")
                try await expectSource(op, source.path, Array("payload".utf8), context)
                let into = try sub.appending("c.txt")
                _ = try await op.call(context.provider, target, into, TransferOptions())
                try await context.expectContent(into, Array("payload".utf8), "after \(op.name) into a subfolder")
            },
            make(op, "folder", "A folder is \(op.name)d with all its content") { context in
                let source = try await TreeFixture.make("src", in: context.folder, context: context)
                let target = try context.path("dst")
                let result = try await op.call(context.provider, source, target, TransferOptions())
                try context.expect(result.path == target, "\(op.name) returned the path \(result.path), not \(target)")
                try context.expect(result.kind == .folder, "\(op.name) of a folder returned a \(result.kind)")
                try await TreeFixture.expect(at: target, context: context)
                if op.keepsSource {
                    try await TreeFixture.expect(at: source, context: context)
                } else {
                    try await context.expectMissing(source, "after move")
                }
            },
            make(op, "intoItself", "\(op.name) of a folder into itself or onto itself throws .invalidArgument and changes nothing") { context in
                let source = try await context.makeFolder("outer").path
                let inner = try await context.provider.createFolder(named: "inner", in: source).path
                for target in [source, try inner.appending("outer"), try source.appending("copy")] {
                    try await context.expectError(.invalidArgument, "\(op.name)(\(source) → \(target))") {
                        try await op.call(context.provider, source, target, TransferOptions(overwrite: true))
                    }
                }
                let left = try await context.provider.listAll(source).map(\.name)
                try context.expect(left == ["inner"], "after the refused \(op.name)s \(source) holds \(left), not [inner]")
                try await context.expectMissing(try inner.appending("outer"), "after the refused \(op.name)")
            },
            make(op, "fileNoOverwrite", "\(op.name) onto an existing file without overwrite throws .alreadyExists and changes nothing") { context in
                let source = try await context.upload(text: "source", as: "a.txt")
                let target = try await context.upload(text: "target", as: "b.txt")
                try await context.expectError(.alreadyExists, "\(op.name)(a.txt → b.txt) without overwrite") {
                    try await op.call(context.provider, source.path, target.path, TransferOptions(overwrite: false))
                }
                try await context.expectContent(target.path, Array("target".utf8), "after the refused \(op.name)")
                try await context.expectContent(source.path, Array("source".utf8), "after the refused \(op.name)")
            },
            make(op, "fileOverwrite", "\(op.name) onto an existing file with overwrite replaces it") { context in
                let source = try await context.upload(text: "source", as: "a.txt")
                let target = try await context.upload(text: "target", as: "b.txt")
                _ = try await op.call(context.provider, source.path, target.path, TransferOptions(overwrite: true))
                try await context.expectContent(target.path, Array("source".utf8), "after \(op.name) with overwrite")
                try await expectSource(op, source.path, Array("source".utf8), context)
            },
            make(op, "folderNoOverwrite", "\(op.name) onto an existing folder without overwrite throws .alreadyExists and changes nothing") { context in
                let source = try await TreeFixture.make("src", in: context.folder, marker: "source", context: context)
                let target = try await TreeFixture.make("dst", in: context.folder, marker: "target", context: context)
                try await context.expectError(.alreadyExists, "\(op.name)(src → dst) without overwrite") {
                    try await op.call(context.provider, source, target, TransferOptions(overwrite: false))
                }
                try await TreeFixture.expect(at: target, marker: "target", context: context)
                try await TreeFixture.expect(at: source, marker: "source", context: context)
            },
            make(op, "folderOverwrite", "\(op.name) onto an existing folder with overwrite replaces it") { context in
                let source = try await TreeFixture.make("src", in: context.folder, marker: "source", context: context)
                let target = try await TreeFixture.make("dst", in: context.folder, marker: "target", context: context)
                _ = try await op.call(context.provider, source, target, TransferOptions(overwrite: true))
                try await TreeFixture.expect(at: target, marker: "source", context: context)
                if op.keepsSource {
                    try await TreeFixture.expect(at: source, marker: "source", context: context)
                } else {
                    try await context.expectMissing(source, "after move")
                }
            },
            make(op, "missingSource", "\(op.name) of a missing source throws .notFound") { context in
                let missing = try context.path("missing.txt")
                try await context.expectError(.notFound, "\(op.name)(missing.txt)") {
                    try await op.call(context.provider, missing, try context.path("target.txt"), TransferOptions())
                }
                try await context.expectMissing(try context.path("target.txt"), "after a failed \(op.name)")
            },
        ]
    }

    private static func make(
        _ op: Operation, _ name: String, _ summary: String, _ body: @escaping ConformanceCase.Body
    ) -> ConformanceCase {
        ConformanceCase("\(op.name).\(name)", requires: op.feature, summary: summary, body: body)
    }

    private static func expectSource(_ op: Operation, _ source: ItemPath, _ bytes: [UInt8], _ context: ConformanceContext) async throws {
        if op.keepsSource {
            try await context.expectContent(source, bytes, "(the source, after copy)")
        } else {
            try await context.expectMissing(source, "after move")
        }
    }
}
