#ifndef C_PROVIDER_KIT_SECRET_SERVICE_H
#define C_PROVIDER_KIT_SECRET_SERVICE_H

// The freedesktop Secret Service through libsecret, loaded at run time with dlopen: the build
// needs neither libsecret nor its headers, and a system without it reports the keyring as absent.
// The few signatures used are declared in the .c file from libsecret's and GLib's headers
// (libsecret 0.19 or later). Every string is UTF-8. Items are of the schema `org.strata.Login`,
// whose attributes are `application`, `remote` and `scope` (all strings).
//
// The calls block (they talk D-Bus and may wait for a prompt): callers run them on a thread that
// may block. Each takes a cancellable, which another thread may cancel to give up waiting.
// A failing call returns -1 and sets `*message` to a text saying why (free it with `free`).

/// An opaque `GCancellable`.
typedef struct cproviderkit_secret_cancellable cproviderkit_secret_cancellable;

/// Loads libsecret (`libsecret-1.so.0`) once; NULL when it is loaded, else a constant text
/// saying why it cannot be (not installed, a symbol missing, not on this system).
const char *cproviderkit_secret_load(void);

/// A new cancellable (NULL if libsecret is not loaded), to be freed with
/// `cproviderkit_secret_cancellable_free` once the call it was given to has returned.
cproviderkit_secret_cancellable *cproviderkit_secret_cancellable_new(void);
/// Cancels the call the cancellable was given to (any thread may call it).
void cproviderkit_secret_cancellable_cancel(cproviderkit_secret_cancellable *cancellable);
/// Releases the cancellable.
void cproviderkit_secret_cancellable_free(cproviderkit_secret_cancellable *cancellable);

/// Whether a Secret Service answers on the session bus and has a default collection (it may be
/// locked: using it then asks the user to unlock it). 0 when it does.
int cproviderkit_secret_check(cproviderkit_secret_cancellable *cancellable, char **message);

/// Stores `secret` in the default collection, labelled `label`, with the `count` attributes
/// `names[i]=values[i]`, replacing an item with the same attributes.
int cproviderkit_secret_store(
    const char *const *names, const char *const *values, int count, const char *label, const char *secret,
    cproviderkit_secret_cancellable *cancellable, char **message);

/// The secret of the item with these attributes in `*secret` (NULL when there is none; else free
/// it with `cproviderkit_secret_free`).
int cproviderkit_secret_lookup(
    const char *const *names, const char *const *values, int count, char **secret,
    cproviderkit_secret_cancellable *cancellable, char **message);

/// Removes every item with these attributes (none is not an error).
int cproviderkit_secret_clear(
    const char *const *names, const char *const *values, int count, cproviderkit_secret_cancellable *cancellable,
    char **message);

/// The value of the attribute `wanted` of every item with these attributes, locked or not, in
/// `*found` (`*found_count` of them; free with `cproviderkit_secret_free_list`). The secrets are
/// not read.
int cproviderkit_secret_search(
    const char *const *names, const char *const *values, int count, const char *wanted, char ***found, int *found_count,
    cproviderkit_secret_cancellable *cancellable, char **message);

/// Wipes and frees a secret returned by `cproviderkit_secret_lookup`.
void cproviderkit_secret_free(char *secret);

/// Frees a list returned by `cproviderkit_secret_search`.
void cproviderkit_secret_free_list(char **list, int count);

#endif
