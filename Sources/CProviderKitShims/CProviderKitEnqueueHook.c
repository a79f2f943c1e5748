#include "CProviderKitShims.h"

/// The Swift runtime's hook (libswift_Concurrency): a pointer to a function, or null for the
/// runtime's own global executor.
extern void *swift_task_enqueueGlobal_hook;

_Bool cproviderkit_install_enqueue_global_hook(void *hook) {
    void *expected = 0;
    return __atomic_compare_exchange_n(&swift_task_enqueueGlobal_hook, &expected, hook, 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST);
}
