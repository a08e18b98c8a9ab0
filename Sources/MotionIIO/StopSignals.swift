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

    /// The signal received, if any.
    public static var pending: Int32? {
        let s = received.load(ordering: .relaxed)
        return s == 0 ? nil : s
    }
}
