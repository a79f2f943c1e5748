import Foundation
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `lstat` says about one name in a local folder, without following a symbolic link.
///
/// ```swift
/// if let entry = try folder.entry(named: "q3.pdf"), entry.kind == .file { print(entry.size) }
/// ```
package struct LocalEntry: Sendable, Hashable {
    /// What the name holds.
    package enum Kind: Sendable, Hashable {
        /// A regular file.
        case file
        /// A folder.
        case folder
        /// A symbolic link (never followed).
        case symbolicLink
        /// Anything else: a FIFO, a socket, a device.
        case other
    }

    /// What the name holds.
    package var kind: Kind
    /// The size in bytes.
    package var size: Int64
    /// The last modification time, to the nanosecond where the file system keeps it.
    package var modified: Date
    /// The modification time as whole seconds and nanoseconds, exactly as stored.
    package var modifiedSeconds: Int64
    /// The nanoseconds part of ``modifiedSeconds``.
    package var modifiedNanoseconds: Int64
    /// The device the entry is on.
    package var device: UInt64
    /// The inode: with ``device``, it names the file whatever its path, and survives a rename.
    package var inode: UInt64
    /// The permission bits (`0o644`).
    package var mode: UInt32

    /// The entry `stat` describes.
    package init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .folder
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int64(info.st_size)
        #if canImport(Darwin)
            modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
            modifiedSeconds = Int64(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
        modified = Date(timeIntervalSince1970: Double(modifiedSeconds) + Double(modifiedNanoseconds) / 1e9)
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        mode = UInt32(info.st_mode) & 0o7777
    }

    /// An id for the file or folder that survives a rename: device and inode, in hex.
    package var stableID: String {
        var text = HexText(capacity: 34)
        text.append(device)
        text.append(UInt8(ascii: ":"))
        text.append(inode)
        return text.string
    }

    /// A token that changes whenever the content is replaced or modified: the modified time to
    /// the nanosecond, the size and the inode (an atomic replace gives a new inode even when
    /// the time and size are the same), quoted like an HTTP entity tag.
    package var etag: String {
        // Written as `String(_:radix: 16)` writes each number, without its generic conversion
        // (six of those were most of the cost of an item in a copy of many small local files).
        var text = HexText(capacity: 72)
        text.append(UInt8(ascii: "\""))
        text.append(modifiedSeconds)
        text.append(UInt8(ascii: "."))
        text.append(modifiedNanoseconds)
        text.append(UInt8(ascii: "-"))
        text.append(size)
        text.append(UInt8(ascii: "-"))
        text.append(inode)
        text.append(UInt8(ascii: "\""))
        return text.string
    }
}
