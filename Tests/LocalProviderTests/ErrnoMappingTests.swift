import Foundation
import ProviderAPI
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("errno → ProviderError")
struct ErrnoMappingTests {
    @Test("each errno maps to its code")
    func codes() {
        let expected: [(Int32, ProviderError.Code)] = [
            (ENOENT, .notFound), (EEXIST, .alreadyExists), (EACCES, .forbidden), (EPERM, .forbidden), (ENOSPC, .quotaExceeded),
            (EDQUOT, .quotaExceeded), (ENOTDIR, .conflict), (EISDIR, .conflict), (ENOTEMPTY, .conflict),
            (ENAMETOOLONG, .invalidArgument), (EINVAL, .invalidArgument), (ELOOP, .invalidArgument), (EIO, .io), (EROFS, .io),
            (EXDEV, .io), (EMFILE, .io), (ECANCELED, .cancelled),
        ]
        for (code, wanted) in expected {
            #expect(ProviderError.posixCode(code) == wanted, "errno \(code)")
        }
    }

    @Test("the message names the action and the path")
    func message() {
        let error = ProviderError.posix(EROFS, action: "write", path: "/mnt/ro/a.txt")
        #expect(error.code == .io)
        #expect(error.message?.hasPrefix("cannot write /mnt/ro/a.txt: ") == true)
    }

    @Test("wrap maps file-system errors instead of calling them network failures")
    func wrap() {
        #expect(ProviderError.wrap(POSIXError(.ENOSPC)).code == .quotaExceeded)
        #expect(ProviderError.wrap(POSIXError(.EIO)).code == .io)
        #expect(ProviderError.wrap(CocoaError(.fileNoSuchFile)).code == .notFound)
        #expect(ProviderError.wrap(CocoaError(.fileWriteOutOfSpace)).code == .quotaExceeded)
        #expect(ProviderError.wrap(CocoaError(.fileWriteVolumeReadOnly)).code == .io)
        #expect(ProviderError.wrap(NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))).code == .forbidden)
        #expect(ProviderError.wrap(URLError(.timedOut)).code == .network)
    }

    @Test("a real failed call: reading a missing file through Foundation is notFound")
    func foundation() {
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)"))
            Issue.record("read a missing file")
        } catch {
            #expect(ProviderError.wrap(error).code == .notFound)
        }
    }
}
