#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSystem
import Synchronization

/// Write end of the signal pipe, for the handler (-1 before ``SignalPipe/install(_:)``).
private let signalPipeWriteFD = Atomic<Int32>(-1)
/// Read end of the signal pipe (-1 before ``SignalPipe/install(_:)``).
private let signalPipeReadFD = Atomic<Int32>(-1)
/// Signals the handler has taken (see ``SignalPipe/received``).
private let signalsReceived = Atomic<UInt64>(0)

/// Signals turned into bytes on a pipe (the self-pipe pattern), so that a wait in `poll` sees
/// them as a readable descriptor beside the buffers and timers: a SIGINT arriving just before
/// `poll` is not lost until the next wake-up, whatever the batch latency. The handler only
/// writes the signal number, counts it and ends an ``InterruptibleRead`` run in progress
/// (async-signal-safe calls only); handlers are installed with `SA_RESTART`, so
/// blocking calls elsewhere (libiio's reads) are not broken by them. Works from any thread,
/// unlike `signalfd`, which needs the signals blocked in every thread. Process-wide.
/// The one place `sigaction(2)` is called for these signals.
public enum SignalPipe {
    /// Installs the handler for `signals` (creating the pipe on first use).
    /// - Throws: ``SystemError`` (`pipe2`, `sigaction`).
    public static func install(_ signals: [Int32]) throws(SystemError) {
        if signalPipeReadFD.load(ordering: .acquiring) < 0 {
            var p: [Int32] = [-1, -1]
            guard csystem_pipe2(&p, O_NONBLOCK | O_CLOEXEC) == 0 else { throw SystemError.current("pipe2") }
            signalPipeWriteFD.store(p[1], ordering: .releasing)
            signalPipeReadFD.store(p[0], ordering: .releasing)
        }
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                let saved = errno
                let w = signalPipeWriteFD.load(ordering: .relaxed)
                if w >= 0 { var b = UInt8(truncatingIfNeeded: sig); _ = write(w, &b, 1) }
                signalsReceived.add(1, ordering: .releasing)
                InterruptibleRead.interrupt(fromHandler: true)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            guard sigaction(s, &action, nil) == 0 else { throw SystemError.current("sigaction", subject: "signal \(s)") }
        }
        // A process started with these signals blocked (the mask is inherited across exec, e.g.
        // from a test runner) would never see them: unblock them in the calling thread.
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Puts back the default disposition of `signals`.
    public static func uninstall(_ signals: [Int32]) {
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = SIG_DFL
            sigemptyset(&action.sa_mask)
            sigaction(s, &action, nil)
        }
    }

    /// How many of these signals the handler has taken since the process started: a cheap look
    /// (no system call) at whether one came since an earlier reading. The handler also ends an
    /// ``InterruptibleRead`` run in progress.
    public static var received: UInt64 { signalsReceived.load(ordering: .acquiring) }

    /// The descriptor to poll (readable when a signal arrived), or -1 before ``install(_:)``.
    public static var descriptor: Int32 { signalPipeReadFD.load(ordering: .acquiring) }

    /// The signals received since the last call, in arrival order (empties the pipe).
    public static func take() -> [Int32] {
        let fd = descriptor
        guard fd >= 0 else { return [] }
        var out: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n].map { Int32($0) }
        }
        return out
    }

    /// Sends `signal` to this process (wraps `kill(getpid(), signal)`), e.g. for tests.
    public static func raise(_ signal: Int32) { _ = kill(getpid(), signal) }
}
