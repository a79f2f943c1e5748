import Foundation
import ProviderAPI

/// Names that differ only in case, or only in Unicode normalisation: two items where the provider's
/// `NameRules` tell them apart (`NameRules.key(_:)` differs), else one name, the second upload with
/// `.fail` refused with `.alreadyExists` and the first file left whole.
///
/// A transfer engine plans by these rules: a server that says it tells `A.txt` from `a.txt` and
/// then keeps one file loses the other with every copy.
enum NameIdentityCases {
    static var all: [ConformanceCase] { [caseTwins, normalizationTwins] }

    static let caseTwins = ConformanceCase(
        "names.caseTwins",
        summary: "Names differing only in case are two files, or one name (the second .fail upload refused), as caseSensitive says"
    ) { context in
        try await twins("twin-case.txt", "TWIN-CASE.txt", context: context)
    }

    static let normalizationTwins = ConformanceCase(
        "names.normalizationTwins",
        summary: "Names differing only in NFC/NFD are two files, or one name (the second .fail upload refused), as normalization says"
    ) { context in
        try await twins("twin-caf\u{E9}.txt", "twin-cafe\u{301}.txt", context: context)
    }

    /// Uploads `first` then `second` with `.fail` and checks that they are what the rules say.
    private static func twins(_ first: String, _ second: String, context: ConformanceContext) async throws {
        let rules = context.capabilities.names
        let roundTrip = NameRoundTrip(context: context)
        let names = [try roundTrip.serverName(for: first), try roundTrip.serverName(for: second)]
        let contents = [Array("the first twin".utf8), Array("the second, longer twin".utf8)]
        let distinct = rules.key(names[0]) != rules.key(names[1])
        context.note("names compared as \(rules.identityDescription): \(distinct ? "two names" : "one name")")
        let folder = context.folder
        let uploaded = try await context.upload(contents[0], as: names[0], in: folder, options: UploadOptions(conflict: .fail))
        if distinct {
            let other = try await context.upload(contents[1], as: names[1], in: folder, options: UploadOptions(conflict: .fail))
            let listed = try await context.children(of: folder)
            let shown = listed.map { NameRoundTrip.scalars($0.name) }
            try context.expect(listed.count == 2, "the folder holds \(shown) after uploading \(NameRoundTrip.scalars(names[0])) and \(NameRoundTrip.scalars(names[1])), which \(rules.identityDescription) tells apart")
            for (index, item) in [uploaded, other].enumerated() {
                let matches = listed.filter { rules.key($0.name) == rules.key(names[index]) }
                try context.expect(matches.count == 1, "the listing holds \(matches.count) items named \(NameRoundTrip.scalars(names[index])): \(shown)")
                try context.expect(matches[0].size == Int64(contents[index].count), "\(NameRoundTrip.scalars(names[index])) is listed with \(String(describing: matches[0].size)) bytes, not \(contents[index].count)")
                try await context.expectContent(item.path, contents[index], "(the twin \(NameRoundTrip.scalars(names[index])))")
                try await context.expectContent(try folder.appending(names[index]), contents[index], "(by its name \(NameRoundTrip.scalars(names[index])))")
            }
        } else {
            try await context.expectError(.alreadyExists, "upload(.fail) of \(NameRoundTrip.scalars(names[1])) beside \(NameRoundTrip.scalars(names[0])), one name to \(rules.identityDescription)") {
                try await context.upload(contents[1], as: names[1], in: folder, options: UploadOptions(conflict: .fail))
            }
            let listed = try await context.children(of: folder)
            try context.expect(listed.count == 1, "the folder holds \(listed.map { NameRoundTrip.scalars($0.name) }) after the refused upload")
            try await context.expectContent(uploaded.path, contents[0], "(the first twin, after the second was refused)")
        }
    }
}
