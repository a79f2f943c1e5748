import ArgumentParser
import Foundation
import ProviderAPI

struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share an item with a user, a group, an e-mail address or by public link.",
        discussion: """
            Name exactly one recipient. The login is -u/--login here, since --user names the recipient. \
            A server that cannot make this kind of share says so and the command fails \
            (Nuxeo has no public links, and needs --expires for e-mail shares).
            """)

    @OptionGroup var global: ConnectionOptions<ShareLogin>
    @Argument(help: "The item to share.") var target: String
    @Option(help: "Share with this user of the server.") var user: String?
    @Option(help: "Share with this group of the server.") var group: String?
    @Option(help: "Invite this e-mail address.") var email: String?
    @Flag(name: .customLong("public"), help: "Make a public link.") var publicLink = false
    @Option(help: "read, write or all (all includes delete and resharing).") var permission: String = "read"
    @Option(help: "When the share stops working: YYYY-MM-DD (midnight UTC) or an ISO 8601 time.") var expires: String?
    @Option(help: "A password for a public link (Nextcloud, ownCloud); visible to other users in the process list.")
    var password: String?
    @Option(help: "Read the public link's password from this file's first line (kept out of the process list).")
    var linkPasswordFile: String?
    @Option(help: "A note for the recipient.") var note: String?
    @Flag(help: "Ask the server to notify the recipient.") var notify = false

    func validate() throws {
        let given = [user != nil, group != nil, email != nil, publicLink].filter { $0 }.count
        guard given == 1 else { throw ValidationError("name exactly one of --user, --group, --email or --public") }
        if password != nil || linkPasswordFile != nil, !publicLink {
            throw ValidationError("--password and --link-password-file apply to --public links only")
        }
        if password != nil, linkPasswordFile != nil { throw ValidationError("give --password or --link-password-file, not both") }
        _ = try Self.permissions(permission)
        if let expires { _ = try DateArgument.parse(expires, what: "--expires") }
    }

    func run() async throws {
        let kind: ShareKind
        if let user {
            kind = .user(user)
        } else if let group {
            kind = .group(group)
        } else if let email {
            kind = .email(email)
        } else {
            kind = .publicLink
        }
        let linkPassword = try linkPasswordFile.map { file in
            let text = try FileErrorText.doing("read the link password file") { try String(contentsOfFile: file, encoding: .utf8) }
            return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        } ?? password
        let request = ShareRequest(
            kind: kind, permissions: try Self.permissions(permission), password: linkPassword,
            expires: try expires.map { try DateArgument.parse($0, what: "--expires") }, note: note, notify: notify)
        let (provider, path) = try await global.open(target)
        let share = try await provider.share(path, with: request)
        if let asked = request.expires, let kept = share.expires, abs(kept.timeIntervalSince(asked)) >= 1 {
            // The server rounds expiries (Pydio and ownCloud keep days): say what it kept.
            Output.error("note: the server keeps this share until \(Output.date(kept)), not \(Output.date(asked)) as asked")
        }
        if global.json { try Output.json(ShareSummary(share)) } else { Output.rawLine(ShareSummary(share).line) }
    }

    static func permissions(_ text: String) throws -> SharePermissions {
        switch text.lowercased() {
        case "read": return .read
        case "write": return [.read, .write, .create]
        case "all": return [.read, .write, .create, .delete, .reshare]
        default: throw ValidationError("--permission takes read, write or all, not '\(text)'")
        }
    }
}

struct SharesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shares", abstract: "List an item's shares: id, recipient, permissions, expiry, link.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The shared item.") var target: String

    func run() async throws {
        let (provider, path) = try await global.open(target)
        let shares = try await provider.shares(of: path).map(ShareSummary.init)
        if global.json {
            try Output.json(shares)
        } else {
            for share in shares { Output.rawLine(share.line) }
        }
    }
}

struct UnshareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unshare", abstract: "Remove a share of an item, by the id `strata shares` prints.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The shared item.") var target: String
    @Argument(help: "The share's id.") var shareID: String

    func run() async throws {
        let (provider, path) = try await global.open(target)
        guard let share = try await provider.shares(of: path).first(where: { $0.id == shareID }) else {
            throw ProviderError(.notFound, "\(path) has no share with id \(shareID)")
        }
        try await provider.revoke(share)
    }
}
