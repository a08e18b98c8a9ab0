#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: results to stdout, diagnostics to stderr. Tests capture both
/// by passing closures; the executable writes to the real file descriptors.
public struct CommandIO {
    /// Receives text for stdout.
    public var writeOut: (String) -> Void
    /// Receives text for stderr.
    public var writeErr: (String) -> Void
    /// Whether stderr is an interactive terminal (progress bars are drawn only then).
    public var stderrIsTerminal: Bool

    /// Creates an I/O sink.
    public init(writeOut: @escaping (String) -> Void, writeErr: @escaping (String) -> Void, stderrIsTerminal: Bool = false) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.stderrIsTerminal = stderrIsTerminal
    }

    /// The process's real stdout and stderr (wraps `write(2)` on fds 1 and 2, and `isatty`).
    public static func standard() -> CommandIO {
        CommandIO(
            writeOut: { s in writeAll(1, s) },
            writeErr: { s in writeAll(2, s) },
            stderrIsTerminal: isatty(2) == 1
        )
    }

    /// Writes every byte of `text` to `fd`, retrying on EINTR and partial writes.
    static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buf in
            var offset = 0
            while offset < buf.count {
                let n = write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }

    /// Writes one line to stdout.
    public func out(_ line: String) { writeOut(line + "\n") }
    /// Writes one line to stderr.
    public func err(_ line: String) { writeErr(line + "\n") }
}
