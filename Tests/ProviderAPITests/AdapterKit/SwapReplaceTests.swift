import Foundation
import HTTPProviderKit
import ProviderAPI
import Testing

// Written as an outside adapter author would: plain imports, public API only.

/// A scripted file server whose move refuses a taken name (as copyparty's does): files by path,
/// every operation recorded, and failures scripted for the operations named.
private actor RefusingMoveServer {
    var files: [String: String]
    var folders: Set<String> = []
    private(set) var log: [String] = []
    /// Operations to fail (`move <from> -> <to>`, `delete <path>`, with `*` for an aside name),
    /// each with whether the operation is made before the error (an answer lost on the way).
    private var failures: [(operation: String, made: Bool)] = []

    init(files: [String: String]) { self.files = files }

    func fail(_ operation: String, made: Bool = false) { failures.append((operation, made)) }

    /// `path` with an aside name written `*`, so tests can name it before it is picked.
    private func pattern(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { $0.hasPrefix(".strata-replaced-") ? "*" : String($0) }.joined(separator: "/")
    }

    private func scripted(_ operation: String) -> (made: Bool, error: ProviderError)? {
        guard let index = failures.firstIndex(where: { $0.operation == operation }) else { return nil }
        let failure = failures.remove(at: index)
        return (failure.made, ProviderError(failure.made ? .network : .forbidden, "scripted: \(operation)"))
    }

    func rename(_ from: ItemPath, _ to: ItemPath) throws {
        let operation = "move \(pattern(from.description)) -> \(pattern(to.description))"
        log.append(operation)
        let failure = scripted(operation)
        if let failure, !failure.made { throw failure.error }
        guard let bytes = files[from.description] else { throw ProviderError(.notFound, "\(from) does not exist") }
        guard files[to.description] == nil, !folders.contains(to.description) else {
            throw ProviderError(.alreadyExists, "\(to) already exists")
        }
        files[from.description] = nil
        files[to.description] = bytes
        if let failure { throw failure.error }
    }

    func lookUp(_ path: ItemPath) -> Item? {
        if folders.contains(path.description) { return Item(path: path, kind: .folder) }
        return files[path.description].map { _ in Item(path: path, kind: .file) }
    }

    func remove(_ path: ItemPath) throws {
        let operation = "delete \(pattern(path.description))"
        log.append(operation)
        if let failure = scripted(operation) { throw failure.error }
        files[path.description] = nil
    }

    /// The kit's three closures on this server.
    nonisolated var move: SwapReplace.Move { { from, to in try await self.rename(from, to) } }
    nonisolated var find: SwapReplace.Find { { path in await self.lookUp(path) } }
    nonisolated var delete: SwapReplace.Delete { { path in try await self.remove(path) } }
}

private let target: ItemPath = "/docs/a.txt"
private let staged: ItemPath = "/docs/.strata-upload-1.tmp"
private let executor = RequestExecutor(transport: HangingUploadServer(), retry: .none)

@Suite("Adapter kit: SwapReplace")
struct SwapReplaceTests {
    @Test("the old file goes aside, the new one in, the aside is deleted; its name says what it was")
    func replaces() async throws {
        let server = RefusingMoveServer(files: [target.description: "old", staged.description: "new"])
        let outcome = try await SwapReplace(executor: executor)
            .replace(target, with: staged, move: server.move, find: server.find, delete: server.delete)
        #expect(await server.files == [target.description: "new"])
        #expect(await server.log == ["move /docs/a.txt -> /docs/*", "move /docs/.strata-upload-1.tmp -> /docs/a.txt", "delete /docs/*"])
        #expect(outcome.leftAside == nil)
        #expect(outcome.aside.parent == target.parent)
        #expect(outcome.aside.name.hasPrefix(".strata-replaced-") && outcome.aside.name.hasSuffix("-a.txt"), "\(outcome.aside)")
    }

    @Test("a failed move in puts the old file back under its name and leaves the new one staged; the move's error is thrown")
    func moveInFails() async throws {
        let server = RefusingMoveServer(files: [target.description: "old", staged.description: "new"])
        await server.fail("move /docs/.strata-upload-1.tmp -> /docs/a.txt")
        let error = await #expect(throws: ProviderError.self) {
            try await SwapReplace(executor: executor).replace(target, with: staged, move: server.move, find: server.find, delete: server.delete)
        }
        #expect(error?.code == .forbidden)
        #expect(await server.files == [target.description: "old", staged.description: "new"])
        #expect(await server.log.last == "move /docs/* -> /docs/a.txt", "moved back")
    }

    @Test("a move in whose answer was lost after the move is not undone over the new file: a conflict names where the old one is")
    func moveInLost() async throws {
        let server = RefusingMoveServer(files: [target.description: "old", staged.description: "new"])
        await server.fail("move /docs/.strata-upload-1.tmp -> /docs/a.txt", made: true)
        let error = await #expect(throws: ProviderError.self) {
            try await SwapReplace(executor: executor).replace(target, with: staged, move: server.move, find: server.find, delete: server.delete)
        }
        let files = await server.files
        let aside = try #require(files.keys.first { $0.hasPrefix("/docs/.strata-replaced-") })
        #expect(files == [target.description: "new", aside: "old"], "both kept")
        #expect(error?.code == .conflict)
        #expect(error?.message?.contains(String(aside.dropFirst("/docs/".count))) == true, "\(String(describing: error))")
    }

    @Test("a failed move back is a conflict naming the aside; nothing is deleted")
    func moveBackFails() async throws {
        let server = RefusingMoveServer(files: [target.description: "old", staged.description: "new"])
        await server.fail("move /docs/.strata-upload-1.tmp -> /docs/a.txt")
        await server.fail("move /docs/* -> /docs/a.txt")
        let error = await #expect(throws: ProviderError.self) {
            try await SwapReplace(executor: executor).replace(target, with: staged, move: server.move, find: server.find, delete: server.delete)
        }
        let files = await server.files
        let aside = try #require(files.keys.first { $0.hasPrefix("/docs/.strata-replaced-") })
        #expect(files == [aside: "old", staged.description: "new"])
        #expect(error?.code == .conflict)
        #expect(error?.message?.contains(String(aside.dropFirst("/docs/".count))) == true, "\(String(describing: error))")
        #expect(await !server.log.contains { $0.hasPrefix("delete") })
    }

    @Test("a move aside whose answer was lost after the move puts the old file back")
    func moveAsideLost() async throws {
        let server = RefusingMoveServer(files: [target.description: "old", staged.description: "new"])
        await server.fail("move /docs/a.txt -> /docs/*", made: true)
        await #expect(throws: ProviderError.self) {
            try await SwapReplace(executor: executor).replace(target, with: staged, move: server.move, find: server.find, delete: server.delete)
        }
        #expect(await server.files == [target.description: "old", staged.description: "new"])
    }

    @Test("a failed delete of the aside: the new file is in place and the old one is reported, not lost")
    func deleteAsideFails() async throws {
        let server = RefusingMoveServer(files: [target.description: "old", staged.description: "new"])
        await server.fail("delete /docs/*")
        let outcome = try await SwapReplace(executor: executor)
            .replace(target, with: staged, move: server.move, find: server.find, delete: server.delete)
        #expect(outcome.leftAside?.code == .forbidden)
        #expect(await server.files == [target.description: "new", outcome.aside.description: "old"])
    }

    @Test("StagedUpload.place moves onto a free name, swaps a file only when replacing, never a folder")
    func place() async throws {
        let upload = StagedUpload(executor: executor)
        let free = RefusingMoveServer(files: [staged.description: "new"])
        let moved = try await upload.place(staged, at: target, replacing: true, move: free.move, find: free.find, delete: free.delete)
        #expect(moved == nil)
        #expect(await free.files == [target.description: "new"])

        let file = RefusingMoveServer(files: [target.description: "old", staged.description: "new"])
        let refused = await #expect(throws: ProviderError.self) {
            try await upload.place(staged, at: target, replacing: false, move: file.move, find: file.find, delete: file.delete)
        }
        #expect(refused?.code == .alreadyExists)
        let swapped = try await upload.place(staged, at: target, replacing: true, move: file.move, find: file.find, delete: file.delete)
        #expect(swapped?.leftAside == nil)
        #expect(await file.files == [target.description: "new"])

        let folder = RefusingMoveServer(files: [staged.description: "new"])
        await folder.addFolder(target.description)
        let kept = await #expect(throws: ProviderError.self) {
            try await upload.place(staged, at: target, replacing: true, move: folder.move, find: folder.find, delete: folder.delete)
        }
        #expect(kept?.code == .alreadyExists)
        #expect(await folder.files == [staged.description: "new"])
        #expect(await folder.log == ["move /docs/.strata-upload-1.tmp -> /docs/a.txt"])
    }
}

extension RefusingMoveServer {
    func addFolder(_ path: String) { folders.insert(path) }
}
