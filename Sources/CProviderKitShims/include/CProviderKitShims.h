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

/// Sets the Swift runtime's global-enqueue hook (`swift_task_enqueueGlobal_hook`, the hook that
/// lets a process run its tasks on an executor of its own) to `hook`, if no hook is set yet;
/// returns whether it did. `hook` is a Swift `@convention(thin) (UnownedJob, @convention(thin)
/// (UnownedJob) -> Void) -> Void` function.
///
/// The hook is reached by linking, not by `dlsym`: in an executable linked with
/// `--static-swift-stdlib` the Swift runtime's symbols are local to the binary, so `dlsym` cannot
/// find the hook (swift-nio's installer then gives up), while a reference from this object still
/// links to it.
_Bool cproviderkit_install_enqueue_global_hook(void *hook);

/// Whether the folder `fd` folds case, as its file system says (Linux `FS_IOC_GETFLAGS` and
/// `FS_CASEFOLD_FL`: an ext4, f2fs or tmpfs folder made with `chattr +F`, whose names are also
/// compared after Unicode normalisation): 1 if it does, 0 if the flags say it does not, -1 with
/// `errno` set where the file system has no such flags (and on other systems: `ENOTSUP`).
int cproviderkit_folder_case_folds(int fd);

/// The file system type of the folder `fd` (`fstatfs`'s `f_type` on Linux), or 0 where unknown.
long cproviderkit_file_system_type(int fd);

#endif
