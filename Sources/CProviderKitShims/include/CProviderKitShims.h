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

/// Whether the folder `fd` folds case, as its file system says (Linux `FS_IOC_GETFLAGS` and
/// `FS_CASEFOLD_FL`: an ext4, f2fs or tmpfs folder made with `chattr +F`, whose names are also
/// compared after Unicode normalisation): 1 if it does, 0 if the flags say it does not, -1 with
/// `errno` set where the file system has no such flags (and on other systems: `ENOTSUP`).
int cproviderkit_folder_case_folds(int fd);

/// The file system type of the folder `fd` (`fstatfs`'s `f_type` on Linux), or 0 where unknown.
long cproviderkit_file_system_type(int fd);

#include "CProviderKitSecretService.h"

#endif
