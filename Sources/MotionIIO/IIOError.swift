import CLibIIO
#if canImport(Glibc)
import Glibc
#endif

/// A failed libiio call: the positive errno code, the C function that failed, and libiio's
/// message for the code (from `iio_strerror`). The single place where libiio's two error
/// conventions (NULL + `errno` for pointers, negative errno for integers) are decoded.
public struct IIOError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The errno value (positive), e.g. `EACCES`, `EBUSY`, `ENODEV`.
    public var code: Int32
    /// The libiio (or libc) function that failed, e.g. `iio_device_create_buffer`.
    public var call: String
    /// Human-readable text for ``code``.
    public var message: String
    /// What the call was applied to (a URI, a device, an attribute), when known.
    public var subject: String?

    /// Creates an error; `message` defaults to libiio's text for `code` (`iio_strerror`).
    public init(code: Int32, call: String, message: String? = nil, subject: String? = nil) {
        self.code = code
        self.call = call
        self.message = message ?? IIOError.describe(code)
        self.subject = subject
    }

    /// `call(subject): message (errno N)`.
    public var description: String {
        let target = subject.map { "(\($0))" } ?? ""
        return "\(call)\(target): \(message) (errno \(code))"
    }

    /// The text for an errno value, via `iio_strerror`.
    public static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        iio_strerror(code, &buffer, buffer.count)
        var text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // libiio 0.24 appends " (N)"; the code is reported separately.
        let suffix = " (\(code))"
        if text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }

    /// Checks an int-returning libiio call: a negative result is `-errno`.
    /// - Returns: the non-negative result.
    @discardableResult
    static func check<T: SignedInteger>(_ result: T, _ call: String, subject: String? = nil) throws(IIOError) -> T {
        if result < 0 { throw IIOError(code: Int32(truncatingIfNeeded: 0 - result), call: call, subject: subject) }
        return result
    }

    /// Checks a pointer-returning libiio call: NULL means failure with the reason in `errno`.
    static func check<P>(_ pointer: P?, _ call: String, subject: String? = nil) throws(IIOError) -> P {
        guard let pointer else {
            let code = errno == 0 ? ENOENT : errno
            throw IIOError(code: code, call: call, subject: subject)
        }
        return pointer
    }

    /// The current `errno` from a failed libc call.
    static func fromErrno(_ call: String, subject: String? = nil) -> IIOError {
        IIOError(code: errno, call: call, subject: subject)
    }
}
