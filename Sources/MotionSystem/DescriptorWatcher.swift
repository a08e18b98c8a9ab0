#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A thread that waits until one of some descriptors is readable and then runs an action once,
/// e.g. cancelling a blocking libiio refill when a signal or the deadline arrives (libiio's
/// network backend has no poll fd, so the thread blocked in the refill cannot watch them
/// itself). The descriptors are only polled, never read: their owner still sees them readable.
/// ``stop()`` ends the thread (through a private pipe) and joins it. The one place a thread is
/// started (`pthread_create(3)`).
public final class DescriptorWatcher: @unchecked Sendable {
    private final class Context: @unchecked Sendable {
        let fds: [Int32]
        let quitFD: Int32
        let action: @Sendable () -> Void
        let fired = Atomic<Bool>(false)
        init(fds: [Int32], quitFD: Int32, action: @escaping @Sendable () -> Void) {
            self.fds = fds; self.quitFD = quitFD; self.action = action
        }
    }

    private let context: Context
    private let quitWrite: Int32
    private var thread: pthread_t?

    /// Starts watching `descriptors`; `action` runs on the watcher thread when one is readable.
    /// - Throws: ``SystemError`` (`pipe2`, `pthread_create`).
    public init(descriptors: [Int32], action: @escaping @Sendable () -> Void) throws(SystemError) {
        var p: [Int32] = [-1, -1]
        guard pipe(&p) == 0 else { throw SystemError.current("pipe") }
        quitWrite = p[1]
        context = Context(fds: descriptors, quitFD: p[0], action: action)
        let unmanaged = Unmanaged.passRetained(context)
        var tid = pthread_t()
        let r = pthread_create(&tid, nil, { raw in
            let ctx = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
            var set = PollSet()
            for fd in ctx.fds { set.add(fd) }
            let quit = set.add(ctx.quitFD)
            if (try? set.wait()) != nil, set.returned(quit).isEmpty {
                ctx.fired.store(true, ordering: .releasing)
                ctx.action()
            }
            return nil
        }, unmanaged.toOpaque())
        guard r == 0 else {
            unmanaged.release()
            close(p[0]); close(p[1])
            throw SystemError(Errno(r), call: "pthread_create")
        }
        thread = tid
    }

    /// Whether the action ran.
    public var fired: Bool { context.fired.load(ordering: .acquiring) }

    /// Ends the thread (if it is still waiting) and joins it. Idempotent.
    public func stop() {
        guard let t = thread else { return }
        var b: UInt8 = 1
        _ = write(quitWrite, &b, 1)
        pthread_join(t, nil)
        thread = nil
        close(quitWrite)
        close(context.quitFD)
    }

    deinit { stop() }
}
