import CLibIIO
import MotionSystem
#if canImport(Glibc)
import Glibc
#endif

/// The one place libiio's two error conventions are decoded into ``SystemError`` (NULL + `errno`
/// for pointer-returning calls, a negative errno for integer-returning ones), with libiio's own
/// text for the code (`iio_strerror`) as the error's `message`.
enum LibIIO {
    /// libiio's text for an errno value (`iio_strerror`, without the " (N)" it appends).
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        iio_strerror(code, &buffer, buffer.count)
        var text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let suffix = " (\(code))"
        if text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }

    /// The error value for a failed libiio `call` with positive errno `code`.
    static func error(_ code: Int32, _ call: String, subject: String? = nil, message: String? = nil) -> SystemError {
        SystemError(Errno(code), call: call, subject: subject, message: message ?? self.message(code))
    }

    /// Checks an int-returning libiio call: a negative result is `-errno`.
    /// - Returns: the non-negative result.
    @discardableResult
    static func check<T: SignedInteger>(_ result: T, _ call: String, subject: @autoclosure () -> String? = nil) throws(SystemError) -> T {
        if result < 0 { throw error(Int32(truncatingIfNeeded: 0 - result), call, subject: subject()) }
        return result
    }

    /// Checks a pointer-returning libiio call: NULL means failure with the reason in `errno`.
    static func check<P>(_ pointer: P?, _ call: String, subject: @autoclosure () -> String? = nil) throws(SystemError) -> P {
        guard let pointer else {
            let code = errno == 0 ? ENOENT : errno
            throw error(code, call, subject: subject())
        }
        return pointer
    }
}
