import MotionSystem

/// Text helpers for libiio's NUL-terminated attribute values.
enum IIOText {
    /// Reads one attribute value through `read` (an `iio_*_attr_read` call given a buffer and its
    /// size) into a 4 KiB buffer, sysfs's limit for an attribute, and returns its text.
    /// - Throws: ``SystemError`` naming `call` and `subject` when `read` returns a negative errno.
    static func read(_ call: String, subject: String,
                     _ read: (UnsafeMutablePointer<CChar>, Int) -> Int) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBufferPointer { read($0.baseAddress!, $0.count) }
        try LibIIO.check(n, call, subject: subject)
        return string(buffer)
    }

    /// The text up to the first NUL, trailing newline/space trimmed.
    static func string(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        var s = String(decoding: bytes, as: UTF8.self)
        while let last = s.last, last == "\n" || last == " " { s.removeLast() }
        return s
    }
}
