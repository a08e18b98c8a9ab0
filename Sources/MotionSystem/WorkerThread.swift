#if canImport(Glibc)
import Glibc
#endif

/// A detached POSIX thread running one closure (`pthread_create(3)`, `pthread_detach(3)`): the
/// reader's block parsers and `--jobs`' file workers.
public enum WorkerThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread.
    /// - Returns: false if `pthread_create` failed (`body` is then not run).
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
