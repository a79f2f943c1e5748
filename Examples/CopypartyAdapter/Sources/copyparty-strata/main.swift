// copyparty-strata: the whole `strata` command line, with the copyparty adapter beside the built-ins.
//
//   copyparty-strata adapters                                  # lists copyparty (added)
//   copyparty-strata ls copyparty://127.0.0.1:3923/ --user ann  # a folder of a copyparty server
//   copyparty-strata conformance copyparty://127.0.0.1:3923/scratch/
import CopypartyAdapter
import StrataCLI

await StrataCommandLine(extraFactories: [CopypartyProviderFactory()]).main()
