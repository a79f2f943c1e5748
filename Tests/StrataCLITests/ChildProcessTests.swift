import Foundation
import StrataProcessKit
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `posix_spawn` launcher every test that starts a child uses (instead of Foundation's
/// `Process`, whose `run()` crashes now and then on Linux).
@Suite("ChildProcess")
struct ChildProcessTests {
    let shell = URL(fileURLWithPath: "/bin/sh")

    @Test("arguments, environment, working folder, output pipe, error file and exit status reach and leave the child")
    func runsAChild() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let errorFile = folder.appendingPathComponent("err")
        let child = try ChildProcess(
            executable: shell, arguments: ["-c", "echo \"$1 $GREETING\"; pwd; echo oops >&2; exit 3", "sh", "one arg"],
            environment: ["GREETING": "hé", "PATH": "/usr/bin:/bin"], directory: folder, output: .pipe, error: .file(errorFile))
        let output = String(decoding: child.readToEnd(), as: UTF8.self)
        let ended = await child.terminated()
        #expect(ended == child.waitUntilExit())
        #expect(!ended.signaled)
        #expect(ended.status == 3)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == "one arg hé")
        #expect(lines.last.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } == folder.resolvingSymlinksInPath().path)
        #expect(try String(contentsOf: errorFile, encoding: .utf8) == "oops\n")
        #expect(!child.isRunning)
    }

    @Test("input pipe in, standard error merged into the output")
    func inputAndMergedError() throws {
        let child = try ChildProcess(executable: shell, arguments: ["-c", "read line; echo \"got $line\"; echo late >&2"], input: .pipe, output: .pipe, error: .output)
        #expect(child.write(Data("ping\n".utf8)))
        let output = String(decoding: child.readToEnd(), as: UTF8.self)
        #expect(output == "got ping\nlate\n")
        #expect(child.waitUntilExit() == child.waitUntilExit())
        #expect(child.waitUntilExit().status == 0)
    }

    @Test("a signal ends a running child and is reported; none is sent once the child is reaped")
    func signals() throws {
        let child = try ChildProcess(executable: shell, arguments: ["-c", "exec sleep 30"], output: .null)
        #expect(child.isRunning)
        #expect(child.signal(SIGKILL))
        let ended = child.waitUntilExit()
        #expect(ended.signaled)
        #expect(ended.status == SIGKILL)
        #expect(!child.isRunning)
        #expect(!child.signal(SIGTERM))
    }

    @Test("the child has none of this process's descriptors beyond 0, 1 and 2")
    func noLeakedDescriptors() throws {
        var pair: [Int32] = [0, 0]
        #expect(pipe(&pair) == 0)
        // Without close-on-exec, as a careless library would open them, and above the numbers
        // `ls` itself opens.
        let ends = [fcntl(pair[0], F_DUPFD, 300), fcntl(pair[1], F_DUPFD, 300)]
        defer { for descriptor in pair + ends { close(descriptor) } }
        #expect(ends.allSatisfy { $0 >= 300 })
        let child = try ChildProcess(executable: shell, arguments: ["-c", "ls /proc/self/fd || ls /dev/fd"], output: .pipe)
        let listed = String(decoding: child.readToEnd(), as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
        _ = child.waitUntilExit()
        #expect(!listed.contains(ends[0]))
        #expect(!listed.contains(ends[1]))
    }

    @Test("a missing executable is a thrown error, not a crash")
    func missingExecutable() {
        #expect(throws: ChildProcess.SpawnError.self) {
            _ = try ChildProcess(executable: URL(fileURLWithPath: "/nonexistent/strata-\(UUID().uuidString)"), arguments: [])
        }
    }
}
