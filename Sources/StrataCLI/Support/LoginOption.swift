import ArgumentParser

/// The option naming the user to sign in as; see ``ConnectionOptions``.
protocol LoginOption: ParsableArguments {
    /// The user name given on the command line.
    var user: String? { get }
}

/// The login as `-u/--user`, for every command but `share`.
struct UserLogin: LoginOption {
    @Option(name: [.short, .long], help: "User name (or put it in the URL: webdav://user@host/).")
    var user: String?
}

/// The login as `-u/--login`, for `share`, whose `--user` names the recipient.
struct ShareLogin: LoginOption {
    @Option(name: [.short, .customLong("login")], help: "User name to sign in as (or put it in the URL: nuxeo://user@host/).")
    var user: String?
}
