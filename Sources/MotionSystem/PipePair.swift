#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSystem

/// A pipe (`pipe2(2)`, close-on-exec) whose two ends this object owns and closes (``close()`` or
/// deinit). The read end is non-blocking: a read of an empty pipe says so instead of waiting, as
/// a non-blocking IIO buffer's does, so the pipe can stand in for a device's character device
/// (``MotionIIO``'s simulated device for the capture benchmark).
public final class PipePair {
    /// The read end (poll it for readability), -1 once closed.
    // Read once per refill by the one thread that owns the pipe: no dynamic exclusivity check.
    @exclusivity(unchecked) public private(set) var readEnd: Int32
    /// The write end, -1 once closed.
    public var writeEnd: Int32 { writer?.rawValue ?? -1 }
    private var writer: FileDescriptor?

    /// Creates the pipe, with room for at least `capacity` bytes when given (`F_SETPIPE_SZ`,
    /// at most `/proc/sys/fs/pipe-max-size` unprivileged).
    /// - Throws: ``SystemError`` (`pipe2`, `fcntl`).
    public init(capacity: Int? = nil) throws(SystemError) {
        var fds: (Int32, Int32) = (-1, -1)
        let r = withUnsafeMutableBytes(of: &fds) { csystem_pipe2($0.baseAddress!.assumingMemoryBound(to: Int32.self), O_CLOEXEC) }
        guard r == 0 else { throw SystemError.current("pipe2") }
        readEnd = fds.0
        writer = FileDescriptor(adopting: fds.1, path: "pipe")
        let flags = fcntl(readEnd, F_GETFL)
        guard flags >= 0, fcntl(readEnd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            let e = SystemError.current("fcntl", subject: "pipe")
            close()
            throw e
        }
        if let capacity, capacity > 65536, csystem_set_pipe_size(writeEnd, Int32(clamping: capacity)) < 0 {
            let e = SystemError.current("fcntl", subject: "F_SETPIPE_SZ \(capacity)")
            close()
            throw e
        }
    }

    deinit { close() }

    /// Reads up to `count` bytes into `buffer` (`read(2)`, retrying `EINTR`).
    /// - Returns: the bytes read, or nil when the pipe is empty (`EAGAIN`).
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int? {
        while true {
            let n = Glibc.read(readEnd, buffer, count)
            if n >= 0 { return n }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock { return nil }
            throw SystemError(e, call: "read", subject: "pipe")
        }
    }

    /// Writes all of `bytes` to the write end (``FileDescriptor/write(_:)-(UnsafeRawBufferPointer)``:
    /// retries `EINTR` and partial writes; blocks while the pipe is full).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        guard let writer else { throw SystemError(.badFileDescriptor, call: "write", subject: "pipe") }
        try writer.write(bytes)
    }

    /// Closes both ends. Idempotent.
    public func close() {
        if readEnd >= 0 { _ = Glibc.close(readEnd); readEnd = -1 }
        try? writer?.close()
        writer = nil
    }
}
