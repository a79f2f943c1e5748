import Foundation
import ProviderAPI

/// Listing folders: empty, mixed, paged, missing.
enum ListingCases {
    static var all: [ConformanceCase] { [root, emptyFolder, filesAndFolders, fields, paging, complete, tree, folderNotFound, itemNotFound] }

    static let complete = ConformanceCase(
        "listing.complete",
        summary: "A full listing of a folder of N items says it is complete (not partial or cached) and holds exactly N entries; a count a page declares is N"
    ) { context in
        let files = (0..<7).map { "c\($0).txt" }
        for name in files { try await context.upload(text: name, as: name) }
        for name in ["d0", "d1"] { try await context.makeFolder(name) }
        let names = Set(files + ["d0", "d1"])
        let count = names.count
        // The shared page loop: whole, and by pages that leave a short last one.
        for pageSize in [nil, 4] as [Int?] {
            let label = pageSize.map { "in pages of \($0)" } ?? "without a limit"
            let listing = try await context.provider.listing(context.folder, pageSize: pageSize)
            try context.expect(
                listing.completeness.isComplete, "the listing \(label) of a folder of \(count) items is \(listing.completeness.phrase), not a complete one")
            try context.expect(listing.items.count == count, "the listing \(label) holds \(listing.items.count) entries of \(count)")
            try context.expect(Set(listing.items.map(\.name)) == names, "the listing \(label) holds \(listing.items.map(\.name).sorted())")
        }
        // Each page as the adapter gives it: a count it declares is the folder's, and no page is
        // known to be incomplete.
        var request = PageRequest(limit: 4)
        var pages = 0
        var received = 0
        while true {
            pages += 1
            try context.expect(pages <= count + 2, "the listing did not end after \(pages) pages")
            let page = try await context.provider.list(context.folder, page: request)
            received += page.items.count
            if let total = page.totalCount {
                try context.expect(total == count, "page \(pages) declares \(total) entries; the folder holds \(count)")
            }
            try context.expect(page.completeness.isComplete, "page \(pages) says it belongs to \(page.completeness.phrase)")
            guard let next = page.next else { break }
            request.cursor = next
        }
        try context.expect(received == count, "the pages by cursor held \(received) entries of \(count)")
    }

    static let tree = ConformanceCase(
        "listing.tree",
        summary: "A whole-tree listing (listTree) is nil, or covers the folder asked for, and every folder it covers holds exactly what that folder's own listing holds (names as bytes, kinds, sizes)"
    ) { context in
        try await context.upload(text: "a", as: "a.txt")
        try await context.upload(text: "bb", as: "b.txt")
        let sub = try await context.makeFolder("sub")
        try await context.upload(text: "ccc", as: "c.txt", in: sub.path)
        let deep = try await context.provider.createFolder(named: "deep", in: sub.path)
        try await context.upload(text: "dddd", as: "d.txt", in: deep.path)
        if context.provider.capabilities.features.contains(.emptyFolders) { try await context.makeFolder("empty") }
        // Twice: a first answer may prove the server, the second is the one a proven server gives.
        for round in 1...2 {
            guard let tree = try await context.provider.listTree(context.folder, fields: .all, maxEntries: 10_000) else { continue }
            try context.expect(tree.listing(of: context.folder) != nil, "listTree (round \(round)) does not cover the folder it was asked for")
            for folder in tree.coveredFolders {
                let fromTree = tree.listing(of: folder)?.items ?? []
                let own = try await context.provider.listing(folder).items
                let describe = { (items: [Item]) in
                    items.map { "\(Array($0.name.utf8)) \($0.kind) \($0.isFolder ? -1 : $0.size ?? -2)" }.sorted()
                }
                try context.expect(
                    describe(fromTree) == describe(own),
                    "listTree (round \(round)) holds \(fromTree.map(\.name).sorted()) in \(folder); its listing holds \(own.map(\.name).sorted())")
            }
        }
    }

    static let root = ConformanceCase(
        "listing.root", summary: "The root is a folder whose listing holds the scratch folder"
    ) { context in
        let scratch = try await context.provider.item(at: context.scratch)
        try context.expect(scratch.kind == .folder, "item(at: \(context.scratch)) is a \(scratch.kind), not a folder")
        let entries = try await context.provider.listAll(.root)
        let matches = entries.filter { $0.name == context.scratch.name }
        try context.expect(matches.count == 1, "list(/) holds the scratch folder \(matches.count) times, not once")
        try context.expect(matches.allSatisfy(\.isFolder), "list(/) shows the scratch folder as a file")
    }

    static let emptyFolder = ConformanceCase(
        "listing.emptyFolder", requires: .emptyFolders, summary: "An empty folder lists no entries and no next page"
    ) { context in
        let page = try await context.provider.list(context.folder, page: .first)
        try context.expect(page.items.isEmpty, "a new folder lists \(page.items.count) entries: \(page.items.map(\.name))")
        try context.expect(page.next == nil, "an empty listing has a next-page cursor")
        let inner = try await context.makeFolder("empty")
        try context.expect(inner.kind == .folder, "createFolder returned a \(inner.kind)")
        try context.expect(inner.path == (try context.path("empty")), "createFolder returned the path \(inner.path)")
        try context.expect(try await context.children(of: inner.path).isEmpty, "a new inner folder is not empty")
        let stat = try await context.provider.item(at: inner.path)
        try context.expect(stat.kind == .folder, "item(at:) of an empty folder is a \(stat.kind)")
    }

    static let filesAndFolders = ConformanceCase(
        "listing.filesAndFolders", summary: "A listing shows each file and folder once, with kind, name, path and size"
    ) { context in
        let files: [String: Int] = ["a.txt": 3, "b.bin": 1000, "c": 0]
        for (name, size) in files { try await context.upload(RandomBytes.make(size), as: name) }
        for name in ["sub1", "sub2"] { try await context.makeFolder(name) }
        try await context.upload(text: "inner", as: "inner.txt", in: try context.path("sub1"))

        let entries = try await context.children()
        let names = entries.map(\.name).sorted()
        try context.expect(names == ["a.txt", "b.bin", "c", "sub1", "sub2"], "the listing holds \(names)")
        for entry in entries {
            try context.expect(entry.path == (try context.path(entry.name)), "entry \(entry.name) has the path \(entry.path)")
            if let size = files[entry.name] {
                try context.expect(entry.kind == .file, "\(entry.name) is listed as a \(entry.kind)")
                try context.expect(entry.size == Int64(size), "\(entry.name) is listed with size \(String(describing: entry.size)), not \(size)")
            } else {
                try context.expect(entry.kind == .folder, "\(entry.name) is listed as a \(entry.kind)")
            }
            let stat = try await context.provider.item(at: entry.path)
            try context.expect(stat.kind == entry.kind, "item(at: \(entry.path)) is a \(stat.kind), the listing says \(entry.kind)")
            if let size = files[entry.name] {
                try context.expect(stat.size == Int64(size), "item(at: \(entry.path)) has size \(String(describing: stat.size)), not \(size)")
            }
        }
    }

    static let fields = ConformanceCase(
        "listing.fields", summary: "A listing asked for fewer fields (ItemFields) still has every entry with the same path, kind, size and etag, and the fields it was asked for"
    ) { context in
        try await context.upload(text: "text", as: "a.txt")
        try await context.upload(RandomBytes.make(100), as: "b.bin")
        try await context.makeFolder("sub")
        let full = try await context.provider.listAll(context.folder, fields: .all)
        let lean = try await context.provider.listAll(context.folder, fields: [])
        let typed = try await context.provider.listAll(context.folder, fields: [.mimeType])
        // A weak etag may turn strong between two listings (Apache, for a file changed within
        // the last second): the tag is compared without its W/ mark.
        func essentials(_ items: [Item]) -> [String] {
            items.map {
                let tag = $0.etag.map { $0.hasPrefix("W/") ? String($0.dropFirst(2)) : $0 } ?? "-"
                return "\($0.path) \($0.kind) \($0.size.map(String.init) ?? "-") \(tag)"
            }.sorted()
        }
        try context.expect(essentials(full).count == 3, "the full listing holds \(full.map(\.name))")
        try context.expect(essentials(lean) == essentials(full), "without optional fields: \(essentials(lean)), with: \(essentials(full))")
        try context.expect(essentials(typed) == essentials(full), "with MIME types only: \(essentials(typed)), with all: \(essentials(full))")
        for item in full where item.mimeType != nil {
            let again = typed.first { $0.path == item.path }
            try context.expect(again?.mimeType == item.mimeType, "\(item.name) has the MIME type \(item.mimeType ?? "-") in a full listing, \(again?.mimeType ?? "none") when only MIME types are asked")
        }
        // Permissions asked alone: every entry that has them in a full listing has the same ones.
        let permitted = try await context.provider.listAll(context.folder, fields: [.permissions])
        try context.expect(essentials(permitted) == essentials(full), "with permissions only: \(essentials(permitted)), with all: \(essentials(full))")
        for item in full where item.permissions != nil {
            let again = permitted.first { $0.path == item.path }
            try context.expect(
                again?.permissions == item.permissions,
                "\(item.name) has the permissions \(String(describing: item.permissions)) in a full listing, \(String(describing: again?.permissions)) when only permissions are asked")
        }
    }

    static let paging = ConformanceCase(
        "listing.paging", summary: "Paging through a large folder with a limit returns every entry exactly once, also after a listing left at its first page"
    ) { context in
        let count = context.options.pagingCount
        let names = (0..<count).map { index in "p-\(String(repeating: "0", count: max(0, 5 - String(index).count)))\(index).txt" }
        try await BulkUpload.run(names: names, in: context.folder, context: context)

        let limit = max(1, min(100, count / 5))
        var seen: [String: Int] = [:]
        var request = PageRequest(limit: limit)
        var cursors: Set<PageCursor> = []
        var pages = 0
        var previous: ItemPage?
        var predictedPastEnd = 0
        while true {
            pages += 1
            try context.expect(pages <= count + 2, "the listing did not end after \(pages) pages")
            // What the provider says comes after this page, told before it arrives (page loops
            // fetch it ahead): when there is a next page, it must be exactly that one.
            let predicted = previous.flatMap { context.provider.pageRequest(after: request, in: context.folder, previous: $0) }
            let page = try await context.provider.list(context.folder, page: request)
            if let predicted {
                if let next = page.next {
                    var following = request
                    following.cursor = next
                    try context.expect(predicted == following, "page \(pages + 1) was predicted as \(predicted), the server points to \(following)")
                } else {
                    predictedPastEnd += 1
                }
            }
            previous = page
            if context.capabilities.supports(.paging) {
                try context.expect(page.items.count <= limit, "page \(pages) holds \(page.items.count) entries, the limit was \(limit)")
            }
            if let total = page.totalCount {
                try context.expect(total == count, "page \(pages) says the folder holds \(total) entries, it holds \(count)")
            }
            for item in page.items { seen[item.name, default: 0] += 1 }
            guard let next = page.next else { break }
            try context.expect(cursors.insert(next).inserted, "page \(pages) repeats the cursor \(next)")
            request.cursor = next
        }
        let duplicates = seen.filter { $0.value > 1 }.keys.sorted()
        let missing = names.filter { seen[$0] == nil }
        let extra = seen.keys.filter { !names.contains($0) }.sorted()
        try context.expect(duplicates.isEmpty, "\(duplicates.count) entries came more than once, such as \(duplicates.prefix(3))")
        try context.expect(missing.isEmpty, "\(missing.count) of \(count) entries never came, such as \(missing.prefix(3))")
        try context.expect(extra.isEmpty, "unexpected entries \(extra.prefix(3))")
        if context.capabilities.supports(.paging) {
            let minimum = (count + limit - 1) / limit
            try context.expect(pages >= minimum, "\(count) entries came in \(pages) pages of at most \(limit)")
        }
        let unpaged = try await context.provider.listAll(context.folder)
        try context.expect(unpaged.count == count, "listing without a limit returned \(unpaged.count) of \(count) entries")
        // The shared page loop (one page ahead where the provider predicts) sees the same entries.
        let looped = try await context.provider.listAll(context.folder, pageSize: limit).map(\.name)
        try context.expect(looped.count == count && Set(looped) == Set(names), "listAll with pages of \(limit) returned \(looped.count) entries (\(Set(looped).count) distinct) of \(count)")
        // A caller that leaves a listing after its first page and lists again by cursor gets every
        // entry once: what an adapter fetched ahead for the page it left (PagePrefetch) is the
        // next page of the same folder, never a page of another listing nor one given twice.
        let left = try await context.provider.list(context.folder, page: PageRequest(limit: limit))
        var again: [String] = []
        var restart = PageRequest(limit: limit)
        var restartPages = 0
        while true {
            restartPages += 1
            try context.expect(restartPages <= count + 2, "the listing after one left at its first page did not end")
            let page = try await context.provider.list(context.folder, page: restart)
            again += page.items.map(\.name)
            guard let next = page.next else { break }
            restart.cursor = next
        }
        try context.expect(
            again.count == count && Set(again) == Set(names),
            "a listing by cursor after one left at its first page (of \(left.items.count)) returned \(again.count) entries (\(Set(again).count) distinct) of \(count)")
        context.note("\(count) entries in \(pages) pages of \(limit)" + (predictedPastEnd > 0 ? ", one page predicted past the end" : ""))
    }

    static let folderNotFound = ConformanceCase(
        "listing.folderNotFound", summary: "Listing a folder that does not exist throws .notFound"
    ) { context in
        let missing = try context.path("no-such-folder")
        try await context.expectError(.notFound, "list(\(missing))") {
            try await context.provider.list(missing, page: .first)
        }
    }

    static let itemNotFound = ConformanceCase(
        "listing.itemNotFound", summary: "item(at:) of a missing file, or below a missing folder, throws .notFound"
    ) { context in
        try await context.expectMissing(try context.path("no-such-file.txt"))
        try await context.expectMissing(try context.folder.appending("no-such-folder").appending("file.txt"))
    }
}
