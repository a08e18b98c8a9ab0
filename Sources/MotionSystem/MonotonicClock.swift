#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The clocks the I/O layers read (capture, the emulator, the benchmarks): `CLOCK_MONOTONIC` and
/// the calling thread's CPU time. Analysis code never reads them; it takes its time from sample
/// timestamps. The one place `clock_gettime(2)` and `nanosleep(2)` are called.
public enum MonotonicClock {
    /// Now, in nanoseconds (wraps `clock_gettime(CLOCK_MONOTONIC)`).
    public static func nanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Now, in seconds.
    public static func seconds() -> Double { Double(nanoseconds()) / 1e9 }

    /// CPU time consumed by the calling thread, ns (wraps `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`).
    public static func threadCPUNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Sleeps until the monotonic clock reaches `deadline` (ns) (wraps `nanosleep(2)`, resumed
    /// after a signal), or returns early when `interrupted()` says so after a signal woke it.
    /// - Returns: false when it returned early.
    @discardableResult
    public static func sleep(until deadline: Int64, interrupted: () -> Bool = { false }) -> Bool {
        while true {
            let left = deadline - nanoseconds()
            if left <= 0 { return true }
            var ts = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
            if nanosleep(&ts, nil) != 0, interrupted() { return false }
        }
    }
}
