#ifndef C_PROVIDER_KIT_SHIMS_H
#define C_PROVIDER_KIT_SHIMS_H

/// Opens `path` (relative, any number of segments) below the folder `dirfd` in one call, refusing
/// a symbolic link anywhere on the way and any step outside `dirfd` (Linux `openat2(2)` with
/// `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`): what opening each segment
/// with `O_NOFOLLOW` from `dirfd` does, one segment at a time.
///
/// Returns the descriptor, or -1 with `errno` set; `ENOSYS` where the system has no such call
/// (other systems, Linux before 5.6, a sandbox that refuses it).
int cproviderkit_open_beneath(int dirfd, const char *path, int flags);

#endif
