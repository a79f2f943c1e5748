import Foundation
import ProviderAPI

/// Round-trips one name through a provider, encoding it first if the provider's rules refuse it.
struct NameRoundTrip {
    let context: ConformanceContext

    private var rules: NameRules { context.capabilities.names }

    /// The name to send: `name` itself, or its ``NameEncoder`` form when the rules refuse it.
    func serverName(for name: String) throws -> String {
        if rules.accepts(name) { return name }
        let encoded = NameEncoder(rules: rules).encode(name)
        try context.expect(rules.accepts(encoded), "the provider refuses \(name.debugDescription) and its encoded form \(encoded.debugDescription)")
        context.note("\(name.debugDescription) encoded as \(encoded.debugDescription)")
        return encoded
    }

    /// Whether `a` and `b` are the same Unicode scalars (Swift's `==` treats NFC and NFD as equal).
    static func sameScalars(_ a: String, _ b: String) -> Bool { a.unicodeScalars.elementsEqual(b.unicodeScalars) }

    /// Checks that `got` is `sent` as the server stores it, under the declared normalisation.
    func expectStored(_ got: String, sent: String, by what: String) throws {
        let stored = rules.stored(sent)
        try context.expect(
            Self.sameScalars(got, stored),
            "\(what) gives the name \(Self.scalars(got)), expected \(Self.scalars(stored)) (normalization .\(rules.normalization.rawValue))")
    }

    /// Checks that decoding the server's name gives back the user's name.
    private func expectDecodes(_ got: String, to name: String, encoded: Bool) throws {
        guard encoded else { return }
        let decoded = NameEncoder(rules: rules).decode(got)
        try context.expect(
            Self.sameScalars(decoded, rules.stored(name)),
            "the server's name \(got.debugDescription) decodes to \(decoded.debugDescription), not \(name.debugDescription)")
    }

    /// Uploads a file `name` into `folder`, then finds it by listing and by `item(at:)` and downloads it.
    func file(named name: String, in folder: ItemPath) async throws {
        let sent = try serverName(for: name)
        let content = Array("content of \(name)".utf8)
        let uploaded = try await context.upload(content, as: sent, in: folder, options: UploadOptions(conflict: .fail))
        try expectStored(uploaded.name, sent: sent, by: "upload")
        try expectDecodes(uploaded.name, to: name, encoded: sent != name)
        try context.expect(uploaded.path.parent == folder, "upload put \(name.debugDescription) at \(uploaded.path)")

        let listed = try await context.children(of: folder).filter { $0.kind == .file }
        let matches = listed.filter { Self.sameScalars($0.name, rules.stored(sent)) }
        try context.expect(
            matches.count == 1,
            "the listing of \(folder) holds \(matches.count) files named \(Self.scalars(rules.stored(sent))); it holds \(listed.map { Self.scalars($0.name) })")
        let entry = matches[0]
        try context.expect(entry.size == Int64(content.count), "the listing says \(name.debugDescription) has \(String(describing: entry.size)) bytes, not \(content.count)")

        for path in [entry.path, try folder.appending(sent)] {
            let stat = try await context.provider.item(at: path)
            try expectStored(stat.name, sent: sent, by: "item(at: \(path))")
            try context.expect(stat.kind == .file, "item(at: \(path)) is a \(stat.kind)")
            try context.expect(stat.size == Int64(content.count), "item(at: \(path)) says \(String(describing: stat.size)) bytes, not \(content.count)")
            try await context.expectContent(path, content, "(downloaded by the name \(Self.scalars(path.name)))")
        }
    }

    /// Creates a folder `name` in `folder`, finds it by listing and by `item(at:)`, and returns its path.
    func folder(named name: String, in folder: ItemPath) async throws -> ItemPath {
        let sent = try serverName(for: name)
        let created = try await context.provider.createFolder(named: sent, in: folder)
        try expectStored(created.name, sent: sent, by: "createFolder")
        try context.expect(created.kind == .folder, "createFolder(\(name.debugDescription)) returned a \(created.kind)")
        let listed = try await context.children(of: folder).filter { Self.sameScalars($0.name, rules.stored(sent)) }
        try context.expect(listed.count == 1 && listed.allSatisfy(\.isFolder), "the listing of \(folder) holds \(listed.count) folders named \(Self.scalars(sent))")
        let stat = try await context.provider.item(at: try folder.appending(sent))
        try context.expect(stat.kind == .folder, "item(at:) of the folder \(name.debugDescription) is a \(stat.kind)")
        return created.path
    }

    /// A name with its non-ASCII scalars spelled out, so NFC and NFD differ in reports.
    static func scalars(_ name: String) -> String {
        "\"" + name.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined() + "\""
    }
}
