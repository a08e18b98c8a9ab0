/// A failed system call on /dev/uhid: the call, the errno and the path.
public struct UHIDError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The failing call (`open`, `write(UHID_INPUT2)`, ...).
    public var call: String
    /// errno after the call.
    public var errno: Int32
    /// The device path.
    public var path: String

    /// Creates an error value.
    public init(call: String, errno: Int32, path: String) {
        self.call = call
        self.errno = errno
        self.path = path
    }

    public var description: String {
        "\(path): \(call) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

#if canImport(Glibc)
import Glibc
#endif
