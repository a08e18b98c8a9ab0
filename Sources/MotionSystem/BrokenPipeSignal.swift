#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's answer to SIGPIPE, which the kernel raises on a write to a pipe or stream
/// socket whose other end has gone.
///
/// The default action ends the process. That suits a filter whose reader (`head`) is done, but not
/// a socket a library writes without `MSG_NOSIGNAL`: libiio 0.24's network backend sends with flags
/// 0 (`network_send`), so when iiod closes the connection, the next command libiio sends (a buffer
/// teardown, an attribute write) ends the process before the capture can save its last batch and
/// report the board as lost. Whether that happens depends on whether the peer's reset arrived
/// before that send: a race. ``ignore()`` turns such writes into `EPIPE` errors; the writer of
/// standard output then ends the process by SIGPIPE itself (``TemporaryFileCleanup/terminate(by:)``),
/// and so do stream outputs (``OutputFile``). libmosquitto does the same for the fleet: its
/// `mosquitto_new` sets SIGPIPE to `SIG_IGN` for the whole process (measured with Debian's 2.0.11).
public enum BrokenPipeSignal {
    /// Ignores SIGPIPE for the rest of the process (wraps `sigaction(SIGPIPE, SIG_IGN)`).
    /// Idempotent and safe from any thread. A ``TemporaryFileCleanup`` handler installed
    /// meanwhile is replaced, and the cleanup leaves the ignored disposition in place.
    public static func ignore() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        _ = sigaction(SIGPIPE, &action, nil)
    }

    /// Whether SIGPIPE is ignored now (reads the disposition with `sigaction`).
    public static var isIgnored: Bool {
        var current = sigaction()
        guard sigaction(SIGPIPE, nil, &current) == 0, current.sa_flags & SA_SIGINFO == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
