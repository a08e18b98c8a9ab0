/// The general parser for decimal numbers in MotionBatch's one grammar:
/// `[+-]? digits [. digits]? ([eE] [+-]? digits)?` (at least one digit before or after the point).
/// Anything else, including `nan`, `inf`, spaces, hexadecimal (`0x10`) and an empty text, is
/// rejected. It reads ASCII bytes directly (no `String`, no locale).
///
/// The recording reader uses it for the rare fields the fast per-field path
/// (``CSVFieldScanner``) hands over, for `time_s` and for its diagnoses; the command line and the
/// header use its text forms (``double(_:)``, ``int64(_:)``), so that every number MotionBatch
/// reads, from a file, a header or an option, follows the same grammar.
///
/// Each scanner comes in two forms: bounded (reads nothing at or past `end`) and padded (reads
/// words through a ``PaddedBytes`` view, which may extend past `end`). The `scan` functions parse
/// from a cursor and stop at the first byte that cannot continue the number (the caller checks
/// that it is a field separator); the `parse` functions require the whole buffer to be one number.
public enum DecimalScanner {
    // MARK: Text forms (options, header values)

    /// `text` as a finite `Double` in the grammar above, or nil (also for overflow to infinity).
    public static func double(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { b in
            guard let p = b.baseAddress, let v = parseDouble(p, b.count), v.isFinite else { return nil }
            return v
        }
    }

    /// The bytes `utf8` as a finite `Double` in the grammar above, or nil (see ``double(_:)``).
    public static func double(utf8: [UInt8]) -> Double? {
        utf8.withUnsafeBufferPointer { b in
            guard let p = b.baseAddress, let v = parseDouble(p, b.count), v.isFinite else { return nil }
            return v
        }
    }

    /// The bytes as a finite `Double` in the grammar above, or nil (see ``double(_:)``): for text
    /// read into a buffer (an attribute file), without a `String`.
    public static func double(bytes: UnsafeRawBufferPointer) -> Double? {
        guard let p = bytes.baseAddress, let v = parseDouble(p.assumingMemoryBound(to: UInt8.self), bytes.count), v.isFinite else { return nil }
        return v
    }

    /// `text` as an `Int64` (`[+-]? digits`, at most 19 digits, within Int64's range), or nil.
    public static func int64(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { b in
            guard let p = b.baseAddress else { return nil }
            return parseInt64(p, b.count)
        }
    }

    // MARK: Scanners

    /// Exact powers of ten representable as `Double` (10^0 ... 10^22).
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    #if arch(x86_64) && !os(Windows)
    /// Exact powers of ten in 80-bit extended precision (10^0 ... 10^27; 5^27 < 2^64).
    static let powersOfTen80: [Float80] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
        1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27,
    ]
    #endif

    /// Scans a decimal floating-point number at `cursor`, reading nothing at or past `end`.
    /// See ``scanDouble(_:_:padded:)``.
    @inline(__always)
    static func scanDouble(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Double? {
        scanDouble(&cursor, end, padded: nil)
    }

    /// Scans a decimal floating-point number at `cursor` inside `bytes` (its end is `bytes.end`),
    /// reading digit runs 8 bytes at a time through the padding. See ``scanDouble(_:_:padded:)``.
    @inline(__always)
    static func scanDouble(_ cursor: inout UnsafePointer<UInt8>, in bytes: PaddedBytes) -> Double? {
        scanDouble(&cursor, bytes.end, padded: bytes)
    }

    /// Scans a decimal floating-point number starting at `cursor`, advancing it past the number.
    ///
    /// Up to 19 significant digits are composed into a `UInt64` mantissa. When the mantissa fits
    /// in 53 bits and the decimal exponent is within ±22, the result is one correctly rounded IEEE
    /// multiplication or division by an exact power of ten (Clinger's fast path), so it equals
    /// `strtod`'s. On x86-64, mantissas up to 64 bits with exponents within ±27 use one 80-bit
    /// operation, correct unless the 64-bit result lies exactly halfway between two doubles (then
    /// the slow path is taken). Anything else falls back to the standard library's correctly
    /// rounded conversion (`Double(String)`, which wraps `strtod_l`). Overflow yields ±infinity,
    /// which callers reject.
    ///
    /// - Parameter padded: with a view, the byte at `end` is not a digit and 8 bytes from any
    ///   position up to `end` are readable, so digit runs are read 8 bytes at a time without a
    ///   bounds check or data-dependent loop; without, nothing at or past `end` is read.
    /// - Returns: the value, or `nil` when no number in the grammar starts at `cursor`
    ///   (the cursor is then unspecified).
    /// - Complexity: O(length of the number).
    @inline(__always)
    static func scanDouble(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, padded: PaddedBytes?) -> Double? {
        let start = cursor
        var c = cursor
        let negative: Bool
        (c, negative) = skipSign(c, end, padded: padded)
        var mantissa: UInt64 = 0
        let integerStart = c
        accumulateDigits(&c, end, into: &mantissa, padded: padded)
        var digitCount = c - integerStart
        var exp10 = 0
        if c < end && c.pointee == UInt8(ascii: ".") {
            c += 1
            let fractionStart = c
            accumulateDigits(&c, end, into: &mantissa, padded: padded)
            exp10 = fractionStart - c
            digitCount -= exp10
        }
        guard digitCount > 0 else { return nil }
        if c < end && (c.pointee | 0x20) == UInt8(ascii: "e") {
            c += 1
            var expNegative = false
            if c < end && (c.pointee == UInt8(ascii: "-") || c.pointee == UInt8(ascii: "+")) {
                expNegative = c.pointee == UInt8(ascii: "-")
                c += 1
            }
            let expStart = c
            var e = 0
            while c < end {
                let d = c.pointee &- 48
                if d > 9 { break }
                if e < 100_000 { e = e &* 10 &+ Int(d) }
                c += 1
            }
            guard c > expStart else { return nil }
            exp10 += expNegative ? -e : e
        }
        cursor = c
        if digitCount <= 19 {
            if mantissa == 0 { return negative ? -0.0 : 0.0 }
            if mantissa <= (1 << 53) && exp10 >= -22 && exp10 <= 22 {
                var v = Double(mantissa)
                if exp10 < 0 { v /= powersOfTen[-exp10] } else { v *= powersOfTen[exp10] }
                return negative ? -v : v
            }
            #if arch(x86_64) && !os(Windows)
            if exp10 >= -27 && exp10 <= 27 {
                var v = Float80(mantissa)
                if exp10 < 0 { v /= powersOfTen80[-exp10] } else { v *= powersOfTen80[exp10] }
                if v.significandBitPattern & 0x7FF != 0x400 {
                    let d = Double(v)
                    return negative ? -d : d
                }
            }
            #endif
        }
        return slowParse(start, c - start)
    }

    /// `magnitude` with its sign as an `Int64`, or `nil` when it does not fit (−2^63 ... 2^63 − 1).
    @inline(__always)
    static func signedInt64(_ magnitude: UInt64, negative: Bool) -> Int64? {
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// Appends the run of ASCII digits at `cursor` to `value` (`value = value * 10^k + digits`,
    /// wrapping on overflow: callers count digits), eight bytes at a time (SWAR: one unaligned
    /// 64-bit load, a per-byte digit test, and three multiplications to convert up to 8 digits).
    ///
    /// With `padded` (see ``scanDouble(_:_:padded:)``) every step loads 8 bytes, converts the
    /// leading digits among them and stops when fewer than 8 were digits: no branch per digit.
    /// Otherwise it loads words only while 8 bytes remain before `end`, then goes byte by byte.
    @inline(__always)
    static func accumulateDigits(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, into value: inout UInt64, padded: PaddedBytes?) {
        var c = cursor
        var v = value
        if let padded {
            while true {
                let word = padded.load64(c)
                let k = leadingDigitCount(word)
                // Keep the k digit bytes, moved to the top: the bytes below become leading zeros.
                v = v &* pow10Int[k] &+ eightDigits((word &- 0x3030_3030_3030_3030) << UInt64(64 - 8 * k))
                c += k
                if k < 8 { break }
            }
        } else {
            while end - c >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(c).loadUnaligned(as: UInt64.self))
                guard leadingDigitCount(word) == 8 else { break }
                v = v &* 100_000_000 &+ eightDigits(word &- 0x3030_3030_3030_3030)
                c += 8
            }
            while c < end {
                let d = c.pointee &- 48
                if d > 9 { break }
                v = v &* 10 &+ UInt64(d)
                c += 1
            }
        }
        cursor = c
        value = v
    }

    /// Skips an optional `+` or `-` at `c`; branch-free when `padded` (the byte at `end` is readable).
    @inline(__always)
    static func skipSign(_ c: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, padded: PaddedBytes?) -> (UnsafePointer<UInt8>, Bool) {
        let b: UInt8
        if let padded { b = padded[c] } else {
            guard c < end else { return (c, false) }
            b = c.pointee
        }
        let minus = b == UInt8(ascii: "-")
        let signed = minus || b == UInt8(ascii: "+")
        return (c + (signed ? 1 : 0), minus)
    }

    /// 10^0 ... 10^8.
    static let pow10Int: [UInt64] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    /// How many of the 8 bytes of `word` (first byte in the low bits), counted from the first,
    /// are ASCII digits before the first non-digit (8 if all are).
    @inline(__always)
    static func leadingDigitCount(_ word: UInt64) -> Int {
        // Per byte: high nibble 3, and adding 6 does not reach the next high nibble. A carry out of
        // a byte >= 0xFA only disturbs later bytes, after that (non-digit) byte.
        let t = (word & 0xF0F0_F0F0_F0F0_F0F0) | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4)
        return (t ^ 0x3333_3333_3333_3333).trailingZeroBitCount >> 3
    }

    /// The value of 8 decimal digits (byte values 0...9, most significant in the low byte).
    @inline(__always)
    static func eightDigits(_ digits: UInt64) -> UInt64 {
        var x = digits
        x = (x &* 10) &+ (x >> 8)
        x = (((x & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064) &+ (((x >> 16) & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001)) >> 32
        return x & 0xFFFF_FFFF
    }

    /// Correctly rounded conversion of bytes already validated by ``scanDouble(_:_:padded:)``.
    @inline(never)
    static func slowParse(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        Double(String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self))
    }

    /// Scans a decimal integer `[+-]? digits` into an `Int64`, advancing `cursor`; reads nothing
    /// at or past `end`.
    /// - Returns: `nil` when there are no digits or the value does not fit in 64 bits.
    @inline(__always)
    static func scanInt64(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int64? {
        scanInt64(&cursor, end, padded: nil)
    }

    /// Scans a decimal integer at `cursor` inside `bytes`, reading words through the padding.
    @inline(__always)
    static func scanInt64(_ cursor: inout UnsafePointer<UInt8>, in bytes: PaddedBytes) -> Int64? {
        scanInt64(&cursor, bytes.end, padded: bytes)
    }

    /// Scans a decimal integer `[+-]? digits` into an `Int64`, advancing `cursor`.
    /// - Parameter padded: as for ``scanDouble(_:_:padded:)``.
    /// - Returns: `nil` when there are no digits or the value does not fit in 64 bits.
    /// - Complexity: O(length of the number).
    @inline(__always)
    static func scanInt64(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, padded: PaddedBytes?) -> Int64? {
        var c = cursor
        let negative: Bool
        (c, negative) = skipSign(c, end, padded: padded)
        let digitsStart = c
        var magnitude: UInt64 = 0
        accumulateDigits(&c, end, into: &magnitude, padded: padded)
        let count = c - digitsStart
        guard count > 0, count <= 19 else { return nil }  // 19 digits fit in UInt64 (< 1.9e19)
        cursor = c
        return signedInt64(magnitude, negative: negative)
    }

    /// Scans a time in decimal seconds (`12.345678`) into integer nanoseconds, exactly, from the
    /// digits: the integer part times 10^9 plus the first nine fractional digits, rounded half away
    /// from zero on the tenth. Inputs with an exponent (`1.5e-3`) go through `Double` and are rounded
    /// to the nearest nanosecond. Reads nothing at or past `end`.
    /// - Returns: `nil` when there is no number, or the time does not fit in `Int64` nanoseconds.
    /// - Complexity: O(length of the number).
    @inline(__always)
    static func scanSecondsAsNanoseconds(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int64? {
        scanScaledDecimal(&cursor, end, fractionDigits: 9)
    }

    /// Scans a decimal number into an integer count of 10^-`fractionDigits` units, exactly from
    /// the digits (the integer part times 10^k plus the first k fractional digits, rounded half
    /// away from zero on the next one; an exponent goes through `Double`): seconds into
    /// nanoseconds with k = 9, milliseconds with k = 6, microseconds with 3, nanoseconds with 0.
    /// Reads nothing at or past `end`.
    /// - Precondition: `0 <= fractionDigits <= 9`.
    /// - Returns: `nil` when there is no number, or the result does not fit in `Int64`.
    @inline(__always)
    static func scanScaledDecimal(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, fractionDigits k: Int) -> Int64? {
        let start = cursor
        var c = cursor
        var negative = false
        if c < end {
            if c.pointee == UInt8(ascii: "-") { negative = true; c += 1 } else if c.pointee == UInt8(ascii: "+") { c += 1 }
        }
        var whole: UInt64 = 0
        let integerStart = c
        while c < end {
            let d = c.pointee &- 48
            if d > 9 { break }
            whole = whole &* 10 &+ UInt64(d)
            c += 1
        }
        let integerDigits = c - integerStart
        var fraction: Int64 = 0
        var fractionDigits = 0
        var roundUp = false
        if c < end && c.pointee == UInt8(ascii: ".") {
            c += 1
            while c < end {
                let d = c.pointee &- 48
                if d > 9 { break }
                if fractionDigits < k {
                    fraction = fraction &* 10 &+ Int64(d)
                } else if fractionDigits == k {
                    roundUp = d >= 5
                }
                fractionDigits += 1
                c += 1
            }
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        let unit = integerPowerOfTen(k)
        if c < end && (c.pointee | 0x20) == UInt8(ascii: "e") {
            var d = start
            guard let value = scanDouble(&d, end) else { return nil }
            let scaled = (value * Double(unit)).rounded()
            guard scaled.isFinite, abs(scaled) < 9.2e18 else { return nil }
            cursor = d
            return Int64(scaled)
        }
        guard integerDigits <= 19 - k, whole <= UInt64(Int64.max / unit) else { return nil }
        var scale = fractionDigits
        while scale < k { fraction &*= 10; scale += 1 }
        if roundUp { fraction += 1 }
        let (total, overflow) = (Int64(whole) * unit).addingReportingOverflow(fraction)
        guard !overflow else { return nil }
        cursor = c
        return negative ? -total : total
    }

    /// 10^k for 0 <= k <= 9 (the units of ``scanScaledDecimal(_:_:fractionDigits:)``); computed, so
    /// that a constant `k` folds (a stored table read in the row loop costs a `swift_once` per access).
    @inline(__always)
    static func integerPowerOfTen(_ k: Int) -> Int64 {
        var p: Int64 = 1
        for _ in 0..<k { p &*= 10 }
        return p
    }

    // MARK: Whole-field forms

    /// Parses `count` bytes at `p` that must form exactly one number (see ``scanDouble(_:_:)``).
    static func parseDouble(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        var c = p
        guard let v = scanDouble(&c, p + count), c == p + count else { return nil }
        return v
    }

    /// Parses `count` bytes at `p` that must form exactly one integer (see ``scanInt64(_:_:)``).
    static func parseInt64(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int64? {
        var c = p
        guard let v = scanInt64(&c, p + count), c == p + count else { return nil }
        return v
    }

    /// Parses `count` bytes at `p` that must form exactly one time in seconds (see ``scanSecondsAsNanoseconds(_:_:)``).
    static func parseSecondsAsNanoseconds(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int64? {
        var c = p
        guard let v = scanSecondsAsNanoseconds(&c, p + count), c == p + count else { return nil }
        return v
    }

    /// Parses `count` bytes at `p` that must form exactly one number, as a count of
    /// 10^-`fractionDigits` units (see ``scanScaledDecimal(_:_:fractionDigits:)``).
    static func parseScaledDecimal(_ p: UnsafePointer<UInt8>, _ count: Int, fractionDigits: Int) -> Int64? {
        var c = p
        guard let v = scanScaledDecimal(&c, p + count, fractionDigits: fractionDigits), c == p + count else { return nil }
        return v
    }
}
