/// Numbers appended to a byte buffer as text, without making a `String` (which allocates for
/// more than 15 bytes): the forms the recording writer, the checkpoint and the live view print
/// on a capture's per-wake-up path, byte for byte what `String(value)` and `value.description`
/// print.
public enum DecimalDigits {
    /// Appends the decimal digits of `value`, `-` first when negative (as `String(value)`).
    public static func append(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        append(value.magnitude, to: &out)
    }

    /// Appends the decimal digits of `value` (as `String(value)`).
    public static func append(_ value: UInt64, to out: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var v = value
            var i = buffer.count
            repeat {
                i -= 1
                buffer[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
                v /= 10
            } while v != 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[i...]))
        }
    }

    /// The number of digits `append(value)` writes for `value` (1 for 0).
    public static func count(_ value: UInt64) -> Int {
        var width = 1
        var v = value
        while v >= 10 { v /= 10; width += 1 }
        return width
    }

    /// Appends `value` as `value.description` writes it (the shortest text that reads back as the
    /// same `Double`): `Double` writes its digits to a `TextOutputStream` (``ByteStream``) from a
    /// buffer on the stack, with no `String` in between.
    @inline(__always)
    public static func appendShortest(_ value: Double, to out: inout [UInt8]) {
        withUnsafeMutablePointer(to: &out) { p in
            var stream = ByteStream(p)
            value.write(to: &stream)
        }
    }

    /// A `TextOutputStream` appending to an array of bytes: the ASCII the standard library's
    /// number formatting writes (`_writeASCII`) is appended as it is.
    struct ByteStream: TextOutputStream {
        let target: UnsafeMutablePointer<[UInt8]>
        init(_ target: UnsafeMutablePointer<[UInt8]>) { self.target = target }
        mutating func write(_ string: String) { target.pointee.append(contentsOf: string.utf8) }
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { target.pointee.append(contentsOf: buffer) }
    }
}
