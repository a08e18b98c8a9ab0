#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one owner of a POSIX file descriptor: a thin wrapper over `open(2)`, `read(2)`,
/// `write(2)`, `fsync(2)`, `fstat(2)` and `close(2)` that retries `EINTR` and partial transfers
/// and reports failures as ``SystemError`` (with the path as subject).
/// The descriptor is closed by ``close()`` or, failing that, when the object is released.
public final class FileDescriptor {
    /// The path the descriptor was opened from (for messages).
    public let path: String
    /// The raw descriptor, -1 once closed. Valid only while this object is alive and open.
    public private(set) var rawValue: Int32

    /// Takes ownership of an open descriptor.
    public init(adopting fd: Int32, path: String) {
        precondition(fd >= 0, "FileDescriptor(adopting:) needs an open descriptor")
        self.path = path
        self.rawValue = fd
    }

    deinit {
        if rawValue >= 0 { _ = Glibc.close(rawValue) }
    }

    /// Opens `path` (`open(2)` with `flags | O_CLOEXEC` and `mode` for created files), retrying `EINTR`.
    public static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> FileDescriptor {
        while true {
            let fd = path.withCString { Glibc.open($0, flags | O_CLOEXEC, mode) }
            if fd >= 0 { return FileDescriptor(adopting: fd, path: path) }
            if Errno.current == .interrupted { continue }
            throw SystemError.current("open", subject: path)
        }
    }

    /// Opens `path` for reading (`open(path, O_RDONLY | O_CLOEXEC)`).
    public static func openForReading(_ path: String) throws(SystemError) -> FileDescriptor {
        try open(path, flags: O_RDONLY)
    }

    /// Creates `path` for appending (`open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (O_EXCL or O_TRUNC), 0644)`).
    /// - Parameter replaceExisting: truncate an existing file instead of failing with `EEXIST`.
    public static func create(_ path: String, replaceExisting: Bool) throws(SystemError) -> FileDescriptor {
        try open(path, flags: O_WRONLY | O_CREAT | O_APPEND | (replaceExisting ? O_TRUNC : O_EXCL))
    }

    /// `fstat(2)` of the open descriptor.
    public func status() throws(SystemError) -> stat {
        var st = stat()
        guard fstat(rawValue, &st) == 0 else { throw SystemError.current("fstat", subject: path) }
        return st
    }

    /// The bytes between the file offset and the end of a regular file (`fstat(2)` and
    /// `lseek(fd, 0, SEEK_CUR)`), or nil for other files (pipes, devices) or on error. A hint only:
    /// the file may grow or shrink before it is read.
    public func bytesRemaining() -> Int? {
        guard let st = try? status(), (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let offset = lseek(rawValue, 0, SEEK_CUR)
        guard offset >= 0 else { return nil }
        return max(Int(st.st_size) - Int(offset), 0)
    }

    /// Reads up to `count` bytes into `buffer` (`read(2)`, retrying `EINTR`).
    /// - Returns: the number of bytes read; 0 at end of file.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        while true {
            let n = Glibc.read(rawValue, buffer, count)
            if n >= 0 { return n }
            if Errno.current == .interrupted { continue }
            throw SystemError.current("read", subject: path)
        }
    }

    /// Writes all of `bytes` (`write(2)`, retrying `EINTR` and partial writes).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = Glibc.write(rawValue, base, left)
            if n < 0 {
                if Errno.current == .interrupted { continue }
                throw SystemError.current("write", subject: path)
            }
            base += n
            left -= n
        }
    }

    /// Writes all of `bytes` (see ``write(_:)-(UnsafeRawBufferPointer)``).
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { buf in
            do throws(SystemError) { try write(buf) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes all of `bytes` at `offset` (`pwrite(2)`, retrying `EINTR` and partial writes),
    /// without moving the file offset (a descriptor opened without `O_APPEND`).
    public func write(_ bytes: [UInt8], at offset: Int64) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { buf in
            guard var base = buf.baseAddress else { return }
            var left = buf.count
            var at = offset
            while left > 0 {
                let n = pwrite(rawValue, base, left, off_t(at))
                if n < 0 {
                    if Errno.current == .interrupted { continue }
                    failure = SystemError.current("pwrite", subject: path)
                    return
                }
                base += n
                left -= n
                at += Int64(n)
            }
        }
        if let failure { throw failure }
    }

    /// Cuts the file to `size` bytes (`ftruncate(2)`), e.g. a torn final line after a power cut.
    public func truncate(to size: Int64) throws(SystemError) {
        while ftruncate(rawValue, off_t(size)) != 0 {
            if Errno.current == .interrupted { continue }
            throw SystemError.current("ftruncate", subject: path)
        }
    }

    /// Reads up to `count` bytes at `offset` (`pread(2)`, retrying `EINTR`), without moving the
    /// file offset.
    /// - Returns: the number of bytes read; 0 at end of file.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) throws(SystemError) -> Int {
        while true {
            let n = pread(rawValue, buffer, count, off_t(offset))
            if n >= 0 { return n }
            if Errno.current == .interrupted { continue }
            throw SystemError.current("pread", subject: path)
        }
    }

    /// Forces written data to stable storage (`fsync(2)`).
    public func sync() throws(SystemError) {
        guard Glibc.fsync(rawValue) == 0 else { throw SystemError.current("fsync", subject: path) }
    }

    /// Closes the descriptor (`close(2)`). Idempotent.
    public func close() throws(SystemError) {
        guard rawValue >= 0 else { return }
        let r = Glibc.close(rawValue)
        rawValue = -1
        guard r == 0 else { throw SystemError.current("close", subject: path) }
    }

    /// Makes a newly created or renamed directory entry durable: `fsync(2)` on the directory
    /// containing `path`.
    public static func syncDirectory(containing path: String) throws(SystemError) {
        var dir = "."
        if let slash = path.lastIndex(of: "/") {
            dir = slash == path.startIndex ? "/" : String(path[..<slash])
        }
        let fd = try open(dir, flags: O_RDONLY | O_DIRECTORY)
        defer { try? fd.close() }
        try fd.sync()
    }
}
