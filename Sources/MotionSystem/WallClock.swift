#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSystem

/// The wall clock (`CLOCK_REALTIME`) and whether it can be trusted: boards without a real-time
/// clock (most Raspberry Pis) boot with a wrong date until NTP synchronizes it, so file names and
/// `start_utc` use it only when the kernel says it is synchronized (``syncState()``); sample
/// timestamps never use it. The one place `CLOCK_REALTIME` and `adjtimex(2)` are read (the
/// monotonic clock is ``MonotonicClock``'s).
public enum WallClock {
    /// What the kernel's time keeping says about the wall clock (`adjtimex(2)`, modes 0).
    public struct SyncState: Hashable, Sendable, CustomStringConvertible {
        /// Synchronized: the `STA_UNSYNC` status bit is clear and the state is not `TIME_ERROR`
        /// (an NTP or PTP daemon disciplines the clock).
        public var synchronized: Bool
        /// The kernel's maximum error bound, µs (nil when `adjtimex` failed).
        public var maxErrorMicroseconds: Int?
        /// The kernel's estimated error, µs.
        public var estimatedErrorMicroseconds: Int?

        /// Creates a state.
        public init(synchronized: Bool, maxErrorMicroseconds: Int? = nil, estimatedErrorMicroseconds: Int? = nil) {
            self.synchronized = synchronized
            self.maxErrorMicroseconds = maxErrorMicroseconds
            self.estimatedErrorMicroseconds = estimatedErrorMicroseconds
        }

        /// `synchronized maxerror_us=N` or `unsynchronized` (the `clock_sync` header value).
        public var description: String {
            guard synchronized else { return "unsynchronized" }
            return "synchronized" + (maxErrorMicroseconds.map { " maxerror_us=\($0)" } ?? "")
        }
    }

    /// Now on `CLOCK_REALTIME`, ns since the Unix epoch.
    public static func nanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Whether the wall clock is synchronized now (`adjtimex(2)` read-only: no privilege needed).
    /// A failing call (a seccomp filter that denies it) counts as unsynchronized.
    public static func syncState() -> SyncState {
        var maxError = 0, estError = 0
        var status: Int32 = 0
        let r = csystem_adjtimex_read(&maxError, &estError, &status)
        guard r >= 0 else { return SyncState(synchronized: false) }
        let synced = r != csystem_time_error() && (status & csystem_sta_unsync()) == 0
        return SyncState(synchronized: synced, maxErrorMicroseconds: maxError, estimatedErrorMicroseconds: estError)
    }

    /// The kernel's boot id (`/proc/sys/kernel/random/boot_id`, a random UUID per boot): monotonic
    /// times are comparable only within one boot. Nil when unreadable.
    public static func bootID() -> String? {
        guard let fd = try? FileDescriptor.openForReading("/proc/sys/kernel/random/boot_id") else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = (try? buffer.withUnsafeMutableBytes { b throws(SystemError) in try fd.read(into: b.baseAddress!, count: b.count) }) ?? 0
        try? fd.close()
        let text = String(decoding: buffer[0..<n], as: UTF8.self).filter { $0.isHexDigit || $0 == "-" }
        return text.isEmpty ? nil : text
    }
}
