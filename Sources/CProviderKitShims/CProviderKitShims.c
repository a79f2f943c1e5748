#include "CProviderKitShims.h"

#include <errno.h>

#if defined(__linux__)
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif
#endif

int cproviderkit_open_beneath(int dirfd, const char *path, int flags) {
#if defined(__linux__) && defined(SYS_openat2) && defined(RESOLVE_BENEATH)
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (uint64_t)(unsigned int)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
    if (fd < 0 && (errno == EPERM || errno == EINVAL || errno == E2BIG)) {
        // A sandbox that filters the call, or a kernel that knows other fields: as if it had none.
        errno = ENOSYS;
    }
    return (int)fd;
#else
    (void)dirfd;
    (void)path;
    (void)flags;
    errno = ENOSYS;
    return -1;
#endif
}

#if defined(__linux__)
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <linux/fs.h>
#ifndef FS_CASEFOLD_FL
#define FS_CASEFOLD_FL 0x40000000
#endif
#endif

int cproviderkit_folder_case_folds(int fd) {
#if defined(__linux__) && defined(FS_IOC_GETFLAGS)
    int flags = 0;  // the kernel reads and writes an int, whatever the macro's type says
    if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) return -1;
    return (flags & FS_CASEFOLD_FL) ? 1 : 0;
#else
    (void)fd;
    errno = ENOTSUP;
    return -1;
#endif
}

long cproviderkit_file_system_type(int fd) {
#if defined(__linux__)
    struct statfs info;
    if (fstatfs(fd, &info) != 0) return 0;
    return (long)info.f_type;
#else
    (void)fd;
    return 0;
#endif
}
