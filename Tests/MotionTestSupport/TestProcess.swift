import Foundation

/// Runs the built `motionbatch` executable in a child process, for what cannot be tested in
/// process: standard output as a stream, signals, resource limits.
public enum TestProcess {
    /// The `motionbatch` executable beside the test bundle (`swift build` / `swift test` build it).
    public static var motionbatch: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("motionbatch").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return TestPaths.packageRoot.appendingPathComponent(".build/debug/motionbatch").path
    }

    /// What a finished child did.
    public struct Result: Sendable {
        /// Exit status, or nil when a signal ended it.
        public var status: Int32?
        /// The signal that ended it, if any.
        public var signal: Int32?
        public var out: String
        public var err: String
    }

    /// Starts `arguments[0]` with the rest as arguments (`sh -c` when `shell` is set).
    public static func start(_ arguments: [String], shell: Bool = false, directory: String? = nil) throws -> (Process, Pipe, Pipe) {
        let p = Process()
        if shell {
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", arguments.joined(separator: " ")]
        } else {
            p.executableURL = URL(fileURLWithPath: arguments[0])
            p.arguments = Array(arguments.dropFirst())
        }
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        return (p, out, err)
    }

    /// Runs to the end and collects the outputs.
    public static func run(_ arguments: [String], shell: Bool = false, directory: String? = nil) throws -> Result {
        let (p, out, err) = try start(arguments, shell: shell, directory: directory)
        return finish(p, out, err)
    }

    /// Waits for `p` and collects its outputs.
    public static func finish(_ p: Process, _ out: Pipe, _ err: Pipe) -> Result {
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let bySignal = p.terminationReason == .uncaughtSignal
        return Result(status: bySignal ? nil : p.terminationStatus, signal: bySignal ? p.terminationStatus : nil,
                      out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }
}

#if canImport(Glibc)
import Glibc

extension TestProcess {
    /// A child started with every signal at its default action and none blocked (as from a
    /// shell), its output and errors going to files: for tests that signal it.
    public struct Child {
        /// Its process id.
        public let pid: pid_t
        let outPath: String
        let errPath: String

        /// Sends `signal`.
        public func kill(_ signal: Int32) { _ = Glibc.kill(pid, signal) }

        /// Whether it is still running.
        public var isRunning: Bool {
            var info = siginfo_t()
            // Not reaped (WNOWAIT): ``wait()`` still gets the status.
            guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return false }
            return info._sifields._kill.si_pid == 0
        }

        /// Waits for it to end.
        public func wait() -> Result {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let termSignal = status & 0x7F
            let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
            let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            return Result(status: termSignal == 0 ? (status >> 8) & 0xFF : nil, signal: termSignal == 0 ? nil : termSignal, out: out, err: err)
        }
    }

    /// Starts `arguments` (`arguments[0]` the executable) with default signal dispositions and an
    /// empty signal mask (`posix_spawn` with `POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK`),
    /// stdout and stderr to files in `logs`.
    public static func spawn(_ arguments: [String], logs: String) throws -> Child {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let outPath = logs + "/child.out", errPath = logs + "/child.err"
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        let environment: [String] = ["SWIFT_BACKTRACE=enable=no", "PATH=/usr/bin:/bin"]
        var env: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for p in env { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, &env)
        guard rc == 0 else { throw NSError(domain: "posix_spawn", code: Int(rc)) }
        return Child(pid: pid, outPath: outPath, errPath: errPath)
    }
}
#endif
