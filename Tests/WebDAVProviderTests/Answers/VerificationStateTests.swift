import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import Testing
@testable import WebDAVProvider

/// A gate a verification waits at, so that other callers arrive while it runs.
private final class Gate: Sendable {
    private let opened = NIOLockedValueBox(false)
    func open() { opened.withLockedValue { $0 = true } }
    func pass() async {
        while !opened.withLockedValue({ $0 }) { try? await Task.sleep(for: .milliseconds(2)) }
    }
}

private let complete = WebDAVVerifiedBehaviour(
    refusesIfNoneMatchStar: true, refusesStaleIfMatch: true, mkcolRefusesExisting: true, listsDotFiles: true,
    keepsPartialUploads: false, mergesOnFolderOverwrite: false, refusedNameCharacters: [], allowsLeadingSpace: true,
    nameNormalization: .preserved, nameCase: .sensitive, copyMergesOnFolderOverwrite: false, allowsTrailingSpace: true,
    allowsTrailingDot: true, maxNameBytes: 255, normalizationInsensitive: false, namesNotKept: [.put: [], .move: [], .copy: [], .mkcol: []],
    servesRanges: true, rangeProblems: [], putCreatesParents: false)

/// A state of its own (verdicts are remembered per server and user in the process).
private func freshState() -> WebDAVVerificationState {
    WebDAVVerificationState(
        subject: .init(server: "http://verify-\(UUID().uuidString).test", user: "u", serverHeader: nil), declared: .unverified,
        store: nil)
}

@Suite("WebDAV verification state")
struct VerificationStateTests {
    @Test("callers that arrive while a verification runs wait for that one run")
    func oneRun() async {
        let state = freshState()
        let runs = NIOLockedValueBox(0)
        let finished = NIOLockedValueBox(0)
        let gate = Gate()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    await state.ensure {
                        runs.withLockedValue { $0 += 1 }
                        await gate.pass()
                        return complete
                    }
                    #expect(state.verdict == complete, "a caller returns only once the verdict is in")
                    finished.withLockedValue { $0 += 1 }
                }
            }
            while runs.withLockedValue({ $0 }) == 0 { try? await Task.sleep(for: .milliseconds(1)) }
            try? await Task.sleep(for: .milliseconds(50))
            #expect(finished.withLockedValue { $0 } == 0)
            gate.open()
        }
        #expect(runs.withLockedValue { $0 } == 1)
        #expect(finished.withLockedValue { $0 } == 10)
        await state.ensure {
            Issue.record("a complete verdict is not verified again")
            return nil
        }
    }

    @Test("a verification that cannot finish is tried maxAttempts times, then no more")
    func attemptLimit() async {
        let state = freshState()
        let runs = NIOLockedValueBox(0)
        let partial = WebDAVVerifiedBehaviour(listsDotFiles: true)
        for _ in 0..<(WebDAVVerificationState.maxAttempts + 2) {
            await state.ensure {
                runs.withLockedValue { $0 += 1 }
                return partial
            }
        }
        #expect(runs.withLockedValue { $0 } == WebDAVVerificationState.maxAttempts)
        #expect(state.verdict == partial)
    }

    @Test("a caller that arrives during the last attempt waits for it")
    func waitsForLastAttempt() async {
        let state = freshState()
        for _ in 0..<(WebDAVVerificationState.maxAttempts - 1) {
            await state.ensure { WebDAVVerifiedBehaviour(listsDotFiles: false) }
        }
        let started = NIOLockedValueBox(false)
        let lateFinished = NIOLockedValueBox(false)
        let gate = Gate()
        async let last: Void = state.ensure {
            started.withLockedValue { $0 = true }
            await gate.pass()
            return complete
        }
        while !started.withLockedValue({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
        async let late: Void = {
            await state.ensure {
                Issue.record("no attempt is left for a new run")
                return nil
            }
            lateFinished.withLockedValue { $0 = true }
            #expect(state.verdict == complete, "the late caller saw the last attempt's verdict")
        }()
        try? await Task.sleep(for: .milliseconds(50))
        #expect(!lateFinished.withLockedValue { $0 })
        gate.open()
        _ = await (last, late)
        #expect(lateFinished.withLockedValue { $0 })
    }
}
