internal import CProviderKitShims
import Foundation
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension LocalFolder {
    /// How the file system of this folder tells names apart, as `NameRules` (POSIX defaults for
    /// the rest, `maxNameBytes` as given): whether it ignores case, and whether it keeps the NFC
    /// and NFD spellings of a name as two names.
    ///
    /// Asked of the file system where it can say: on Linux, the folder's `FS_CASEFOLD_FL` flag on
    /// a file system known to answer it truly (ext4, f2fs, tmpfs, XFS, Btrfs, ZFS, overlayfs: a
    /// folder without the flag is case-sensitive and byte-exact; one with it ignores case and
    /// Unicode normalisation); on Apple systems, `_PC_CASE_SENSITIVE`. Elsewhere (FAT, exFAT, NTFS,
    /// SMB or NFS mounts, FUSE) and for the normalisation on Apple systems, by ``probeNameIdentity()``;
    /// when that cannot write either, a case-sensitive, byte-exact file system is assumed.
    package func nameRules(maxNameBytes: Int = 255) -> NameRules {
        var rules = NameRules(maxNameBytes: maxNameBytes)
        #if os(Linux)
            let folds = cproviderkit_folder_case_folds(descriptor)
            if folds == 1 {
                rules.caseSensitive = false
                rules.normalizationInsensitive = true
                return rules
            }
            if folds == 0, Self.flagsTellCaseFolding.contains(cproviderkit_file_system_type(descriptor)) { return rules }
            if let probed = probeNameIdentity() { return probed.with(maxNameBytes: maxNameBytes) }
        #elseif canImport(Darwin)
            rules.caseSensitive = fpathconf(descriptor, _PC_CASE_SENSITIVE) != 0
            // APFS and HFS+ both hold the two spellings as one name.
            rules.normalizationInsensitive = probeNameIdentity()?.normalizationInsensitive ?? true
        #else
            if let probed = probeNameIdentity() { return probed.with(maxNameBytes: maxNameBytes) }
        #endif
        return rules
    }

    /// Linux file systems (`statfs` magic numbers) whose `FS_IOC_GETFLAGS` is the whole truth about
    /// case: ext2/3/4, f2fs, tmpfs, XFS, Btrfs, ZFS, overlayfs.
    private static let flagsTellCaseFolding: Set<Int> = [0xEF53, 0xF2F5_2010, 0x0102_1994, 0x5846_5342, 0x9123_683E, 0x2FC1_2FC1, 0x794C_7630]

    /// How this folder tells names apart, found by trying: a hidden temporary file
    /// (`LocalFolder.temporaryPrefix`) is made under a lower-case NFC name, looked up under the same
    /// name upper-cased and in NFD, and removed. `nil` when the folder cannot be written.
    package func probeNameIdentity() -> NameRules? {
        let stem = LocalFolder.temporaryPrefix + "names-" + UUID().uuidString.lowercased().prefix(8) + "-"
        let name = stem + "a\u{E9}"
        do {
            _ = try createFile(named: name, mode: 0o600)
        } catch {
            return nil
        }
        defer { try? removeFile(named: name) }
        guard let made = try? entry(named: name) else { return nil }
        func isMade(_ other: String) -> Bool {
            guard let found = try? entry(named: other) else { return false }
            return found.device == made.device && found.inode == made.inode
        }
        var rules = NameRules()
        rules.caseSensitive = !isMade(stem + "A\u{C9}")
        rules.normalizationInsensitive = isMade(stem + "ae\u{301}")
        return rules
    }
}

extension NameRules {
    /// These rules with `maxNameBytes` set.
    fileprivate func with(maxNameBytes: Int) -> NameRules {
        var rules = self
        rules.maxNameBytes = maxNameBytes
        return rules
    }
}
