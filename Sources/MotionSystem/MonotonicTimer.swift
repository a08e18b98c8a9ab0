#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSystem

/// A `timerfd` on `CLOCK_MONOTONIC`: a descriptor that becomes readable at an absolute time, to
/// sit in a ``PollSet`` beside the buffers and signals so that no wait needs a poll timeout
/// (which re-arms a kernel timer at every wake-up). Owns the descriptor; closes it in deinit.
/// The one place `timerfd_create(2)`/`timerfd_settime(2)` are called.
public final class MonotonicTimer {
    /// The descriptor to poll.
    public let fd: Int32
    /// The armed expiry (monotonic ns), nil when disarmed. Compared at every wait (the capture
    /// waits once per sample at batch 1); a timer is used from one thread and never
    /// re-entrantly, so it is not checked for exclusive access at run time (a runtime call).
    @exclusivity(unchecked) public private(set) var armedAt: Int64?

    /// Creates a disarmed timer (`timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)`).
    public init() throws(SystemError) {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        guard fd >= 0 else { throw SystemError.current("timerfd_create") }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Arms the timer to fire once at monotonic time `time` (ns), or disarms it (nil). Does
    /// nothing when it is already armed at that time (one system call per change, not per wait).
    public func arm(at time: Int64?) throws(SystemError) {
        guard time != armedAt else { return }
        var spec = itimerspec()
        if let t = time {
            let at = max(t, 1) // 0 would disarm
            spec.it_value = timespec(tv_sec: Int(at / 1_000_000_000), tv_nsec: Int(at % 1_000_000_000))
        }
        guard timerfd_settime(fd, time == nil ? 0 : Int32(TFD_TIMER_ABSTIME), &spec, UnsafeMutablePointer<itimerspec>(nil as OpaquePointer?)) == 0 else {
            throw SystemError.current("timerfd_settime")
        }
        armedAt = time
    }

    /// Reads the expiration count (0 when it has not fired), clearing readability. A fired
    /// one-shot timer is disarmed.
    public func acknowledge() -> UInt64 {
        var count: UInt64 = 0
        let n = read(fd, &count, MemoryLayout<UInt64>.size)
        guard n == MemoryLayout<UInt64>.size else { return 0 }
        armedAt = nil
        return count
    }
}
