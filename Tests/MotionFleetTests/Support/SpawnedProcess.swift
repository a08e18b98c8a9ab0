import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn` with an empty signal mask and default signal
/// dispositions, whatever the test runner blocks (Foundation's `Process` passes its mask on, and
/// a broker that never sees SIGTERM cannot save its persistence file on the way out).
final class SpawnedProcess: @unchecked Sendable {
    let pid: pid_t
    private var status: Int32?

    /// Starts `path` with `args`, output to `log` (appended).
    init(_ path: String, _ args: [String], log: String) throws {
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + args).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var p: pid_t = 0
        let rc = posix_spawn(&p, path, &actions, &attr, argv, environ)
        guard rc == 0 else { throw BrokerError("posix_spawn \(path) failed: \(String(cString: strerror(rc)))") }
        pid = p
    }

    /// Whether it still runs (reaps it when it ended).
    var isRunning: Bool {
        guard status == nil else { return false }
        var s: Int32 = 0
        if waitpid(pid, &s, WNOHANG) == pid { status = s; return false }
        return true
    }

    /// Sends `signal`, waits at most `seconds`, then SIGKILL.
    func stop(_ signal: Int32 = SIGTERM, seconds: Double = 5) {
        guard isRunning else { return }
        kill(pid, signal)
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { usleep(10_000) }
        if isRunning {
            kill(pid, SIGKILL)
            var s: Int32 = 0
            waitpid(pid, &s, 0)
            status = s
        }
    }

    deinit { stop(SIGKILL, seconds: 1) }
}
