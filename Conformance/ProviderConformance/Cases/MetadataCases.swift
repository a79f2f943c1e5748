import Foundation
import ProviderAPI
import ProviderKit

/// Sizes, modified times, etags, digests and MIME types.
enum MetadataCases {
    static var all: [ConformanceCase] {
        [size, modifiedTime, setModifiedTime, etags, recursiveETags, recursiveETagsEveryAncestor, digests, mimeType, stableIDs, permissions]
    }

    static let size = ConformanceCase(
        "metadata.size", summary: "upload, item(at:) and list agree on a file's size"
    ) { context in
        let uploaded = try await context.upload(RandomBytes.make(1234), as: "sized.bin")
        try context.expect(uploaded.kind == .file, "upload returned a \(uploaded.kind)")
        try context.expect(uploaded.name == "sized.bin", "upload returned the name \(uploaded.name)")
        try context.expect(uploaded.path == (try context.path("sized.bin")), "upload returned the path \(uploaded.path)")
        if let size = uploaded.size { try context.expect(size == 1234, "upload returned size \(size), not 1234") }
        let stat = try await context.provider.item(at: uploaded.path)
        try context.expect(stat.size == 1234, "item(at:) says size \(String(describing: stat.size)), not 1234")
        let listed = try await context.children()
        try context.expect(listed.count == 1 && listed.first?.size == 1234, "the listing says \(listed.map { "\($0.name) \(String(describing: $0.size))" })")
    }

    static let modifiedTime = ConformanceCase(
        "metadata.modifiedTime", summary: "A new file's modified time falls within the upload, allowing for precision and clock skew"
    ) { context in
        guard let precision = context.capabilities.modifiedTimePrecision else {
            throw ConformanceSkip(.noModifiedTimes)
        }
        let before = Date()
        let uploaded = try await context.upload(text: "now", as: "now.txt")
        let after = Date()
        let slack = (precision + context.options.allowedClockSkew).seconds
        let window = before.addingTimeInterval(-slack)...after.addingTimeInterval(slack)
        let stat = try await context.provider.item(at: uploaded.path)
        guard let modified = stat.modified else { throw ConformanceFailure("item(at:) has no modified time") }
        try context.expect(
            window.contains(modified),
            "modified \(modified.formatted(.iso8601)) is outside the upload window \(before.formatted(.iso8601))…\(after.formatted(.iso8601)) ± \(slack) s")
    }

    static let setModifiedTime = ConformanceCase(
        "metadata.setModifiedTime", requires: .setModifiedTime,
        summary: "A modified time with a sub-second part given at upload round-trips within the declared precision"
    ) { context in
        guard let precision = context.capabilities.modifiedTimePrecision else {
            throw ConformanceFailure("the provider declares .setModifiedTime but no modifiedTimePrecision")
        }
        // 2021-03-04T05:06:07.499Z, as rclone's suite uses a time with a sub-second part.
        let wanted = Date(timeIntervalSince1970: 1_614_834_367.499)
        let uploaded = try await context.upload(text: "old", as: "dated.txt", options: UploadOptions(modified: wanted))
        let stat = try await context.provider.item(at: uploaded.path)
        let listed = try await context.children().first { $0.name == "dated.txt" }
        for (label, item) in [("upload", Optional(uploaded)), ("item(at:)", stat), ("list", listed)] {
            guard let item else { throw ConformanceFailure("the listing does not hold dated.txt") }
            guard let modified = item.modified else {
                if label == "upload" { continue }
                throw ConformanceFailure("\(label) has no modified time")
            }
            let difference = abs(modified.timeIntervalSince(wanted))
            try context.expect(
                difference <= precision.seconds,
                "\(label) says modified \(modified.timeIntervalSince1970), set \(wanted.timeIntervalSince1970): \(difference) s apart, precision \(precision)")
        }
    }

    static let etags = ConformanceCase(
        "metadata.etagChangesOnOverwrite", requires: .etags, summary: "A file's etag changes when its content is replaced"
    ) { context in
        let first = try await context.upload(text: "version one", as: "tagged.txt")
        let stat1 = try await context.provider.item(at: first.path)
        guard let etag1 = stat1.etag else { throw ConformanceFailure("item(at:) has no etag") }
        if let returned = first.etag {
            try context.expect(returned == etag1, "upload returned the etag \(returned), item(at:) says \(etag1)")
        }
        let again = try await context.provider.item(at: first.path)
        try context.expect(again.etag == etag1, "the etag changed from \(etag1) to \(String(describing: again.etag)) without a change")
        let second = try await context.upload(text: "version two, longer", as: "tagged.txt", options: UploadOptions(conflict: .overwrite))
        let stat2 = try await context.provider.item(at: first.path)
        guard let etag2 = stat2.etag else { throw ConformanceFailure("item(at:) has no etag after the overwrite") }
        try context.expect(etag2 != etag1, "the etag stayed \(etag1) after the content changed")
        if let returned = second.etag {
            try context.expect(returned == etag2, "the overwrite returned the etag \(returned), item(at:) says \(etag2)")
        }
    }

    static let recursiveETags = ConformanceCase(
        "metadata.recursiveETags", requires: [.etags, .recursiveETags],
        summary: "A folder's etag changes when something two levels below it changes, and stays put otherwise"
    ) { context in
        let outer = try await context.makeFolder("outer")
        let inner = try await context.makeFolder("inner", in: outer.path)
        let file = try await context.upload(text: "first", as: "deep.txt", in: inner.path)
        func etag(_ path: ItemPath) async throws -> String {
            let item = try await context.provider.item(at: path)
            guard let etag = item.etag else { throw ConformanceFailure("\(path) has no etag") }
            return etag
        }
        let before = (try await etag(outer.path), try await etag(context.folder))
        try context.expect(try await etag(outer.path) == before.0, "the folder etag of \(outer.path) changed without a change below it")
        _ = try await context.upload(text: "second, longer", as: "deep.txt", in: inner.path, options: UploadOptions(conflict: .overwrite))
        let afterOverwrite = (try await etag(outer.path), try await etag(context.folder))
        try context.expect(afterOverwrite.0 != before.0, "\(outer.path) kept the etag \(before.0) after \(file.path) was overwritten")
        try context.expect(afterOverwrite.1 != before.1, "\(context.folder) kept the etag \(before.1) after a change two levels down")
        try await context.provider.delete(file.path)
        try context.expect(try await etag(outer.path) != afterOverwrite.0, "\(outer.path) kept its etag after \(file.path) was deleted")
    }

    /// What a transfer job relies on to leave an unchanged subtree unlisted: every folder above a
    /// change, at any depth, gets a new etag, whatever the change (a new file, an overwrite, a
    /// rename, a new folder, a deletion).
    static let recursiveETagsEveryAncestor = ConformanceCase(
        "metadata.recursiveETagsEveryAncestor", requires: [.etags, .recursiveETags],
        summary: "Each change three levels down (new file, overwrite, rename, new folder, delete) gives every folder above it a new etag"
    ) { context in
        let one = try await context.makeFolder("one")
        let two = try await context.makeFolder("two", in: one.path)
        let three = try await context.makeFolder("three", in: two.path)
        let side = try await context.makeFolder("side")
        let ancestors = [three.path, two.path, one.path, context.folder]
        func etags() async throws -> [String] {
            var tags: [String] = []
            for path in ancestors + [side.path] {
                guard let etag = try await context.provider.item(at: path).etag else { throw ConformanceFailure("\(path) has no etag") }
                tags.append(etag)
            }
            return tags
        }
        let changes: [(String, @Sendable () async throws -> Void)] = [
            ("a new file", { _ = try await context.upload(text: "deep", as: "deep.txt", in: three.path) }),
            ("an overwrite", {
                _ = try await context.upload(text: "deeper, longer", as: "deep.txt", in: three.path, options: UploadOptions(conflict: .overwrite))
            }),
            ("a rename", {
                _ = try await context.provider.move(
                    try three.path.appending("deep.txt"), to: try three.path.appending("renamed.txt"), options: TransferOptions())
            }),
            ("a new folder", { _ = try await context.makeFolder("inner", in: three.path) }),
            ("a deletion", { try await context.provider.delete(try three.path.appending("renamed.txt")) }),
        ]
        var before = try await etags()
        for (change, make) in changes {
            try await make()
            let after = try await etags()
            for (index, path) in ancestors.enumerated() {
                try context.expect(after[index] != before[index], "\(path) kept the etag \(before[index]) after \(change) in \(three.path)")
            }
            try context.expect(after[ancestors.count] == before[ancestors.count], "\(side.path), beside the change, got a new etag after \(change)")
            before = after
        }
    }

    static let digests = ConformanceCase(
        "metadata.digests", requires: .digests, summary: "Every declared digest matches the one computed locally"
    ) { context in
        let algorithms = context.capabilities.digestAlgorithms.sorted { $0.rawValue < $1.rawValue }
        try context.expect(!algorithms.isEmpty, "the provider declares .digests but no digestAlgorithms")
        let bytes = RandomBytes.make(100_000)
        let uploaded = try await context.upload(bytes, as: "digest.bin")
        let stat = try await context.provider.item(at: uploaded.path)
        let listed = try await context.children().first { $0.name == "digest.bin" }
        var checked: [String] = []
        for algorithm in algorithms {
            guard let local = Digester.hex(algorithm, of: bytes) else {
                context.note("cannot compute \(algorithm) locally; not checked")
                continue
            }
            guard let remote = stat.digests[algorithm] else {
                throw ConformanceFailure("item(at:) has no \(algorithm) digest; it has \(stat.digests.keys.map(\.rawValue).sorted())")
            }
            try context.expect(remote.lowercased() == local, "item(at:) says \(algorithm) \(remote), the content's is \(local)")
            for (label, item) in [("upload", uploaded), ("list", listed)] {
                if let value = item?.digests[algorithm] {
                    try context.expect(value.lowercased() == local, "\(label) says \(algorithm) \(value), the content's is \(local)")
                }
            }
            checked.append(algorithm.rawValue)
        }
        context.note("checked \(checked.joined(separator: ", "))")
    }

    static let mimeType = ConformanceCase(
        "metadata.mimeType", requires: .mimeTypes, summary: "A .txt file has a text/plain MIME type"
    ) { context in
        let uploaded = try await context.upload(
            text: "plain text\n", as: "note.txt", options: UploadOptions(mimeType: "text/plain"))
        let stat = try await context.provider.item(at: uploaded.path)
        guard let mime = stat.mimeType else { throw ConformanceFailure("item(at: \(uploaded.path)) has no MIME type") }
        try context.expect(mime.lowercased().hasPrefix("text/plain"), "item(at:) says the MIME type is \(mime), not text/plain")
        if let listed = try await context.children().first(where: { $0.name == "note.txt" })?.mimeType {
            try context.expect(listed.lowercased().hasPrefix("text/plain"), "the listing says the MIME type is \(listed)")
        }
    }

    static let stableIDs = ConformanceCase(
        "metadata.stableIDs", requires: .stableIDs,
        summary: "An item's id survives a content change and a rename or move, stat and list agree on it, and different items have different ids"
    ) { context in
        let file = try await context.upload(text: "version one", as: "a.txt")
        let other = try await context.upload(text: "another file", as: "b.txt")
        let folder = try await context.makeFolder("sub")
        func id(_ path: ItemPath) async throws -> String {
            let item = try await context.provider.item(at: path)
            let id = item.id
            try context.expect(!id.isEmpty, "item(at: \(path)) has an empty id")
            return id
        }
        let fileID = try await id(file.path)
        let ids = [fileID, try await id(other.path), try await id(folder.path), try await id(context.folder)]
        try context.expect(Set(ids).count == ids.count, "different items share ids: a.txt, b.txt, sub and the case folder have \(ids)")
        let listed = try await context.children()
        for item in listed {
            let stat = try await id(item.path)
            try context.expect(item.id == stat, "the listing gives \(item.name) the id \(item.id), item(at:) \(stat)")
        }

        _ = try await context.upload(text: "version two, longer", as: "a.txt", options: UploadOptions(conflict: .overwrite))
        let rewritten = try await id(file.path)
        try context.expect(rewritten == fileID, "a.txt had the id \(fileID), and \(rewritten) after its content changed")

        guard context.capabilities.supports(.move) else {
            context.note("rename and move not checked: the provider does not declare .move")
            return
        }
        let renamed = try await context.provider.move(file.path, to: try context.path("renamed.txt"), options: TransferOptions())
        let afterRename = try await id(renamed.path)
        try context.expect(afterRename == fileID, "a.txt had the id \(fileID), and \(afterRename) after it was renamed")
        let moved = try await context.provider.move(renamed.path, to: try folder.path.appending("moved.txt"), options: TransferOptions())
        let afterMove = try await id(moved.path)
        try context.expect(afterMove == fileID, "a.txt had the id \(fileID), and \(afterMove) after it was moved into sub")
        let folderID = ids[2]
        let renamedFolder = try await context.provider.move(folder.path, to: try context.path("sub2"), options: TransferOptions())
        let folderAfter = try await id(renamedFolder.path)
        try context.expect(folderAfter == folderID, "sub had the id \(folderID), and \(folderAfter) after it was renamed")
        let inside = try await id(try renamedFolder.path.appending("moved.txt"))
        try context.expect(inside == fileID, "the file had the id \(fileID), and \(inside) after its folder was renamed")
    }

    static let permissions = ConformanceCase(
        "metadata.permissions", requires: .permissions,
        summary: """
            item(at:) gives permissions that allow what the case then does (create in the folder; read, replace, rename \
            and delete the file), and a listing that gives them agrees
            """
    ) { context in
        func permissions(_ path: ItemPath) async throws -> ItemPermissions {
            let item = try await context.provider.item(at: path)
            guard let permissions = item.permissions else {
                throw ConformanceFailure("item(at: \(path)) carries no permissions although the provider declares .permissions")
            }
            return permissions
        }
        func expectAllowed(_ granted: ItemPermissions, _ wanted: ItemPermissions, _ what: String, _ path: ItemPath) throws {
            let missing = granted.intersection(wanted) != wanted
            try context.expect(!missing, "\(what) succeeded, but the permissions of \(path), \(describe(granted)), lack \(describe(wanted))")
        }
        let folderPermissions = try await permissions(context.folder)
        let file = try await context.upload(text: "permitted", as: "p.txt")
        try expectAllowed(folderPermissions, .createChildren, "uploading into the case folder", context.folder)
        let sub = try await context.makeFolder("sub")
        if let returned = sub.permissions { try expectAllowed(returned, .createChildren, "creating a folder (the one createFolder returned)", sub.path) }
        // item(at:) must carry them; a listing may leave them out (Nuxeo asks for them per document), which is noted.
        let unlisted = try await context.children().filter { $0.permissions == nil }.map(\.name).sorted()
        if !unlisted.isEmpty { context.note("the listing carries no permissions for \(unlisted.joined(separator: ", ")); item(at:) does") }
        for item in try await context.children() {
            if let listed = item.permissions {
                let stat = try await permissions(item.path)
                try context.expect(listed == stat, "the listing gives \(item.name) the permissions \(describe(listed)), item(at:) \(describe(stat))")
            }
        }

        let filePermissions = try await permissions(file.path)
        _ = try await context.content(of: file.path)
        try expectAllowed(filePermissions, .read, "downloading the file", file.path)
        try await context.upload(text: "permitted, again", as: "p.txt", options: UploadOptions(conflict: .overwrite))
        try expectAllowed(filePermissions, .write, "replacing the file's content", file.path)
        var target = file.path
        if context.capabilities.supports(.move) {
            target = try await context.provider.move(file.path, to: try context.path("q.txt"), options: TransferOptions()).path
            try expectAllowed(filePermissions, .rename, "renaming the file", file.path)
        }
        let before = try await permissions(target)
        try await context.provider.delete(target)
        try expectAllowed(before, .delete, "deleting the file", target)
        context.note("folder \(describe(folderPermissions)), file \(describe(filePermissions))")
    }

    /// Permissions as written in code, such as `[.read, .write]`.
    private static func describe(_ permissions: ItemPermissions) -> String {
        let named: [(ItemPermissions, String)] = [
            (.read, "read"), (.write, "write"), (.delete, "delete"), (.rename, "rename"), (.createChildren, "createChildren"), (.share, "share"),
        ]
        return "[" + named.filter { permissions.contains($0.0) }.map { "." + $0.1 }.joined(separator: ", ") + "]"
    }
}
