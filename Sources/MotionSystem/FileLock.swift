#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive advisory lock on a file (`flock(2)`), held for as long as this object lives: a
/// directory that one capture session writes is locked so that a second session, or `recover`,
/// leaves its open recording alone. The kernel releases the lock when the process ends, however
/// it ends (SIGKILL and power cuts included), so a stale lock file never blocks anyone.
public final class FileLock {
    /// The lock file.
    public let path: String
    private let file: FileDescriptor

    private init(path: String, file: FileDescriptor) {
        self.path = path
        self.file = file
    }

    /// Takes the lock on `path` (created, mode 0644, if missing) without waiting.
    /// - Returns: the held lock, or nil when another process holds it.
    /// - Throws: ``SystemError`` from `open` or `flock` (other than "held elsewhere").
    public static func tryAcquire(_ path: String) throws(SystemError) -> FileLock? {
        let fd = try FileDescriptor.open(path, flags: O_RDWR | O_CREAT)
        while flock(fd.rawValue, LOCK_EX | LOCK_NB) != 0 {
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock { return nil }
            throw SystemError(e, call: "flock", subject: path)
        }
        return FileLock(path: path, file: fd)
    }

    /// Whether another process holds the lock on `path` now (false when the file does not exist).
    public static func isHeld(_ path: String) -> Bool {
        guard access(path, F_OK) == 0 else { return false }
        guard let lock = try? tryAcquire(path) else { return true }
        _ = lock
        return false
    }

    /// Releases the lock (closing the descriptor). Idempotent.
    public func release() { try? file.close() }

    deinit { release() }
}
