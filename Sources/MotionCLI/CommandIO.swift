#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MotionSystem

/// Where a command writes: results to stdout, diagnostics to stderr. Tests capture both
/// by passing closures; the executable writes to the real file descriptors.
///
/// Scripts can trust the output: when writing stdout fails (a full disk, `/dev/full`, an I/O
/// error), the rest of the output is dropped and ``outputFailure`` says why, so that the command
/// exits 1 with that message (``MotionBatchCLI/main(_:io:)``); a closed pipe (EPIPE, with SIGPIPE
/// ignored) ends the process by SIGPIPE, as if it had not been ignored, the convention of `head`'s
/// readers.
public struct CommandIO {
    /// Receives text for stdout.
    public var writeOut: (String) -> Void
    /// Receives text for stderr.
    public var writeErr: (String) -> Void
    /// Receives bytes for stderr, written without a `String` (the live view's redraws); by
    /// default they are handed to ``writeErr`` as text.
    public var writeErrBytes: (UnsafeRawBufferPointer) -> Void
    /// Whether stderr is an interactive terminal (progress bars are drawn only then).
    public var stderrIsTerminal: Bool
    /// Why writing stdout failed, if it did (`nil` while every write succeeded).
    public var outputFailure: () -> String?
    /// The width help and usage lines are wrapped to: `COLUMNS`, else the terminal's, else 100
    /// (``TerminalWidth``).
    public var columns: Int = HelpFormatter.defaultWidth

    /// Creates an I/O sink.
    public init(writeOut: @escaping (String) -> Void, writeErr: @escaping (String) -> Void, stderrIsTerminal: Bool = false,
                outputFailure: @escaping () -> String? = { nil }, columns: Int = HelpFormatter.defaultWidth) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        writeErrBytes = { writeErr(String(decoding: $0, as: UTF8.self)) }
        self.stderrIsTerminal = stderrIsTerminal
        self.outputFailure = outputFailure
        self.columns = columns
    }

    /// The first failed write of a descriptor (its errno), after which nothing more is written to it.
    final class WriteState {
        var failedErrno: Int32?
    }

    /// The process's real stdout and stderr (wraps `write(2)` on fds 1 and 2, and `isatty`).
    public static func standard() -> CommandIO {
        let stdout = WriteState()
        var io = CommandIO(
            writeOut: { s in
                guard stdout.failedErrno == nil else { return }
                if let e = writeAll(1, s) {
                    if e == EPIPE { diedOfSIGPIPE() }
                    stdout.failedErrno = e
                }
            },
            writeErr: { s in _ = writeAll(2, s) },
            stderrIsTerminal: isatty(2) == 1,
            outputFailure: {
                stdout.failedErrno.map { "cannot write standard output: \(String(cString: strerror($0))) (errno \($0))" }
            },
            columns: TerminalWidth.current()
        )
        io.writeErrBytes = { _ = writeAll(2, $0) }
        return io
    }

    /// Ends the process by SIGPIPE (the default action restored: it was ignored, since a write
    /// gave EPIPE), removing the temporary files of unfinished outputs first.
    private static func diedOfSIGPIPE() -> Never {
        TemporaryFileCleanup.terminate(by: SIGPIPE)
    }

    /// Writes every byte of `text` to `fd`, retrying on EINTR and partial writes.
    /// - Returns: the errno of a failed write, nil when every byte was written.
    @discardableResult
    static func writeAll(_ fd: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Writes every byte of `bytes` to `fd`, retrying on EINTR and partial writes.
    /// - Returns: the errno of a failed write, nil when every byte was written.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    /// Writes one line to stdout.
    public func out(_ line: String) { writeOut(line + "\n") }
    /// Writes one line to stderr.
    public func err(_ line: String) { writeErr(line + "\n") }
}
