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

    /// Reads the counters now (the capture runs on the calling thread). Allocates nothing: the
    /// status file is read with `open`/`read` into a buffer on the stack and parsed as bytes
    /// (the capture reads them once a second, once per wake-up at a batch latency of 1 s).
    public static func now() -> ProcessCounters {
        var v: Int64 = 0, n: Int64 = 0
        var fd = Glibc.open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC)
        if fd < 0 { fd = Glibc.open("/proc/self/status", O_RDONLY | O_CLOEXEC) }
        if fd >= 0 {
            // 1 KiB: the largest temporary allocation the standard library keeps on the stack.
            withUnsafeTemporaryAllocation(byteCount: 1024, alignment: 8) { buffer in
                var scanner = StatusScanner()
                while true {
                    let got = read(fd, buffer.baseAddress! + scanner.held, buffer.count - scanner.held)
                    if got < 0, errno == EINTR { continue }
                    if got <= 0 { break }
                    scanner.consume(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(scanner.held + got)]), final: false, capacity: buffer.count)
                }
                scanner.consume(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<scanner.held]), final: true, capacity: buffer.count)
                (v, n) = (scanner.voluntary, scanner.involuntary)
            }
            close(fd)
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func ns(_ t: timeval) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_usec) * 1000 }
        return ProcessCounters(voluntarySwitches: v, involuntarySwitches: n, userCPUNanoseconds: ns(usage.ru_utime), systemCPUNanoseconds: ns(usage.ru_stime))
    }

    /// Extracts `voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches` from `/proc/.../status` text (0 when absent).
    public static func parseStatus(_ text: String) -> (voluntary: Int64, involuntary: Int64) {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { b in
            var scanner = StatusScanner()
            scanner.consume(b, final: true, capacity: b.count)
            return (scanner.voluntary, scanner.involuntary)
        }
    }

    /// The two counters of a status file read in pieces: whole lines are parsed as they come, a
    /// partial last line is moved to the start of the buffer (``held`` bytes) for the next read;
    /// a line longer than the buffer (a long `Groups:` list) is skipped.
    struct StatusScanner {
        var voluntary: Int64 = 0
        var involuntary: Int64 = 0
        /// Bytes of a partial line kept at the start of the buffer.
        var held = 0
        /// Inside a line too long for the buffer: skip to its end.
        var skipping = false

        /// Parses the whole lines of `bytes` (the start of a buffer of `capacity` bytes).
        mutating func consume(_ bytes: UnsafeMutableRawBufferPointer, final: Bool, capacity: Int) {
            var start = 0
            var i = 0
            while i < bytes.count {
                if bytes[i] == 0x0A {
                    if !skipping { line(UnsafeRawBufferPointer(rebasing: bytes[start..<i])) }
                    skipping = false
                    start = i + 1
                }
                i += 1
            }
            let rest = bytes.count - start
            if final {
                if rest > 0, !skipping { line(UnsafeRawBufferPointer(rebasing: bytes[start...])) }
                held = 0
            } else if start == 0, rest > 0, bytes.count >= capacity {
                // No newline in a full buffer: drop this line.
                skipping = true
                held = 0
            } else {
                if rest > 0, start > 0 { bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + start, byteCount: rest) }
                held = rest
            }
        }

        /// `name:\tvalue`: the two names wanted, the value a whole number (spaces around it allowed).
        private mutating func line(_ l: UnsafeRawBufferPointer) {
            guard let colon = l.firstIndex(of: 0x3A) else { return }
            let name = UnsafeRawBufferPointer(rebasing: l[..<colon])
            let isVoluntary = Self.equal(name, "voluntary_ctxt_switches")
            guard isVoluntary || Self.equal(name, "nonvoluntary_ctxt_switches") else { return }
            guard let value = Self.integer(UnsafeRawBufferPointer(rebasing: l[(colon + 1)...])) else { return }
            if isVoluntary { voluntary = value } else { involuntary = value }
        }

        private static func equal(_ bytes: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
            name.withUTF8Buffer { n in n.count == bytes.count && zip(n, bytes).allSatisfy { $0 == $1 } }
        }

        /// `[+-]?digits` between whitespace, nil otherwise or on overflow.
        private static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
            var lo = 0, hi = bytes.count
            func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
            while lo < hi, space(bytes[lo]) { lo += 1 }
            while hi > lo, space(bytes[hi - 1]) { hi -= 1 }
            var negative = false
            if lo < hi, bytes[lo] == 0x2B || bytes[lo] == 0x2D { negative = bytes[lo] == 0x2D; lo += 1 }
            guard lo < hi else { return nil }
            var value: Int64 = 0
            while lo < hi {
                let d = bytes[lo]
                guard d >= 0x30, d <= 0x39 else { return nil }
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = negative ? m.subtractingReportingOverflow(Int64(d - 0x30)) : m.addingReportingOverflow(Int64(d - 0x30))
                guard !o1, !o2 else { return nil }
                value = a
                lo += 1
            }
            return value
        }
    }

    /// The difference `self - earlier`.
    public func since(_ earlier: ProcessCounters) -> ProcessCounters {
        ProcessCounters(voluntarySwitches: voluntarySwitches - earlier.voluntarySwitches,
                        involuntarySwitches: involuntarySwitches - earlier.involuntarySwitches,
                        userCPUNanoseconds: userCPUNanoseconds - earlier.userCPUNanoseconds,
                        systemCPUNanoseconds: systemCPUNanoseconds - earlier.systemCPUNanoseconds)
    }
}
