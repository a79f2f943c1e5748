import Foundation
import ProviderAPI
import ProviderKit

/// Sizes, modified times, etags, digests and MIME types.
enum MetadataCases {
    static var all: [ConformanceCase] { [size, modifiedTime, setModifiedTime, etags, recursiveETags, digests, mimeType] }

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
            throw ConformanceSkip("capabilities.modifiedTimePrecision is nil (the provider keeps no modified times)")
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
            guard let etag = try await context.provider.item(at: path).etag else { throw ConformanceFailure("\(path) has no etag") }
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
}
