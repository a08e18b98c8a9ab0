#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock (`CLOCK_MONOTONIC`), for the I/O layers: capture, the emulator and the
/// benchmarks. Analysis code never reads it; it takes its time from sample timestamps.
public enum MonotonicClock {
    /// Now, in nanoseconds (wraps `clock_gettime(CLOCK_MONOTONIC)`).
    public static func nanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Now, in seconds.
    public static func seconds() -> Double { Double(nanoseconds()) / 1e9 }
}
