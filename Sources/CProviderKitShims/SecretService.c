#include "CProviderKitSecretService.h"

#include <stdlib.h>
#include <string.h>

#if !defined(__APPLE__) && !defined(_WIN32)
#define CPROVIDERKIT_HAS_DLOPEN 1
#include <dlfcn.h>
#include <pthread.h>
#endif

#if CPROVIDERKIT_HAS_DLOPEN

// GLib's and libsecret's types, as their headers declare them (glib/gerror.h, glib/glist.h,
// libsecret/secret-schema.h, secret-types.h, secret-service.h, secret-collection.h), so that the
// build needs neither. Only what this file uses.
typedef int gboolean;
typedef unsigned int guint;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef struct {
    unsigned int domain;  // GQuark
    int code;
    char *message;
} GError;
typedef struct GList {
    gpointer data;
    struct GList *next;
    struct GList *prev;
} GList;
typedef struct GHashTable GHashTable;
typedef guint (*GHashFunc)(gconstpointer key);
typedef gboolean (*GEqualFunc)(gconstpointer a, gconstpointer b);
typedef void (*GDestroyNotify)(gpointer data);

typedef enum {
    SECRET_SCHEMA_ATTRIBUTE_STRING = 0,
    SECRET_SCHEMA_ATTRIBUTE_INTEGER = 1,
    SECRET_SCHEMA_ATTRIBUTE_BOOLEAN = 2,
} SecretSchemaAttributeType;
typedef struct {
    const char *name;
    SecretSchemaAttributeType type;
} SecretSchemaAttribute;
typedef enum {
    SECRET_SCHEMA_NONE = 0,
    SECRET_SCHEMA_DONT_MATCH_NAME = 1 << 1,
} SecretSchemaFlags;
typedef struct {
    const char *name;
    SecretSchemaFlags flags;
    SecretSchemaAttribute attributes[32];
    int reserved;
    gpointer reserved1, reserved2, reserved3, reserved4, reserved5, reserved6, reserved7;
} SecretSchema;
enum { SECRET_SEARCH_ALL = 1 << 1 };
enum { SECRET_SERVICE_NONE = 0 };
enum { SECRET_COLLECTION_NONE = 0 };

static const SecretSchema strata_schema = {
    "org.strata.Login",
    SECRET_SCHEMA_NONE,
    {
        {"application", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {"remote", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {"scope", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {NULL, 0},
    },
    0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

static struct {
    GHashTable *(*hash_table_new)(GHashFunc, GEqualFunc);
    gboolean (*hash_table_insert)(GHashTable *, gpointer, gpointer);
    gpointer (*hash_table_lookup)(GHashTable *, gconstpointer);
    void (*hash_table_unref)(GHashTable *);
    GHashFunc str_hash;
    GEqualFunc str_equal;
    void (*error_free)(GError *);
    void (*list_free_full)(GList *, GDestroyNotify);
    void (*object_unref)(gpointer);
    gpointer (*cancellable_new)(void);
    void (*cancellable_cancel)(gpointer);

    gboolean (*storev_sync)(const SecretSchema *, GHashTable *, const char *, const char *, const char *, gpointer, GError **);
    char *(*lookupv_sync)(const SecretSchema *, GHashTable *, gpointer, GError **);
    gboolean (*clearv_sync)(const SecretSchema *, GHashTable *, gpointer, GError **);
    GList *(*searchv_sync)(const SecretSchema *, GHashTable *, int, gpointer, GError **);
    void (*password_free)(char *);
    GHashTable *(*retrievable_get_attributes)(gpointer);
    gpointer (*service_get_sync)(int, gpointer, GError **);
    gpointer (*collection_for_alias_sync)(gpointer, const char *, int, gpointer, GError **);
} lib;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_failure = "libsecret was not loaded";

#define LOAD(field, symbol)                                            \
    do {                                                               \
        *(void **)(&lib.field) = dlsym(handle, symbol);                \
        if (lib.field == NULL) {                                       \
            load_failure = "libsecret-1.so.0 lacks " symbol " (libsecret 0.19 or later is needed)"; \
            return;                                                    \
        }                                                              \
    } while (0)

static void load(void) {
    // RTLD_LOCAL: GLib's symbols are reached through this handle (dlsym searches the library and
    // what it depends on), never made global for the rest of the process.
    void *handle = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        load_failure = "libsecret-1.so.0 is not installed";
        return;
    }
    LOAD(hash_table_new, "g_hash_table_new");
    LOAD(hash_table_insert, "g_hash_table_insert");
    LOAD(hash_table_lookup, "g_hash_table_lookup");
    LOAD(hash_table_unref, "g_hash_table_unref");
    LOAD(str_hash, "g_str_hash");
    LOAD(str_equal, "g_str_equal");
    LOAD(error_free, "g_error_free");
    LOAD(list_free_full, "g_list_free_full");
    LOAD(object_unref, "g_object_unref");
    LOAD(cancellable_new, "g_cancellable_new");
    LOAD(cancellable_cancel, "g_cancellable_cancel");
    LOAD(storev_sync, "secret_password_storev_sync");
    LOAD(lookupv_sync, "secret_password_lookupv_sync");
    LOAD(clearv_sync, "secret_password_clearv_sync");
    LOAD(searchv_sync, "secret_password_searchv_sync");
    LOAD(password_free, "secret_password_free");
    LOAD(retrievable_get_attributes, "secret_retrievable_get_attributes");
    LOAD(service_get_sync, "secret_service_get_sync");
    LOAD(collection_for_alias_sync, "secret_collection_for_alias_sync");
    load_failure = NULL;  // the handle stays open for the life of the process
}

const char *cproviderkit_secret_load(void) {
    pthread_once(&load_once, load);
    return load_failure;
}

static int loaded(void) { return cproviderkit_secret_load() == NULL; }

cproviderkit_secret_cancellable *cproviderkit_secret_cancellable_new(void) {
    if (!loaded()) return NULL;
    return (cproviderkit_secret_cancellable *)lib.cancellable_new();
}

void cproviderkit_secret_cancellable_cancel(cproviderkit_secret_cancellable *cancellable) {
    if (cancellable != NULL && loaded()) lib.cancellable_cancel(cancellable);
}

void cproviderkit_secret_cancellable_free(cproviderkit_secret_cancellable *cancellable) {
    if (cancellable != NULL && loaded()) lib.object_unref(cancellable);
}

/// `text` in a new malloc'd string (NULL stays NULL... as an empty text).
static char *copy(const char *text) {
    const char *from = text != NULL ? text : "";
    size_t length = strlen(from);
    char *made = malloc(length + 1);
    if (made != NULL) memcpy(made, from, length + 1);
    return made;
}

/// Sets `*message` from `error` (then freed), or to `fallback` without one; returns -1.
static int failed(GError *error, const char *fallback, char **message) {
    if (message != NULL) *message = copy(error != NULL && error->message != NULL ? error->message : fallback);
    if (error != NULL) lib.error_free(error);
    return -1;
}

/// A hash table of the attributes; its keys and values are the caller's strings (not copied, not freed).
static GHashTable *attributes(const char *const *names, const char *const *values, int count) {
    GHashTable *table = lib.hash_table_new(lib.str_hash, lib.str_equal);
    for (int i = 0; i < count; i++) lib.hash_table_insert(table, (gpointer)names[i], (gpointer)values[i]);
    return table;
}

int cproviderkit_secret_check(cproviderkit_secret_cancellable *cancellable, char **message) {
    const char *why = cproviderkit_secret_load();
    if (why != NULL) return failed(NULL, why, message);
    GError *error = NULL;
    gpointer service = lib.service_get_sync(SECRET_SERVICE_NONE, cancellable, &error);
    if (service == NULL) return failed(error, "no Secret Service answered", message);
    gpointer collection = lib.collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE, cancellable, &error);
    lib.object_unref(service);
    if (collection == NULL) return failed(error, "the Secret Service has no default collection", message);
    lib.object_unref(collection);
    return 0;
}

int cproviderkit_secret_store(
    const char *const *names, const char *const *values, int count, const char *label, const char *secret,
    cproviderkit_secret_cancellable *cancellable, char **message) {
    const char *why = cproviderkit_secret_load();
    if (why != NULL) return failed(NULL, why, message);
    GHashTable *table = attributes(names, values, count);
    GError *error = NULL;
    // NULL: the default collection.
    gboolean stored = lib.storev_sync(&strata_schema, table, NULL, label, secret, cancellable, &error);
    lib.hash_table_unref(table);
    if (!stored) return failed(error, "the Secret Service did not store the item", message);
    if (error != NULL) lib.error_free(error);
    return 0;
}

int cproviderkit_secret_lookup(
    const char *const *names, const char *const *values, int count, char **secret,
    cproviderkit_secret_cancellable *cancellable, char **message) {
    *secret = NULL;
    const char *why = cproviderkit_secret_load();
    if (why != NULL) return failed(NULL, why, message);
    GHashTable *table = attributes(names, values, count);
    GError *error = NULL;
    char *found = lib.lookupv_sync(&strata_schema, table, cancellable, &error);
    lib.hash_table_unref(table);
    if (error != NULL) {
        if (found != NULL) lib.password_free(found);
        return failed(error, "the Secret Service did not answer", message);
    }
    *secret = found;
    return 0;
}

int cproviderkit_secret_clear(
    const char *const *names, const char *const *values, int count, cproviderkit_secret_cancellable *cancellable,
    char **message) {
    const char *why = cproviderkit_secret_load();
    if (why != NULL) return failed(NULL, why, message);
    GHashTable *table = attributes(names, values, count);
    GError *error = NULL;
    // FALSE without an error: there was nothing to remove.
    lib.clearv_sync(&strata_schema, table, cancellable, &error);
    lib.hash_table_unref(table);
    if (error != NULL) return failed(error, "the Secret Service did not remove the item", message);
    return 0;
}

int cproviderkit_secret_search(
    const char *const *names, const char *const *values, int count, const char *wanted, char ***found, int *found_count,
    cproviderkit_secret_cancellable *cancellable, char **message) {
    *found = NULL;
    *found_count = 0;
    const char *why = cproviderkit_secret_load();
    if (why != NULL) return failed(NULL, why, message);
    GHashTable *table = attributes(names, values, count);
    GError *error = NULL;
    GList *items = lib.searchv_sync(&strata_schema, table, SECRET_SEARCH_ALL, cancellable, &error);
    lib.hash_table_unref(table);
    if (error != NULL) {
        if (items != NULL) lib.list_free_full(items, lib.object_unref);
        return failed(error, "the Secret Service did not answer the search", message);
    }
    int length = 0;
    for (GList *item = items; item != NULL; item = item->next) length++;
    char **list = calloc((size_t)length + 1, sizeof(char *));
    if (list == NULL) {
        if (items != NULL) lib.list_free_full(items, lib.object_unref);
        return failed(NULL, "out of memory", message);
    }
    int taken = 0;
    for (GList *item = items; item != NULL; item = item->next) {
        GHashTable *held = lib.retrievable_get_attributes(item->data);
        if (held == NULL) continue;
        const char *value = lib.hash_table_lookup(held, wanted);
        if (value != NULL) list[taken++] = copy(value);
        lib.hash_table_unref(held);
    }
    if (items != NULL) lib.list_free_full(items, lib.object_unref);
    *found = list;
    *found_count = taken;
    return 0;
}

void cproviderkit_secret_free(char *secret) {
    if (secret != NULL && loaded()) lib.password_free(secret);
}

void cproviderkit_secret_free_list(char **list, int count) {
    if (list == NULL) return;
    for (int i = 0; i < count; i++) free(list[i]);
    free(list);
}

#else  // Apple platforms (their keyring is the Keychain) and others without dlopen.

const char *cproviderkit_secret_load(void) { return "the Secret Service is not used on this system"; }
cproviderkit_secret_cancellable *cproviderkit_secret_cancellable_new(void) { return NULL; }
void cproviderkit_secret_cancellable_cancel(cproviderkit_secret_cancellable *cancellable) { (void)cancellable; }
void cproviderkit_secret_cancellable_free(cproviderkit_secret_cancellable *cancellable) { (void)cancellable; }

static int unsupported(char **message) {
    if (message != NULL) {
        const char *text = cproviderkit_secret_load();
        size_t length = strlen(text);
        *message = malloc(length + 1);
        if (*message != NULL) memcpy(*message, text, length + 1);
    }
    return -1;
}

int cproviderkit_secret_check(cproviderkit_secret_cancellable *cancellable, char **message) {
    (void)cancellable;
    return unsupported(message);
}

int cproviderkit_secret_store(
    const char *const *names, const char *const *values, int count, const char *label, const char *secret,
    cproviderkit_secret_cancellable *cancellable, char **message) {
    (void)names, (void)values, (void)count, (void)label, (void)secret, (void)cancellable;
    return unsupported(message);
}

int cproviderkit_secret_lookup(
    const char *const *names, const char *const *values, int count, char **secret,
    cproviderkit_secret_cancellable *cancellable, char **message) {
    (void)names, (void)values, (void)count, (void)cancellable;
    *secret = NULL;
    return unsupported(message);
}

int cproviderkit_secret_clear(
    const char *const *names, const char *const *values, int count, cproviderkit_secret_cancellable *cancellable,
    char **message) {
    (void)names, (void)values, (void)count, (void)cancellable;
    return unsupported(message);
}

int cproviderkit_secret_search(
    const char *const *names, const char *const *values, int count, const char *wanted, char ***found, int *found_count,
    cproviderkit_secret_cancellable *cancellable, char **message) {
    (void)names, (void)values, (void)count, (void)wanted, (void)cancellable;
    *found = NULL;
    *found_count = 0;
    return unsupported(message);
}

void cproviderkit_secret_free(char *secret) { free(secret); }

void cproviderkit_secret_free_list(char **list, int count) {
    if (list == NULL) return;
    for (int i = 0; i < count; i++) free(list[i]);
    free(list);
}

#endif
