#if canImport(Glibc)
import Glibc
#endif

/// The calling process's wake-up and CPU counters: voluntary/involuntary context switches of
/// the calling thread (`/proc/thread-self/status`) and CPU time (`getrusage(RUSAGE_SELF)`).
public struct ProcessCounters: Hashable, Sendable {
    /// `voluntary_ctxt_switches`: times the thread slept and was woken.
    public var voluntarySwitches: Int64
    /// `nonvoluntary_ctxt_switches`.
    public var involuntarySwitches: Int64
    /// User CPU time, ns.
    public var userCPUNanoseconds: Int64
    /// System CPU time, ns.
    public var systemCPUNanoseconds: Int64

    /// Creates counters.
    public init(voluntarySwitches: Int64, involuntarySwitches: Int64, userCPUNanoseconds: Int64, systemCPUNanoseconds: Int64) {
        self.voluntarySwitches = voluntarySwitches
        self.involuntarySwitches = involuntarySwitches
        self.userCPUNanoseconds = userCPUNanoseconds
        self.systemCPUNanoseconds = systemCPUNanoseconds
    }

    /// Reads the counters now (the capture runs on the calling thread).
    public static func now() -> ProcessCounters {
        var text = ""
        if let f = fopen("/proc/thread-self/status", "r") ?? fopen("/proc/self/status", "r") {
            var line = [CChar](repeating: 0, count: 512)
            while fgets(&line, Int32(line.count), f) != nil {
                text += String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            fclose(f)
        }
        let (v, n) = parseStatus(text)
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func ns(_ t: timeval) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_usec) * 1000 }
        return ProcessCounters(voluntarySwitches: v, involuntarySwitches: n, userCPUNanoseconds: ns(usage.ru_utime), systemCPUNanoseconds: ns(usage.ru_stime))
    }

    /// Extracts `voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches` from `/proc/.../status` text (0 when absent).
    public static func parseStatus(_ text: String) -> (voluntary: Int64, involuntary: Int64) {
        var v: Int64 = 0, n: Int64 = 0
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let value = Int64(parts[1].trimmingWhitespace()) else { continue }
            if parts[0] == "voluntary_ctxt_switches" { v = value }
            if parts[0] == "nonvoluntary_ctxt_switches" { n = value }
        }
        return (v, n)
    }

    /// The difference `self - earlier`.
    public func since(_ earlier: ProcessCounters) -> ProcessCounters {
        ProcessCounters(voluntarySwitches: voluntarySwitches - earlier.voluntarySwitches,
                        involuntarySwitches: involuntarySwitches - earlier.involuntarySwitches,
                        userCPUNanoseconds: userCPUNanoseconds - earlier.userCPUNanoseconds,
                        systemCPUNanoseconds: systemCPUNanoseconds - earlier.systemCPUNanoseconds)
    }
}
