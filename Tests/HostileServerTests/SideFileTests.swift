import Foundation
import HostileTestServer
import ProviderAPI
import ProviderKit
import Testing

/// Class 7: symlinks at side files. A symlink placed at `NAME.strata-partial`, at its `.etag`
/// side file, or at the final name is never written through: nothing outside the chosen folder
/// changes, and the final name ends up a regular file with the right content.
@Suite("Hostile class 7: side files are never written through a symlink")
struct SideFileTests {
    static let content = HostileDAV.content(3000)
    static let original = Data("outside, untouched".utf8)

    /// A folder for the download, and a folder outside it holding `victim` (with ``original``, or missing).
    struct Layout {
        let root: URL
        let inside: URL
        let outside: URL
        var victim: URL { outside.appendingPathComponent("victim") }
        var final: URL { inside.appendingPathComponent(HostileScenario.fileName) }

        init(victimExists: Bool = true) throws {
            root = try Hostile.temporaryFolder("side")
            inside = root.appendingPathComponent("inside", isDirectory: true)
            outside = root.appendingPathComponent("outside", isDirectory: true)
            try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            if victimExists { try SideFileTests.original.write(to: victim) }
        }

        /// Places a symlink at `inside/<name>` pointing at the victim.
        func link(_ name: String) throws {
            try FileManager.default.createSymbolicLink(at: inside.appendingPathComponent(name), withDestinationURL: victim)
        }

        /// Whether the final name is a regular file (not a symlink) with `content`.
        var finalIsRegularWithContent: Bool {
            guard let type = try? FileManager.default.attributesOfItem(atPath: final.path)[.type] as? FileAttributeType,
                type == .typeRegular
            else { return false }
            return (try? Data(contentsOf: final)) == Data(SideFileTests.content)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    func download(into layout: Layout, resumable: Bool = false) async throws -> Hostile.Outcome<DownloadResult> {
        try await Hostile.withServer(.webdavFile(Self.content)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let sink = try FileSink(folder: layout.inside, name: HostileScenario.fileName, resumable: resumable)
                return await Hostile.outcome { try await provider.download("/file.bin", to: sink, options: DownloadOptions(resume: resumable)) }
            }
        }
    }

    @Test("a symlink at NAME.strata-partial pointing outside the folder", arguments: [false, true])
    func partialSymlink(_ resumable: Bool) async throws {
        let layout = try Layout()
        defer { layout.remove() }
        try layout.link(HostileScenario.fileName + ".strata-partial")
        let outcome = try await download(into: layout, resumable: resumable)
        #expect((try? Data(contentsOf: layout.victim)) == Self.original, "the download wrote through the symlink (\(outcome))")
        if case .value = outcome {
            #expect(layout.finalIsRegularWithContent)
        } else {
            #expect(!FileManager.default.fileExists(atPath: layout.final.path), "\(outcome)")
        }
    }

    @Test("a dangling symlink at NAME.strata-partial does not create its target")
    func danglingPartialSymlink() async throws {
        let layout = try Layout(victimExists: false)
        defer { layout.remove() }
        try layout.link(HostileScenario.fileName + ".strata-partial")
        let outcome = try await download(into: layout)
        #expect(!FileManager.default.fileExists(atPath: layout.victim.path), "the download created a file outside the folder (\(outcome))")
    }

    @Test("a symlink at NAME.strata-partial.etag is not written through")
    func etagSymlink() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        try layout.link(HostileScenario.fileName + ".strata-partial.etag")
        let outcome = try await download(into: layout, resumable: true)
        #expect((try? Data(contentsOf: layout.victim)) == Self.original, "the etag went through the symlink (\(outcome))")
    }

    @Test("a symlink at the final name is replaced, not followed")
    func finalSymlink() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        try layout.link(HostileScenario.fileName)
        let outcome = try await download(into: layout)
        if case .value = outcome {} else { Issue.record("download \(outcome)") }
        #expect((try? Data(contentsOf: layout.victim)) == Self.original, "the download wrote through the symlink")
        #expect(layout.finalIsRegularWithContent)
    }

    @Test("strata get into a folder with a symlink at NAME.strata-partial")
    func cli() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        try layout.link(HostileScenario.fileName + ".strata-partial")
        try await Hostile.withServer(.webdavFile(Self.content)) { server in
            let run = try await StrataCLI.run(["get", Hostile.target("webdav", server, "/file.bin"), layout.inside.path])
            #expect(!run.trapped && !run.killed, "\(run.error)")
            #expect((try? Data(contentsOf: layout.victim)) == Self.original, "strata get wrote through the symlink")
            if run.status == 0 { #expect(layout.finalIsRegularWithContent) }
        }
    }

    @Test("a hard link at NAME.strata-partial to a file outside: a resume never appends to that file")
    func partialHardLink() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        // The victim holds 500 bytes that look like the start of the download, hard-linked in as the partial file.
        let prefix = Data(Self.content.prefix(500))
        try prefix.write(to: layout.victim)
        try FileManager.default.linkItem(at: layout.victim, to: layout.inside.appendingPathComponent(HostileScenario.fileName + ".strata-partial"))
        let outcome = try await Hostile.withServer(.webdavRangeFile(Self.content)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let sink = try FileSink(folder: layout.inside, name: HostileScenario.fileName, resumable: true)
                return await Hostile.outcome { try await provider.download("/file.bin", to: sink, options: DownloadOptions(resume: true)) }
            }
        }
        #expect((try? Data(contentsOf: layout.victim)) == prefix, "the resume wrote into the hard-linked file outside the folder (\(outcome))")
        if case .value = outcome { #expect(layout.finalIsRegularWithContent) }
    }

    @Test("a FIFO or a folder at NAME.strata-partial: an error or a clean download, never a hang", arguments: ["fifo", "folder"], [false, true])
    func partialNotAFile(_ kind: String, _ resumable: Bool) async throws {
        let layout = try Layout()
        defer { layout.remove() }
        let partial = layout.inside.appendingPathComponent(HostileScenario.fileName + ".strata-partial")
        if kind == "fifo" {
            #expect(mkfifo(partial.path, 0o600) == 0)
        } else {
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: false)
        }
        let outcome = try await download(into: layout, resumable: resumable)
        switch outcome {
        case .value: #expect(layout.finalIsRegularWithContent)
        case .failure: #expect(!FileManager.default.fileExists(atPath: layout.final.path), "\(outcome)")
        default: Issue.record("download \(outcome)")
        }
    }

    @Test("Nuxeo titles that are no names (a slash, .., ., NUL) are listed under names that stay inside the folder")
    func nuxeoTitles() async throws {
        try await Hostile.withServer(.nuxeoTitles()) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.nuxeo(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root) }
                guard case .value(let items) = outcome else {
                    Issue.record("listing \(outcome)")
                    return
                }
                #expect(items.count == HostileScenario.nuxeoUnsafeTitles.count)
                for item in items {
                    #expect(item.path.parent == .root, "\(item.path)")
                    #expect((try? ItemPath.validate(name: item.name)) != nil, "\(item.name.debugDescription)")
                }
            }
            // strata get of a listed name writes inside the chosen folder.
            let folder = try Hostile.temporaryFolder("nuxeo-titles")
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try await StrataCLI.run(["ls", Hostile.target("nuxeo", server, "/nuxeo/"), "-u", Hostile.user], directory: folder)
            #expect(!run.trapped && !run.killed, "\(run.error)")
            #expect(run.status == 0, "\(run.error)")
        }
    }

    @Test("a Pydio node named .. or . or nothing: invalidResponse (the server's fault), never a path outside",
        arguments: ["/..", "/.", "/", "/a/../.."])
    func pydioNodePath(_ path: String) async throws {
        try await Hostile.withServer(.pydioNodePath(path)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.pydio(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root) }
                switch outcome {
                case .value(let items):
                    #expect(items.allSatisfy { $0.path.parent == .root && $0.name != ".." && $0.name != "." }, "\(items.map(\.path))")
                case .failure(let error):
                    #expect(error.code == .invalidResponse, "\(error)")
                default:
                    Issue.record("listing \(outcome)")
                }
            }
        }
    }
}
