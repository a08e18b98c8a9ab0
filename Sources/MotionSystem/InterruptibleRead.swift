#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSystem
import Synchronization

/// The descriptor of the blocking read in progress (-1: none), for the signal handlers.
private let readFD = Atomic<Int32>(-1)
/// Its file status flags before the read made it blocking (`O_NONBLOCK` among them).
private let readFlags = Atomic<Int32>(0)
/// The thread doing the read (`gettid`).
private let readThread = Atomic<Int32>(0)
/// Set by a handler that ended the read in progress.
private let readInterrupted = Atomic<Bool>(false)
/// One blocking read at a time in the process (taken by ``InterruptibleRead/begin(_:on:until:signalsBefore:)``).
private let readSlot = Atomic<Bool>(false)
/// The process's deadline timer (`timer_create`, ``InterruptibleRead/signal`` on expiry), nil
/// until the first ``InterruptibleRead/begin(_:on:until:signalsBefore:)``.
private let readTimer = Mutex<Int?>(nil)

/// Blocking `read(2)` calls that a signal or a deadline ends: the per-sample reader's wait
/// without `poll(2)`. A reader woken once per sample (`capture --batch 1`) otherwise makes two
/// system calls per sample, `poll` (to see signals and the deadline beside the data) and `read`;
/// here it makes one, a `read` on a descriptor switched to blocking for a run of reads.
///
/// A run ends early without a race: the ``SignalPipe`` handlers and this type's timer handler
/// (``signal``, a POSIX timer armed at the run's deadline) set `O_NONBLOCK` back on the
/// descriptor, a state the kernel checks at every `read` entry, so a read entered after the
/// signal returns at once (`EAGAIN`); a read already asleep is woken by the signal itself (the
/// handler `tgkill`s the reading thread when it runs on another one; with `SA_RESTART` the read
/// restarts, now non-blocking). ``interrupted`` tells the reader to stop.
///
/// Process-wide, one run at a time (a second ``begin(_:on:until:signalsBefore:)`` is refused and its caller waits
/// with `poll` instead). The handlers only call async-signal-safe functions (`fcntl`, `tgkill`).
/// The one place `timer_create(2)`/`timer_settime(2)` are called.
public enum InterruptibleRead {
    /// The signal of the deadline timer and of the nudge to the reading thread: `SIGURG`, whose
    /// default action is to ignore it, so that a late one can never end the process.
    public static let signal: Int32 = SIGURG

    /// The thread that reads, made ready for ``InterruptibleRead/begin(_:on:until:signalsBefore:)``
    /// once: its id (`gettid`), and ``InterruptibleRead/signal`` unblocked in it
    /// (`pthread_sigmask`; threads of a thread pool often block nearly every signal). Create it
    /// on the reading thread and use it only there.
    public struct Reader: Sendable {
        /// The thread's id.
        public let thread: Int32

        /// Prepares the calling thread.
        public init() {
            thread = csystem_gettid()
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, InterruptibleRead.signal)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
    }

    /// Starts a run of blocking reads on `fd` by `reader`'s thread (the calling one) until
    /// monotonic time `until` (ns): clears `O_NONBLOCK`, arms the deadline timer (creating it and
    /// the handler of ``signal`` on first use).
    /// - Returns: false when another run is in progress or a system call failed (the descriptor
    ///   is then left as it was); every true must be followed by ``end()``.
    /// - Parameter signalsBefore: ``SignalPipe/received`` when the caller last looked at the
    ///   signal pipe: a signal that came since ends the run before it starts.
    public static func begin(_ fd: Int32, on reader: Reader, until: Int64, signalsBefore: UInt64) -> Bool {
        guard readSlot.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return false }
        guard let timer = deadlineTimer() else {
            readSlot.store(false, ordering: .releasing)
            return false
        }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            readSlot.store(false, ordering: .releasing)
            return false
        }
        readFlags.store(flags | O_NONBLOCK, ordering: .relaxed)
        readThread.store(reader.thread, ordering: .relaxed)
        readInterrupted.store(false, ordering: .relaxed)
        readFD.store(fd, ordering: .releasing)
        // From here a handler finds the descriptor; a signal that came before did not.
        if csystem_timer_set_absolute(timer, max(until, 1)) != 0 || SignalPipe.received != signalsBefore {
            interrupt(fromHandler: false)
        }
        return true
    }

    /// True once a signal or the deadline ended the run (the descriptor is non-blocking again).
    public static var interrupted: Bool { readInterrupted.load(ordering: .acquiring) }

    /// Ends the run: disarms the timer and puts back the descriptor's flags.
    public static func end() {
        let fd = readFD.exchange(-1, ordering: .acquiringAndReleasing)
        precondition(fd >= 0, "InterruptibleRead.end without begin")
        if let timer = readTimer.withLock({ $0 }) { _ = csystem_timer_set_absolute(timer, 0) }
        _ = fcntl(fd, F_SETFL, readFlags.load(ordering: .relaxed))
        readSlot.store(false, ordering: .releasing)
    }

    /// Called by the ``SignalPipe`` handlers (and this type's): ends the run in progress, if any.
    /// Async-signal-safe.
    static func interrupt(fromHandler: Bool) {
        let fd = readFD.load(ordering: .acquiring)
        guard fd >= 0 else { return }
        _ = fcntl(fd, F_SETFL, readFlags.load(ordering: .relaxed))
        readInterrupted.store(true, ordering: .releasing)
        let tid = readThread.load(ordering: .relaxed)
        if fromHandler, tid != csystem_gettid() { _ = csystem_tgkill(tid, signal) }
    }

    /// The process's timer, created with the handler of ``signal`` on first use.
    private static func deadlineTimer() -> Int? {
        readTimer.withLock { timer in
            if let t = timer { return t }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                let saved = errno
                InterruptibleRead.interrupt(fromHandler: true)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            guard sigaction(signal, &action, nil) == 0 else { return nil }
            var made = 0
            guard csystem_timer_create_signal(signal, &made) == 0 else { return nil }
            timer = made
            return made
        }
    }
}
