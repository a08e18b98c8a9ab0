#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which file a name or an open descriptor refers to: the device and inode numbers
/// (`st_dev`, `st_ino` of `stat(2)`). Equal for every name of one file (a hard link, a symbolic
/// link, `/proc/self/fd/N`) and for every descriptor open on it, so commands compare their
/// input and output by identity, not by name.
public struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
    /// `st_dev`: the device holding the file.
    public var device: UInt64
    /// `st_ino`: the file's inode number on that device.
    public var inode: UInt64

    /// Creates an identity from its two numbers.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity in a `stat` result.
    public init(_ status: stat) {
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// The identity of the file `path` names, following symbolic links (`stat(2)`).
    /// - Returns: nil when no such file exists (`ENOENT`, also for a dangling link).
    /// - Throws: ``SystemError`` for any other failure (`EACCES`, `ELOOP`, ...).
    public static func of(path: String) throws(SystemError) -> FileIdentity? {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if Errno.current == .noEntry || Errno.current == .notDirectory { return nil }
            throw SystemError.current("stat", subject: path)
        }
        return FileIdentity(st)
    }

    /// `device MAJOR:MINOR inode N`.
    public var description: String {
        "device \(major(device)):\(minor(device)) inode \(inode)"
    }

    /// `gnu_dev_major`'s computation (glibc's encoding of `dev_t`).
    private func major(_ dev: UInt64) -> UInt64 { ((dev >> 8) & 0xFFF) | ((dev >> 32) & ~0xFFF) }
    /// `gnu_dev_minor`'s computation.
    private func minor(_ dev: UInt64) -> UInt64 { (dev & 0xFF) | ((dev >> 12) & ~0xFF) }
}
