#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Removes unfinished temporary files when the process is ended by a signal: while at least one
/// file is registered, SIGINT, SIGTERM, SIGHUP, SIGXFSZ and SIGPIPE run a handler that unlinks
/// every registered path and then re-raises the signal with its default action, so the process
/// still ends the way the signal says (exit status 128 + N in a shell). Only signals whose action
/// is the default (ending the process) are taken: those the process ignored when the first file
/// was registered (`nohup`'s SIGHUP) stay ignored, and those it handles itself (a capture's
/// ``SignalPipe``: it stops cleanly and finishes or removes its files on its own paths) stay
/// handled. The default action is put back when the last file is unregistered, for each signal
/// whose handler is still this one (a handler the process installed meanwhile is left alone).
///
/// The handler only calls async-signal-safe functions (`unlink`, `sigaction`, `sigprocmask`,
/// `raise`) and reads a fixed table allocated at the first registration; registering and
/// unregistering block those signals on the calling thread while they change the table.
public enum TemporaryFileCleanup {
    /// The signals handled while a file is registered.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGXFSZ, SIGPIPE]
    /// How many files can be registered at once (a command writes one or two at a time).
    public static let capacity = 16
    /// Bytes per path, terminating NUL included.
    static let slotBytes = Int(PATH_MAX) + 1

    /// A registered file; pass it back to ``unregister(_:)``.
    public struct Registration: Sendable, Hashable {
        let slot: Int
    }

    /// The table the handler reads: `capacity` flags, then `capacity` NUL-terminated paths.
    /// Allocated once and never freed.
    private struct Table: @unchecked Sendable {
        let inUse: UnsafeMutablePointer<Int32>
        let paths: UnsafeMutablePointer<CChar>
    }

    private static let table: Table = {
        let inUse = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        inUse.initialize(repeating: 0, count: capacity)
        let paths = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * slotBytes)
        paths.initialize(repeating: 0, count: capacity * slotBytes)
        return Table(inUse: inUse, paths: paths)
    }()

    /// Registered count and the dispositions replaced by ours (restored when the count returns to 0).
    private struct State: ~Copyable {
        var count = 0
        var previous: [Int32: sigaction] = [:]
    }

    private static let state = Mutex(State())

    /// Registers `path` for removal on a signal.
    /// - Returns: nil when the path is too long or the table is full (the file is then not
    ///   removed on a signal, only on the failure paths of its owner).
    public static func register(_ path: String) -> Registration? {
        let bytes = Array(path.utf8)
        guard bytes.count < slotBytes, !bytes.contains(0) else { return nil }
        let table = self.table
        return withSignalsBlocked {
            state.withLock { state -> Registration? in
                guard let slot = (0..<capacity).first(where: { table.inUse[$0] == 0 }) else { return nil }
                let destination = table.paths + slot * slotBytes
                bytes.withUnsafeBufferPointer { b in
                    UnsafeMutableRawPointer(destination).copyMemory(from: b.baseAddress!, byteCount: b.count)
                }
                destination[bytes.count] = 0
                table.inUse[slot] = 1
                if state.count == 0 { state.previous = installHandlers() }
                state.count += 1
                return Registration(slot: slot)
            }
        }
    }

    /// Removes a registration (the file itself is left alone: its owner renamed or removed it).
    public static func unregister(_ registration: Registration) {
        let table = self.table
        withSignalsBlocked {
            state.withLock { state in
                guard table.inUse[registration.slot] != 0 else { return }
                table.inUse[registration.slot] = 0
                state.count -= 1
                if state.count == 0 {
                    for (sig, var action) in state.previous {
                        var current = sigaction()
                        guard sigaction(sig, nil, &current) == 0, isOurs(current) else { continue }
                        sigaction(sig, &action, nil)
                    }
                    state.previous = [:]
                }
            }
        }
    }

    /// The paths registered now (for tests and diagnostics).
    public static var registeredPaths: [String] {
        let table = self.table
        return withSignalsBlocked {
            state.withLock { _ in
                (0..<capacity).filter { table.inUse[$0] != 0 }.map { String(cString: table.paths + $0 * slotBytes) }
            }
        }
    }

    /// The handler `sigaction(2)` is given.
    private static let handler: @convention(c) (Int32) -> Void = { sig in TemporaryFileCleanup.handle(sig) }

    /// Whether `action` runs ``handler``.
    private static func isOurs(_ action: sigaction) -> Bool {
        guard action.sa_flags & SA_SIGINFO == 0, let h = action.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(h, to: Int.self) == unsafeBitCast(handler, to: Int.self)
    }

    /// Installs the handler for every signal whose action is the default (not ignored, not
    /// handled by the process).
    /// - Returns: the dispositions replaced.
    private static func installHandlers() -> [Int32: sigaction] {
        var replaced: [Int32: sigaction] = [:]
        for sig in signals {
            var old = sigaction()
            guard sigaction(sig, nil, &old) == 0 else { continue }
            guard old.sa_flags & SA_SIGINFO == 0,
                  unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_DFL, to: Int.self) else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handler
            sigfillset(&action.sa_mask)
            action.sa_flags = 0
            if sigaction(sig, &action, nil) == 0 { replaced[sig] = old }
        }
        return replaced
    }

    /// Ends the process by `sig` as its default action would, after removing every registered
    /// file: for a writer that met `EPIPE` with SIGPIPE ignored (``BrokenPipeSignal``) and must
    /// still end the way an unignored SIGPIPE would, leaving no temporary file behind. Falls back
    /// to `_exit(128 + sig)` if the signal does not end the process.
    public static func terminate(by sig: Int32) -> Never {
        withSignalsBlocked { state.withLock { _ in handle(sig) } }
        _exit(128 + sig)
    }

    /// The signal handler: unlink every registered path, restore the default action, re-raise.
    private static func handle(_ sig: Int32) {
        let table = self.table
        for slot in 0..<capacity where table.inUse[slot] != 0 {
            _ = unlink(table.paths + slot * slotBytes)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(sig, &action, nil)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, sig)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(sig)
    }

    /// Runs `body` with the handled signals blocked on this thread.
    private static func withSignalsBlocked<T>(_ body: () -> T) -> T {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in signals { sigaddset(&set, sig) }
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        return body()
    }
}
