#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// glibc's `syncfs` (declared only under `_GNU_SOURCE`, so the Glibc module does not show it):
    /// looked up once.
    private static let syncfsFunction: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_LAZY), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()

    /// Forces every file of the file system holding this descriptor to stable storage
    /// (`syncfs(2)`: one write-back and one cache flush for all of them, where an `fsync(2)` per
    /// file flushes once per file). Reports a write-back error of the file system (Linux 5.8+).
    /// Without `syncfs` in the C library it is an `fsync(2)` of this file only: callers that
    /// need the others fall back to theirs (``canSyncFileSystem``).
    public func syncFileSystem() throws(SystemError) {
        guard let f = Self.syncfsFunction else { return try sync() }
        guard f(rawValue) == 0 else { throw SystemError.current("syncfs", subject: path) }
    }

    /// Whether ``syncFileSystem()`` syncs the whole file system (the C library has `syncfs`).
    public static var canSyncFileSystem: Bool { syncfsFunction != nil }
}
