#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// SIGINT/SIGTERM turned into a flag the capture loop checks after every wait: the handler only
/// records the signal; `poll` returns `EINTR`, and the loop stops cleanly (buffers destroyed,
/// sensor idle, recording synced).
public enum StopSignals {
    private static let received = Atomic<Int32>(0)

    /// Installs handlers for SIGINT and SIGTERM (wraps `sigaction`, without `SA_RESTART`).
    public static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { sig in StopSignals.received.store(sig, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
    }

    /// Arranges one `SIGALRM` after `seconds` (wraps `setitimer(ITIMER_REAL)`) so that a wait
    /// without timeout ends at a capture's deadline; `SA_RESTART` keeps other calls unaffected
    /// (`poll` is never restarted and returns `EINTR`). Returns false when it could not be set.
    public static func alarm(after seconds: Double) -> Bool {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        guard sigaction(SIGALRM, &action, nil) == 0 else { return false }
        let whole = seconds.rounded(.down)
        var timer = itimerval(it_interval: timeval(), it_value: timeval(tv_sec: Int(whole), tv_usec: Int((seconds - whole) * 1e6) + 1))
        return setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil) == 0
    }

    /// Cancels a pending ``alarm(after:)``.
    public static func cancelAlarm() {
        var timer = itimerval()
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
    }

    /// The signal received, if any.
    public static var pending: Int32? {
        let s = received.load(ordering: .relaxed)
        return s == 0 ? nil : s
    }
}
