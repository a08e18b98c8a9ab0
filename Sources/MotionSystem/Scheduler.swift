#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The calling thread's scheduling policy (wraps `sched_getscheduler(2)`, `sched_getparam(2)`,
/// `sched_setscheduler(2)` and `sched_yield(2)`; the one place they are called).
public enum Scheduler {
    /// A policy with its parameter, as read or to be set.
    public struct Policy: Hashable, Sendable {
        /// `SCHED_OTHER`, `SCHED_BATCH`, ... value.
        public var policy: Int32
        /// `sched_priority` (0 for the non-real-time policies).
        public var priority: Int32

        /// `SCHED_BATCH`: no wake-up preemption (<sched.h> with `_GNU_SOURCE`; no privilege needed).
        public static let batch = Policy(policy: 3, priority: 0)
    }

    /// The current policy.
    public static func current() throws(SystemError) -> Policy {
        let p = sched_getscheduler(0)
        guard p >= 0 else { throw SystemError.current("sched_getscheduler") }
        var param = sched_param()
        guard sched_getparam(0, &param) == 0 else { throw SystemError.current("sched_getparam") }
        return Policy(policy: p, priority: param.sched_priority)
    }

    /// Sets the policy.
    public static func set(_ policy: Policy) throws(SystemError) {
        var param = sched_param(sched_priority: policy.priority)
        guard sched_setscheduler(0, policy.policy, &param) == 0 else { throw SystemError.current("sched_setscheduler") }
    }

    /// Switches to `policy` and returns the previous one to put back, or nil when it could not.
    public static func switchTo(_ policy: Policy) -> Policy? {
        guard let previous = try? current(), (try? set(policy)) != nil else { return nil }
        return previous
    }

    /// Gives the CPU to another runnable task (`sched_yield(2)`).
    public static func yield() { _ = sched_yield() }
}
