import ArgumentParser
import Foundation
import HTTPProviderKit
import LocalProvider
import NuxeoProvider
import ProviderAPI
import PydioProvider
import WebDAVProvider

/// The `strata` command-line tool as a library: every command, with the built-in adapters and any
/// others a company adds.
///
/// `strata` itself is this type with the built-ins alone. A company ships its own `strata`, with
/// its adapter beside the built-ins, in an executable target whose `main.swift` is:
///
/// ```swift
/// import AcmeProvider
/// import StrataCLI
///
/// await StrataCommandLine(extraFactories: [AcmeProviderFactory()]).main()
/// ```
///
/// Every command that names a target (`ls`, `get`, `put`, …, `conformance`), saved remotes of
/// the adapter's `ProviderFactory.kind`, `detect` (through `ProviderFactory.probe(_:context:)`)
/// and `adapters` (which lists kinds and schemes) then know the extra adapter as they know a
/// built-in one.
///
/// ## Topics
/// ### Running
/// - ``init(extraFactories:)``
/// - ``main()``
/// - ``run(_:)``
public struct StrataCommandLine: Sendable {
    /// The adapters every `strata` has, in the order they are registered.
    ///
    /// This list is the one place where a built-in adapter joins the command line.
    package static var builtInFactories: [any ProviderFactory] {
        [
            WebDAVProviderFactory(),
            OwnCloudProviderFactory(flavor: .nextcloud),
            OwnCloudProviderFactory(flavor: .owncloud),
            NuxeoProviderFactory(),
            PydioProviderFactory(),
            LocalProviderFactory(),
        ]
    }

    /// The adapters added to the built-ins, registered after them.
    ///
    /// An extra factory whose `ProviderFactory.kind` or scheme is a built-in's takes its place.
    package let extraFactories: [any ProviderFactory]

    /// The command line, being run (``run(_:)``): the adapters its commands know.
    @TaskLocal static var current = StrataCommandLine()

    /// A command line with the built-in adapters and `extraFactories`.
    public init(extraFactories: [any ProviderFactory] = []) {
        self.extraFactories = extraFactories
    }

    /// Every adapter, in the order the registry receives them: ``builtInFactories``, then
    /// ``extraFactories``.
    package var factories: [any ProviderFactory] { Self.builtInFactories + extraFactories }

    /// A registry with every adapter of ``factories`` registered, and no saved remote: what the
    /// commands resolve targets with (they add the remotes of `--remotes`).
    package func registry() -> ProviderRegistry {
        let registry = ProviderRegistry()
        for factory in factories { registry.register(factory) }
        return registry
    }

    /// Runs the command in the process's arguments and exits: with 0 after success, with the
    /// command's status after an error (printed on standard error, secrets masked), with 64 after
    /// a usage error.
    public func main() async -> Never {
        do {
            try await execute(nil)
        } catch {
            Strata.exit(withError: Strata.printable(error))
        }
        Strata.exit()
    }

    /// Runs one command, such as `["ls", "acme://host/folder"]` (without the program's name), in
    /// this process, and returns the status `main()` would exit with; what the command prints goes
    /// to standard output and standard error as usual.
    ///
    /// For tests and for tools that embed the command line.
    public func run(_ arguments: [String]) async -> Int32 {
        do {
            try await execute(arguments)
            return ExitCode.success.rawValue
        } catch {
            let printable = Strata.printable(error)
            let code = Strata.exitCode(for: printable)
            let message = Strata.fullMessage(for: printable)
            if !message.isEmpty {
                if code == .success { Output.standardOutput(Data((message + "\n").utf8)) } else { Output.standardError(Data((message + "\n").utf8)) }
            }
            return code.rawValue
        }
    }

    /// Parses `arguments` (the process's when `nil`) and runs the command with this command line's adapters.
    private func execute(_ arguments: [String]?) async throws {
        try await Self.$current.withValue(self) {
            var command = try Strata.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        }
    }
}
