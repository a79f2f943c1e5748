import Foundation
import StrataFuzzTargets

// Two builds of one file. `scripts/fuzz` builds it with `-sanitize=fuzzer,address -D STRATA_FUZZ
// -parse-as-library`: libFuzzer runs the process and calls the two `LLVMFuzzer…` entry points
// below. A normal `swift build` gets the `@main` replayer instead, so the package links without
// the fuzzer runtime.

#if STRATA_FUZZ
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// The entry point SwiftPM names `main` on Linux (`--defsym main=strata_fuzz_main`, for
    /// testable executables): hands the process to libFuzzer, as libFuzzer's own `main` would.
    @_cdecl("strata_fuzz_main")
    public func strataFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments, fuzzerTestOneInput)
    }

    /// The target this process fuzzes, chosen once by ``fuzzerInitialize(_:_:)`` before any input.
    nonisolated(unsafe) private var selectedTarget: FuzzTarget?

    /// libFuzzer's start hook: reads `--target=NAME` (libFuzzer ignores flags that start with
    /// `--`) or `STRATA_FUZZ_TARGET`.
    @_cdecl("LLVMFuzzerInitialize")
    public func fuzzerInitialize(
        _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
    ) -> Int32 {
        var name = ProcessInfo.processInfo.environment["STRATA_FUZZ_TARGET"]
        for index in 0..<Int(argc.pointee) {
            guard let argument = argv.pointee[index].map({ String(cString: $0) }) else { continue }
            if argument.hasPrefix("--target=") { name = String(argument.dropFirst("--target=".count)) }
        }
        guard let name, let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("strata-fuzz: say which target with --target=NAME (\(names))\n".utf8))
            exit(2)
        }
        selectedTarget = target
        return 0
    }

    /// libFuzzer's per-input hook: a finding is turned into a crash, so libFuzzer keeps the input.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        guard let target = selectedTarget else { return 0 }
        let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
        if case .finding(let text) = target.run(data) {
            fatalError("strata-fuzz \(target.rawValue): \(text)")
        }
        return 0
    }
#else
    /// Without the fuzzer: replays files through a target and prints each outcome
    /// (`strata-fuzz TARGET FILE…`), for looking at a reproducer in a debugger.
    @main
    struct StrataFuzzReplayer {
        static func main() {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
                print("usage: strata-fuzz \(names) FILE…  (replays files; scripts/fuzz builds the fuzzer)")
                exit(2)
            }
            var findings = 0
            for path in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    print("\(path): cannot read")
                    findings += 1
                    continue
                }
                let outcome = target.run(data)
                if outcome.isFinding { findings += 1 }
                print("\(path): \(outcome)")
            }
            exit(findings == 0 ? 0 : 1)
        }
    }
#endif
