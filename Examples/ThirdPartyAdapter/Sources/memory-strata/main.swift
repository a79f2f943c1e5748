// memory-strata: the whole `strata` command line, with the memory adapter beside the built-ins.
//
//   memory-strata adapters                      # lists memory (added) with webdav, nuxeo, pydio, …
//   memory-strata conformance memory://demo/    # runs the conformance suite on the adapter
//
// A company's own strata is this file with its factory in place of MemoryProviderFactory().
import MemoryAdapter
import StrataCLI

await StrataCommandLine(extraFactories: [MemoryProviderFactory()]).main()
