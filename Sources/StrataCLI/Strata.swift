import ArgumentParser
import Foundation
import ProviderAPI

/// The root command of the `strata` command-line tool: one set of commands for every content
/// server Strata supports. ``StrataCommandLine`` parses and runs it with its adapters.
struct Strata: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "List, fetch, upload, search, share and manage files on WebDAV, Nuxeo, Pydio and other content servers.",
        discussion: """
            Targets are URLs whose scheme picks the adapter (webdav://host/path, webdavs://host/path, \
            nuxeo://host/nuxeo/default-domain/workspaces/ws, pydio://host/pydio/my-files/folder, \
            nuxeos://… and pydios://… for HTTPS) or saved remotes \
            (name:/path, from --remotes; 'strata remote add NAME URL' saves one). Credentials come from --user and the STRATA_PASSWORD or \
            STRATA_TOKEN environment variables (or --password-file); they are never printed. Adapter \
            options go in -o key=value (repeatable), e.g. -o auth=token for Nuxeo token authentication. \
            --cache DIR keeps an offline cache of what is read; --offline answers from it alone, and \
            records writes (mkdir, put, rm, mv, cp) in the cache's sync journal: 'strata pending' lists \
            them, 'strata replay' sends them, 'strata resolve' settles conflicts. \
            `strata adapters` lists the adapters and schemes this build knows. `copy`, `sync` and `check` \
            transfer and compare trees between any two targets (two servers, or a server and a local folder).
            """,
        version: "0.1.0",
        subcommands: [
            ListCommand.self, StatCommand.self, GetCommand.self, PutCommand.self, MkdirCommand.self,
            RemoveCommand.self, MoveCommand.self, CopyCommand.self, TreeCopyCommand.self, SyncCommand.self, CheckCommand.self,
            SearchCommand.self, ShareCommand.self,
            SharesCommand.self, UnshareCommand.self, ConformanceCommand.self, DetectCommand.self, CacheCommand.self,
            PendingCommand.self, ReplayCommand.self, ResolveCommand.self, AdaptersCommand.self, RemoteCommand.self,
            LoginCommand.self, LogoutCommand.self,
        ])

    /// `error` as it may be printed: a ``ProviderError`` (whose message may quote a server) with
    /// secrets masked by ``Redactor`` and control characters escaped (``TerminalText``); a file
    /// error of Foundation as the file and the reason in words (``FileErrorText``); any other
    /// error as it is.
    static func printable(_ error: any Error) -> any Error {
        if let failure = error as? ProviderError {
            return PrintedError(description: TerminalText.escape(Redactor.redact(failure.description)))
        }
        if let text = FileErrorText.describe(error) {
            return PrintedError(description: Redactor.redact(text))
        }
        return error
    }
}

/// An error already made safe to print.
struct PrintedError: Error, CustomStringConvertible {
    let description: String
}
