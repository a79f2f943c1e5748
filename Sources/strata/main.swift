// The `strata` command-line tool: the StrataCLI library with the built-in adapters alone.
// A company's own `strata` adds its adapters: StrataCommandLine(extraFactories: [AcmeProviderFactory()]).
import StrataCLI

await StrataCommandLine().main()
