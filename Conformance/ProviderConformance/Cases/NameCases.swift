import Foundation
import ProviderAPI

/// Names that servers and URLs get wrong, each round-tripped through upload, list, item(at:) and download.
enum NameCases {
    /// The names of the matrix: the case suffix and the name.
    static let matrix: [(label: String, name: String)] = [
        ("spaces", "two  spaces here.txt"),
        ("leadingSpace", " leading space.txt"),
        ("trailingSpace", "trailing space.txt "),
        ("leadingDot", ".leading dot.txt"),
        ("trailingDot", "trailing dot."),
        ("unicodeNFC", "caf\u{E9}.txt"),
        ("unicodeNFD", "cafe\u{301}.txt"),
        ("hash", "a#b.txt"),
        ("percent", "100% sure.txt"),
        ("question", "why?.txt"),
        ("ampersand", "salt & pepper.txt"),
        ("plus", "a+b.txt"),
        ("semicolon", "a;b.txt"),
        ("equals", "a=b.txt"),
        ("at", "user@host.txt"),
        ("apostrophe", "it's.txt"),
        ("quote", "say \"hi\".txt"),
        ("emoji", "smile \u{1F600} flag \u{1F1EB}\u{1F1F7}.txt"),
        ("percentEscape46", "test%46.txt"),
        ("percentEscape20", "a%20b.txt"),
        ("mixed", "\u{EA} \u{E9} Hello, \u{4E16}\u{754C}.txt"),
    ]

    /// Folder names that also round-trip, each holding a file.
    static let folderNames = [" leading space", "a#b", "100% sure", "why?", "cafe\u{301}", "emoji \u{1F600}", "semi;colon=equals"]

    static var all: [ConformanceCase] { matrix.map(fileCase) + [longName, folders] + NameIdentityCases.all }

    private static func fileCase(label: String, name: String) -> ConformanceCase {
        ConformanceCase("names.\(label)", summary: "The name \(name.debugDescription) round-trips") { context in
            try await NameRoundTrip(context: context).file(named: name, in: context.folder)
        }
    }

    static let longName = ConformanceCase(
        "names.long", summary: "A name of more than 200 UTF-8 bytes (within maxNameBytes) round-trips"
    ) { context in
        let limit = min(context.capabilities.names.maxNameBytes, 220)
        var name = "long-\u{E9}\u{E8}-"
        let filler = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var index = 0
        while name.utf8.count < limit - 4 {
            name.append(filler[index % filler.count])
            index += 1
        }
        name += ".txt"
        if limit < 200 { context.note("maxNameBytes is \(context.capabilities.names.maxNameBytes); tested \(name.utf8.count) bytes") }
        try await NameRoundTrip(context: context).file(named: name, in: context.folder)
    }

    static let folders = ConformanceCase(
        "names.folders", summary: "Folders with awkward names round-trip and hold files"
    ) { context in
        let roundTrip = NameRoundTrip(context: context)
        for name in folderNames {
            let folder = try await roundTrip.folder(named: name, in: context.folder)
            try await roundTrip.file(named: "inside \(name).txt", in: folder)
        }
    }
}
