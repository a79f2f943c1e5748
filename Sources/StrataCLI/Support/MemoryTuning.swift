#if canImport(Glibc)
    import Glibc
#endif

/// Process-wide allocator settings for the command-line tool.
///
/// Streaming a large upload allocates and frees one 256 KiB piece after another on two
/// threads (the file reader and the event loop). glibc raises its mmap threshold the first
/// time such a piece is freed, after which the pieces come from per-thread arenas that
/// fragment and are not given back: a 1 GiB upload peaked at 183 MiB RSS. A fixed
/// threshold keeps every piece in its own mapping, returned to the system when freed.
/// Only the CLI sets it: a library must not change its host process's allocator; apps on
/// glibc that stream large files can do the same.
enum MemoryTuning {
    static func apply() {
        #if canImport(Glibc)
            // mallopt is declared in malloc.h, which the Glibc module does not import: look it up.
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(-3, 128 << 10)  // M_MMAP_THRESHOLD: fixed, so it no longer grows
        #endif
    }
}
