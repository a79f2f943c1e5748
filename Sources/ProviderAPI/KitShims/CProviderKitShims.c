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
