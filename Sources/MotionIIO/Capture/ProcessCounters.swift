#if canImport(Glibc)
import Glibc
#endif

/// The calling process's wake-up and CPU counters: voluntary/involuntary context switches of
/// the calling thread (`getrusage(RUSAGE_THREAD)`: the same counters as `voluntary_ctxt_switches`
/// in `/proc/thread-self/status`) and the process's CPU time (`getrusage(RUSAGE_SELF)`).
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

    /// Reads the counters now (the capture runs on the calling thread): two `getrusage` calls,
    /// no file and no allocation. (Reading `/proc/thread-self/status` instead, once a second,
    /// was 5-8 % of the capture's CPU at batch 100 under QEMU TCG: the kernel renders the whole
    /// status text, and the open walks the path.)
    public static func now() -> ProcessCounters {
        var thread = rusage()
        // RUSAGE_THREAD (1, Linux 2.6.26; <bits/resource.h> defines it only for _GNU_SOURCE, which
        // Swift's Glibc module is not built with).
        getrusage(__rusage_who_t(1), &thread)
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func ns(_ t: timeval) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_usec) * 1000 }
        return ProcessCounters(voluntarySwitches: Int64(thread.ru_nvcsw), involuntarySwitches: Int64(thread.ru_nivcsw),
                               userCPUNanoseconds: ns(usage.ru_utime), systemCPUNanoseconds: ns(usage.ru_stime))
    }

    /// The difference `self - earlier`.
    public func since(_ earlier: ProcessCounters) -> ProcessCounters {
        ProcessCounters(voluntarySwitches: voluntarySwitches - earlier.voluntarySwitches,
                        involuntarySwitches: involuntarySwitches - earlier.involuntarySwitches,
                        userCPUNanoseconds: userCPUNanoseconds - earlier.userCPUNanoseconds,
                        systemCPUNanoseconds: systemCPUNanoseconds - earlier.systemCPUNanoseconds)
    }
}
