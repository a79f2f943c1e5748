import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Foundation's file errors in words: the file and the reason ("/x/pass: no such file or
/// directory"), never the `Error Domain=NSCocoaErrorDomain Code=260 … UserInfo={…}` dump that
/// Foundation's description of them is.
enum FileErrorText {
    /// The text for `error` when it is a Foundation file or POSIX error; `nil` for any other error.
    static func describe(_ error: any Error) -> String? {
        let error = error as NSError
        switch error.domain {
        case NSCocoaErrorDomain:
            let path = error.userInfo[NSFilePathErrorKey] as? String ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
            let reason = reason(of: error, path: path)
            return path.map { "\(TerminalText.escape($0)): \(reason)" } ?? reason
        case NSPOSIXErrorDomain:
            return posixReason(Int32(truncatingIfNeeded: error.code))
        default:
            return nil
        }
    }

    /// What `body` returns; its error as "cannot `action`: " and ``describe(_:)``'s text (or the
    /// error's own description when it is not a file error), ready to print.
    static func doing<Result>(_ action: String, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw PrintedError(description: "cannot \(action): \(describe(error) ?? String(describing: error))")
        }
    }

    /// Why the file operation failed: the system's words for the POSIX error underneath, else
    /// the Cocoa code's meaning.
    private static func reason(of error: NSError, path: String?) -> String {
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posixReason(Int32(truncatingIfNeeded: underlying.code))
        }
        // A write that failed with no reason given (Foundation's 512 for a folder under a file):
        // what stands in the way, found on the path itself.
        if error.code == NSFileWriteUnknownError, let path, let blocker = fileAbove(path) {
            return "\(TerminalText.escape(blocker)) is a file, not a folder"
        }
        switch error.code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "no such file or directory"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        case NSFileReadInapplicableStringEncodingError, NSFileWriteInapplicableStringEncodingError: return "not UTF-8 text"
        case NSFileWriteOutOfSpaceError: return "no space left on the device"
        case NSFileWriteVolumeReadOnlyError: return "the volume is read-only"
        case NSFileWriteFileExistsError: return "a file is already there"
        case NSFileReadTooLargeError: return "the file is too large"
        case NSFileReadCorruptFileError: return "the file is damaged"
        default: return "file error \(error.code)"
        }
    }

    /// The nearest existing ancestor of `path` when it is not a folder.
    private static func fileAbove(_ path: String) -> String? {
        var url = URL(fileURLWithPath: path).deletingLastPathComponent()
        while url.path != "/" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
                return isFolder.boolValue ? nil : url.path
            }
            url.deleteLastPathComponent()
        }
        return nil
    }

    /// The system's message for `code` ("No such file or directory"), its first letter lowered.
    private static func posixReason(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        let text = String(cString: message)
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
