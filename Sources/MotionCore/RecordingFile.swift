#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call on a recording file: which call, on which path, and `errno`.
public struct RecordingIOError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file concerned.
    public var path: String
    /// The C function that failed (`open`, `read`, `write`, `fsync`, `close`).
    public var call: String
    /// The `errno` value it left.
    public var errno: Int32

    /// Creates an error record.
    public init(path: String, call: String, errno: Int32) {
        self.path = path
        self.call = call
        self.errno = errno
    }

    /// `path: open failed: No such file or directory (errno 2)`.
    public var description: String {
        "\(path): \(call) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// The one owner of a POSIX file descriptor used for recordings: a thin wrapper over
/// `open(2)`, `read(2)`, `write(2)`, `fsync(2)` and `close(2)` that retries `EINTR` and
/// partial transfers and reports failures as ``RecordingIOError``.
/// The descriptor is closed by ``close()`` or, failing that, when the object is released.
final class RecordingFile {
    /// The path the descriptor was opened from (for messages).
    let path: String
    private var fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit {
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    /// Opens `path` for reading (`open(path, O_RDONLY | O_CLOEXEC)`).
    static func openForReading(_ path: String) throws(RecordingIOError) -> RecordingFile {
        let fd = path.withCString { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw RecordingIOError(path: path, call: "open", errno: errno) }
        return RecordingFile(path: path, fd: fd)
    }

    /// Creates `path` for appending (`open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (O_EXCL or O_TRUNC), 0644)`).
    /// - Parameter replaceExisting: truncate an existing file instead of failing with `EEXIST`.
    static func create(_ path: String, replaceExisting: Bool) throws(RecordingIOError) -> RecordingFile {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (replaceExisting ? O_TRUNC : O_EXCL)
        let fd = path.withCString { Glibc.open($0, flags, 0o644) }
        guard fd >= 0 else { throw RecordingIOError(path: path, call: "open", errno: errno) }
        return RecordingFile(path: path, fd: fd)
    }

    /// The bytes between the file offset and the end of a regular file (`fstat(2)` and
    /// `lseek(fd, 0, SEEK_CUR)`), or nil for other files (pipes, devices) or on error. A hint only:
    /// the file may grow or shrink before it is read.
    func bytesRemaining() -> Int? {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let offset = lseek(fd, 0, SEEK_CUR)
        guard offset >= 0 else { return nil }
        return max(Int(st.st_size) - Int(offset), 0)
    }

    /// Reads up to `count` bytes into `buffer` (`read(2)`, retrying `EINTR`).
    /// - Returns: the number of bytes read; 0 at end of file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(RecordingIOError) -> Int {
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw RecordingIOError(path: path, call: "read", errno: errno)
        }
    }

    /// Writes all of `bytes` (`write(2)`, retrying `EINTR` and partial writes).
    func write(_ bytes: UnsafeRawBufferPointer) throws(RecordingIOError) {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = Glibc.write(fd, base, left)
            if n < 0 {
                if errno == EINTR { continue }
                throw RecordingIOError(path: path, call: "write", errno: errno)
            }
            base += n
            left -= n
        }
    }

    /// Writes all of `bytes` (see ``write(_:)-(UnsafeRawBufferPointer)``).
    func write(_ bytes: [UInt8]) throws(RecordingIOError) {
        var failure: RecordingIOError?
        bytes.withUnsafeBytes { buf in
            do throws(RecordingIOError) { try write(buf) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Forces written data to stable storage (`fsync(2)`).
    func sync() throws(RecordingIOError) {
        guard Glibc.fsync(fd) == 0 else { throw RecordingIOError(path: path, call: "fsync", errno: errno) }
    }

    /// Closes the descriptor (`close(2)`). Idempotent.
    func close() throws(RecordingIOError) {
        guard fd >= 0 else { return }
        let r = Glibc.close(fd)
        fd = -1
        guard r == 0 else { throw RecordingIOError(path: path, call: "close", errno: errno) }
    }

    /// Makes a newly created directory entry durable: `fsync(2)` on the directory containing `path`.
    static func syncDirectory(containing path: String) throws(RecordingIOError) {
        var dir = "."
        if let slash = path.lastIndex(of: "/") {
            dir = slash == path.startIndex ? "/" : String(path[..<slash])
        }
        let fd = dir.withCString { Glibc.open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw RecordingIOError(path: dir, call: "open", errno: errno) }
        defer { _ = Glibc.close(fd) }
        guard Glibc.fsync(fd) == 0 else { throw RecordingIOError(path: dir, call: "fsync", errno: errno) }
    }
}
