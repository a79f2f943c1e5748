import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ProviderError {
    /// The error for a failed system call on local storage, from its `errno`.
    ///
    /// | `errno` | code |
    /// |---|---|
    /// | `ENOENT` | ``Code/notFound`` |
    /// | `EEXIST` | ``Code/alreadyExists`` |
    /// | `ENOTEMPTY` | ``Code/conflict`` (a folder that is not empty) |
    /// | `EACCES`, `EPERM` | ``Code/forbidden`` |
    /// | `ENOSPC`, `EDQUOT` | ``Code/quotaExceeded`` |
    /// | `ENOTDIR`, `EISDIR` | ``Code/conflict`` (a file where a folder is needed, or the reverse) |
    /// | `ENAMETOOLONG`, `EINVAL`, `ELOOP` | ``Code/invalidArgument`` (`ELOOP`: a symbolic link where none is followed) |
    /// | `ECANCELED` | ``Code/cancelled`` |
    /// | `EIO`, `EROFS`, `EXDEV`, `EMFILE` and any other | ``Code/io`` |
    ///
    /// The message names the action and the path, and the system's text for the error; the
    /// path is the caller's own, so it carries no secret.
    ///
    /// ```swift
    /// guard mkdir(path, 0o777) == 0 else { throw ProviderError.posix(errno, action: "create the folder", path: path) }
    /// ```
    ///
    /// - Parameters:
    ///   - code: the `errno` value.
    ///   - action: what was being done, as a verb phrase (`"open"`, `"rename"`).
    ///   - path: the file or folder it was done to.
    public static func posix(_ code: Int32, action: String, path: String) -> ProviderError {
        ProviderError(posixCode(code), "cannot \(action) \(path): \(String(cString: strerror(code)))")
    }

    /// The ``Code`` an `errno` value maps to, as ``posix(_:action:path:)`` describes.
    package static func posixCode(_ code: Int32) -> Code {
        switch code {
        case ENOENT: return .notFound
        case EEXIST: return .alreadyExists
        case ENOTEMPTY, ENOTDIR, EISDIR: return .conflict
        case EACCES, EPERM: return .forbidden
        case ENOSPC, EDQUOT: return .quotaExceeded
        case ENAMETOOLONG, EINVAL, ELOOP: return .invalidArgument
        case ECANCELED: return .cancelled
        default: return .io
        }
    }

    /// `error` as a `ProviderError` when it is a file-system error Foundation or the system
    /// threw, `nil` otherwise.
    static func fileSystemError(_ error: any Error) -> ProviderError? {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain {
            return posix(Int32(truncatingIfNeeded: ns.code), action: "use", path: (ns.userInfo[NSFilePathErrorKey] as? String) ?? "a file")
        }
        guard ns.domain == NSCocoaErrorDomain, let cocoa = error as? CocoaError, cocoa.isFileError else { return nil }
        let path = cocoa.filePath ?? cocoa.url?.path ?? "a file"
        if let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posix(Int32(truncatingIfNeeded: underlying.code), action: "use", path: path)
        }
        return ProviderError(cocoaCode(cocoa.code), "cannot use \(path): file error \(cocoa.code.rawValue)")
    }

    private static func cocoaCode(_ code: CocoaError.Code) -> Code {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return .notFound
        case .fileWriteFileExists: return .alreadyExists
        case .fileReadNoPermission, .fileWriteNoPermission: return .forbidden
        case .fileWriteOutOfSpace: return .quotaExceeded
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: return .invalidArgument
        default: return .io
        }
    }

    /// The `errno` values of a socket that failed: the network, not this machine's storage.
    private static let networkErrnos: Set<Int32> = [
        ECONNRESET, ECONNREFUSED, ECONNABORTED, EPIPE, ETIMEDOUT, ENETUNREACH, ENETDOWN, EHOSTUNREACH, ENOTCONN,
    ]

    /// `error` as a `ProviderError` when it is one of NIO's: a `ChannelError` is
    /// ``Code/network``, an `IOError` ``Code/network`` for a socket's `errno` and as
    /// `posixCode(_:)` says otherwise; `nil` for any other error.
    static func nioError(_ error: any Error) -> ProviderError? {
        let underlying = Redactor.redact(String(describing: error))
        if error is ChannelError { return ProviderError(.network, "connection failed", underlying: underlying) }
        guard let io = error as? IOError else { return nil }
        if networkErrnos.contains(io.errnoCode) { return ProviderError(.network, "connection failed", underlying: underlying) }
        return ProviderError(posixCode(io.errnoCode), "I/O error: \(String(cString: strerror(io.errnoCode)))", underlying: underlying)
    }
}
