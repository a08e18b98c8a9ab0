/// A failed system (or C library) call: the error number, the function that failed and what it
/// was applied to. The one error value for system calls across MotionBatch: files, /dev/uhid,
/// libiio, poll, signals. Wrappers throw it; callers `switch` on ``errno``.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error number.
    public var errno: Errno
    /// The C function that failed, e.g. `open`, `fsync`, `iio_device_create_buffer`
    /// (with a detail in parentheses where one call has several uses: `write(UHID_INPUT2)`).
    public var call: String
    /// What the call was applied to (a path, a URI, a device or attribute), when known.
    public var subject: String?
    /// Text for ``errno`` from the library that reported it (e.g. `iio_strerror`); nil means
    /// `strerror(3)`'s.
    public var message: String?

    /// Creates an error value.
    public init(_ errno: Errno, call: String, subject: String? = nil, message: String? = nil) {
        self.errno = errno
        self.call = call
        self.subject = subject
        self.message = message
    }

    /// The error left in `errno` by the call that just failed.
    public static func current(_ call: String, subject: String? = nil) -> SystemError {
        SystemError(.current, call: call, subject: subject)
    }

    /// The text for ``errno``: ``message`` or `strerror(3)`'s.
    public var reason: String { message ?? errno.description }

    /// `subject: call failed: reason (errno N)`, or `call failed: ...` without a subject.
    public var description: String {
        let prefix = subject.map { "\($0): " } ?? ""
        return "\(prefix)\(call) failed: \(reason) (errno \(errno.rawValue))"
    }
}
