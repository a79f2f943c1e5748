import ArgumentParser

/// `strata-bench`: the Strata side of `scripts/bench`, calling the API directly (no CLI
/// formatting) so that the benchmark can tell the library's cost from the tool's.
///
/// Each subcommand does one piece of work once and checks its result (entry count, digest,
/// size); a wrong result exits non-zero. Timing and peak memory are measured from outside.
@main
struct StrataBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-bench",
        abstract: "One Strata API operation per run, for scripts/bench.",
        discussion: """
            Targets are Strata URLs (webdav://127.0.0.1:8081/dir, nuxeo://…, pydio://…). The user comes \
            from the URL or STRATA_USER, the password from STRATA_PASSWORD.
            """,
        subcommands: [ListBench.self, GetBench.self, PutBench.self, PutManyBench.self, RefreshBench.self])
}
