#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX error number with names for the codes MotionBatch acts on, so that callers `switch`
/// over named cases instead of comparing `code == EAGAIN`. Any other value is carried as is.
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The positive `errno` value.
    public var rawValue: Int32

    /// Wraps a positive `errno` value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Wraps a positive `errno` value.
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    public static var current: Errno { Errno(Glibc.errno) }

    /// `strerror(3)`'s text for the code.
    public var description: String { String(cString: strerror(rawValue)) }

    /// `EPERM`: operation not permitted.
    public static let notPermitted = Errno(EPERM)
    /// `ENOENT`: no such file or directory.
    public static let noEntry = Errno(ENOENT)
    /// `EINTR`: interrupted by a signal (retry).
    public static let interrupted = Errno(EINTR)
    /// `EIO`: input/output error.
    public static let ioError = Errno(EIO)
    /// `ENXIO`: no such device or address.
    public static let noDeviceOrAddress = Errno(ENXIO)
    /// `EBADF`: bad file descriptor.
    public static let badFileDescriptor = Errno(EBADF)
    /// `EAGAIN` / `EWOULDBLOCK`: nothing available now on a non-blocking descriptor.
    public static let wouldBlock = Errno(EAGAIN)
    /// `ENOMEM`: out of memory.
    public static let noMemory = Errno(ENOMEM)
    /// `EACCES`: permission denied.
    public static let permissionDenied = Errno(EACCES)
    /// `EBUSY`: device or resource busy.
    public static let busy = Errno(EBUSY)
    /// `EEXIST`: file exists.
    public static let exists = Errno(EEXIST)
    /// `EXDEV`: cross-device link.
    public static let crossDevice = Errno(EXDEV)
    /// `ENODEV`: no such device.
    public static let noDevice = Errno(ENODEV)
    /// `ENOTDIR`: not a directory.
    public static let notDirectory = Errno(ENOTDIR)
    /// `EISDIR`: is a directory.
    public static let isDirectory = Errno(EISDIR)
    /// `EINVAL`: invalid argument.
    public static let invalidArgument = Errno(EINVAL)
    /// `EFBIG`: file too large.
    public static let fileTooLarge = Errno(EFBIG)
    /// `ENOSPC`: no space left on device.
    public static let noSpace = Errno(ENOSPC)
    /// `EROFS`: read-only file system.
    public static let readOnlyFileSystem = Errno(EROFS)
    /// `EPIPE`: broken pipe.
    public static let brokenPipe = Errno(EPIPE)
    /// `ERANGE`: result out of range.
    public static let outOfRange = Errno(ERANGE)
    /// `ENOSYS`: function not implemented.
    public static let notImplemented = Errno(ENOSYS)
    /// `EDQUOT`: disk quota exceeded.
    public static let quotaExceeded = Errno(EDQUOT)
    /// `ETIMEDOUT`: timed out.
    public static let timedOut = Errno(ETIMEDOUT)
    /// `ECONNREFUSED`: connection refused.
    public static let connectionRefused = Errno(ECONNREFUSED)
    /// `ECONNRESET`: connection reset by peer.
    public static let connectionReset = Errno(ECONNRESET)
    /// `EHOSTUNREACH`: no route to host.
    public static let hostUnreachable = Errno(EHOSTUNREACH)
    /// `ENOTCONN`: not connected.
    public static let notConnected = Errno(ENOTCONN)
    /// `ECANCELED`: operation cancelled.
    public static let cancelled = Errno(ECANCELED)
}
