/// Byte-level parsers for the numeric fields of a CSV recording.
///
/// They read ASCII bytes directly (no `String`, no locale) and accept exactly one grammar:
/// `[+-]? digits [. digits]? ([eE] [+-]? digits)?` (at least one digit before or after the point).
/// Anything else, including `nan`, `inf`, spaces and hexadecimal, is rejected.
/// The `scan` functions parse from a cursor and stop at the first byte that cannot continue the
/// number (the caller checks that it is a field separator); the `parse` functions require the
/// whole buffer to be one number.
enum CSVNumberParser {
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
    /// - Returns: the value, or `nil` when no number in the grammar starts at `cursor`
    ///   (the cursor is then unspecified).
    /// - Complexity: O(length of the number).
    @inline(__always)
    /// - Parameter padded: the caller guarantees that the byte at `end` is not a digit and that
    ///   8 bytes from any position up to `end` are readable (the line buffer's slack), so digit
    ///   runs are read 8 bytes at a time without a bounds check or data-dependent loop.
    static func scanDouble(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, padded: Bool = false) -> Double? {
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

    /// The reader's hot path for one value field: same results as ``scanDouble(_:_:padded:)`` with
    /// `padded: true`, specialised for the shape writers produce (`[+-]digits[.digits]`, at most
    /// 7 integer digits, at most 19 significant digits, the field ending within 24 bytes).
    ///
    /// The end of the field is found from `nonDigits`, the classes of the bytes from `cursor` on
    /// (bit i set when byte `cursor + i` is not an ASCII digit, valid for i < 24 at least), which
    /// the reader takes from its block's precomputed bitmap (``RecordingByteBlock/NonDigitBitmap``):
    /// `tzcnt` gives the point and the separator, so the next field's start depends on one load and
    /// a few ALU operations, not on a loop over the digits. The digits are converted 8 at a time
    /// (SWAR): the integer part, one fraction word, a second only for 9+ fraction digits and a third
    /// for 17+; the mantissa is converted with one correctly rounded operation (see
    /// ``scanDouble(_:_:padded:)``). Any other shape (exponent, longer numbers, no digits, a byte
    /// after the number that is not `,`, `\n` or `\r`) is handed to ``scanDouble(_:_:padded:)``.
    ///
    /// Requires that 32 bytes from any position up to `end` are readable (the block's slack).
    /// - Complexity: O(1) for the fast shape; O(length of the number) otherwise.
    @inline(__always)
    static func scanDoubleField(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, nonDigits: UInt64) -> Double? {
        let c = cursor
        let (w0, s, mask) = fieldStart(c, nonDigits)
        let first = UInt8(truncatingIfNeeded: w0)
        let d = mask.trailingZeroBitCount          // the point, or the end of an integer field
        let isPoint = d < 8 && UInt8(truncatingIfNeeded: w0 >> UInt64(8 * d)) == UInt8(ascii: ".")
        let afterPoint = mask & ~((2 &<< UInt64(d)) &- 1)  // (only used when d < 8)
        let e = isPoint ? afterPoint.trailingZeroBitCount : d
        let integerDigits = d - s
        let fractionDigits = isPoint ? e - d - 1 : 0
        let terminator = c[min(e, 24)]
        guard d < 8, e < 24, integerDigits + fractionDigits > 0,
              terminator == UInt8(ascii: ",") || terminator == 0x0A || terminator == 0x0D else {
            return scanDoubleOutlined(&cursor, end)
        }
        let integer: UInt64
        let digits = w0 >> UInt64(8 * s)
        if integerDigits <= 2 {  // the usual case: one or two digits, without a SWAR conversion
            let a = (digits & 0xFF) &- 0x30
            let b = ((digits >> 8) & 0xFF) &- 0x30
            integer = integerDigits == 2 ? a &* 10 &+ b : (integerDigits == 1 ? a : 0)
        } else {
            integer = digitValue(digits, count: integerDigits)
        }
        let f = c + d + 1
        var fraction = digitValue(load64(f), count: min(fractionDigits, 8))
        if fractionDigits > 8 {  // 9+ fraction digits: the second word
            let k1 = min(fractionDigits - 8, 8)
            fraction = fraction &* pow10Int19[k1] &+ digitValue(load64(f + 8), count: k1)
            if fractionDigits > 16 {  // 17+ fraction digits: the third word
                let k2 = fractionDigits - 16
                fraction = fraction &* pow10Int19[k2] &+ digitValue(load64(f + 16), count: k2)
            }
        }
        let significant = (integer == 0 ? 0 : integerDigits) + fractionDigits
        guard significant <= 19 else { return scanDoubleOutlined(&cursor, end) }
        let mantissa = integer &* pow10Int19[fractionDigits] &+ fraction
        cursor = c + e
        // The sign is or-ed into the result's sign bit: a branch on it would be mispredicted
        // about every other field in real data.
        let signBit = (UInt64(s) & UInt64(truncatingIfNeeded: first >> 2)) << 63  // '-' is 0x2D, '+' is 0x2B
        if mantissa <= (1 << 53) {
            let v = Double(Int64(bitPattern: mantissa)) / powersOfTen[fractionDigits]
            return Double(bitPattern: v.bitPattern | signBit)
        }
        // Here fractionDigits >= 1: without a fraction the mantissa is the integer part, at most
        // 7 digits (d < 8), so below 2^53 and handled above.
        return Double(bitPattern: eiselLemire(mantissa, negativeExponent: fractionDigits).bitPattern | signBit)
    }

    /// The double nearest to `m × 10^-k` (ties to even) for `m > 0` and `1 <= k <= 19`, by the
    /// Eisel–Lemire algorithm (D. Lemire, "Number Parsing at a Gigabyte per Second", 2021): `m` is
    /// normalised and multiplied by a 128-bit approximation of `5^-k` (one or two 64×64-bit
    /// products), which gives the 53-bit significand and its rounding; for these exponents the
    /// approximation is always sufficient (Mushtak & Lemire, "Fast Number Parsing Without
    /// Fallback", 2023) and exact ties, possible only for `k <= 4`, are detected.
    /// Multiplications only: no division, no x87. Inlined into ``scanDoubleField(_:_:nonDigits:)`` (measured:
    /// faster than a call there).
    /// - Complexity: O(1).
    @inline(__always)
    static func eiselLemire(_ m: UInt64, negativeExponent k: Int) -> Double {
        let lz = m.leadingZeroBitCount
        let w = m << UInt64(lz)
        let (high5, low5) = powersOfFiveInverse128[k]
        var (hi, lo) = w.multipliedFullWidth(by: high5)
        if hi & 0x1FF == 0x1FF {  // the low bits may be off: refine with the next 64 bits of 5^-k
            let (h2, _) = w.multipliedFullWidth(by: low5)
            let (sum, carry) = lo.addingReportingOverflow(h2)
            lo = sum
            if carry { hi &+= 1 }
        }
        let upper = Int(hi >> 63)
        let shift = UInt64(upper + 64 - 52 - 3)
        var significand = hi >> shift
        var exponent = ((-k * (152_170 + 65_536)) >> 16) + 63 + upper - lz + 1023
        if lo <= 1 && k <= 4 && significand & 3 == 1 && significand << shift == hi {
            significand &= ~1  // exactly halfway: round to even
        }
        significand += significand & 1
        significand >>= 1
        if significand >= (2 << 52) {
            significand = 1 << 52
            exponent += 1
        }
        significand &= ~(1 << 52)
        return Double(bitPattern: UInt64(exponent) << 52 | significand)
    }

    /// `5^-k` for k = 0...19 as 128-bit values `⌊2^(127+⌈log2 5^k⌉) / 5^k⌋ + 1` (high, low words),
    /// as in the Eisel–Lemire / fast_float tables (entry 0 unused).
    static let powersOfFiveInverse128: [(UInt64, UInt64)] = [
        (0, 0),
        (0xcccc_cccc_cccc_cccc, 0xcccc_cccc_cccc_cccd), (0xa3d7_0a3d_70a3_d70a, 0x3d70_a3d7_0a3d_70a4),
        (0x8312_6e97_8d4f_df3b, 0x645a_1cac_0831_26ea), (0xd1b7_1758_e219_652b, 0xd3c3_6113_404e_a4a9),
        (0xa7c5_ac47_1b47_8423, 0x0fcf_80dc_3372_1d54), (0x8637_bd05_af6c_69b5, 0xa63f_9a49_c2c1_b110),
        (0xd6bf_94d5_e57a_42bc, 0x3d32_9076_0469_1b4d), (0xabcc_7711_8461_cefc, 0xfdc2_0d2b_36ba_7c3e),
        (0x8970_5f41_36b4_a597, 0x3168_0a88_f895_3031), (0xdbe6_fece_bded_d5be, 0xb573_440e_5a88_4d1c),
        (0xafeb_ff0b_cb24_aafe, 0xf78f_69a5_1539_d749), (0x8cbc_cc09_6f50_88cb, 0xf93f_87b7_442e_45d4),
        (0xe12e_1342_4bb4_0e13, 0x2865_a5f2_06b0_6fba), (0xb424_dc35_095c_d80f, 0x5384_84c1_9ef3_8c95),
        (0x901d_7cf7_3ab0_acd9, 0x0f9d_3701_4bf6_0a11), (0xe695_94be_c44d_e15b, 0x4c2e_be68_7989_a9b4),
        (0xb877_aa32_36a4_b449, 0x09be_feb9_fad4_87c3), (0x9392_ee8e_921d_5d07, 0x3aff_322e_6243_9fd0),
        (0xec1e_4a7d_b695_61a5, 0x2b31_e9e3_d06c_32e6),
    ]

    /// Scans a timestamp field `[+-]digits` (at most 19 digits, ending within 24 bytes) into an
    /// `Int64` like ``scanInt64(_:_:padded:)``, finding its end from `nonDigits` (see
    /// ``scanDoubleField(_:_:nonDigits:)``); other shapes go to ``scanInt64(_:_:padded:)``.
    /// - Returns: `nil` when there are no digits or the value does not fit in 64 bits.
    @inline(__always)
    static func scanInt64Field(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, nonDigits: UInt64) -> Int64? {
        let c = cursor
        let (w0, s, mask) = fieldStart(c, nonDigits)
        let negative = UInt8(truncatingIfNeeded: w0) == UInt8(ascii: "-")
        let e = mask.trailingZeroBitCount
        let n = e - s
        guard e < 24, n > 0, n <= 19 else { return scanInt64Outlined(&cursor, end) }
        let p = c + s
        let k1 = min(max(n - 8, 0), 8)
        var magnitude = digitValue(load64(p), count: min(n, 8)) &* pow10Int19[k1] &+ digitValue(load64(p + 8), count: k1)
        if n > 16 {
            let k2 = n - 16
            magnitude = magnitude &* pow10Int19[k2] &+ digitValue(load64(p + 16), count: k2)
        }
        cursor = c + e
        return signedInt64(magnitude, negative: negative)
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

    /// ``scanDouble(_:_:padded:)`` (padded), kept out of line: the fast scanners' rare fallback.
    @inline(never)
    static func scanDoubleOutlined(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Double? {
        scanDouble(&cursor, end, padded: true)
    }

    /// ``scanInt64(_:_:padded:)`` (padded), kept out of line: the fast scanner's rare fallback.
    @inline(never)
    static func scanInt64Outlined(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int64? {
        scanInt64(&cursor, end, padded: true)
    }

    /// The start of a field at `c`, for the field scanners: its first 8 bytes, the length of a
    /// leading `+` or `-` (0 or 1), and `nonDigits` (bit i set when byte i is not a digit) with the
    /// sign's bit cleared.
    @inline(__always)
    static func fieldStart(_ c: UnsafePointer<UInt8>, _ nonDigits: UInt64) -> (first8: UInt64, signLength: Int, nonDigits: UInt64) {
        let w0 = load64(c)
        let first = UInt8(truncatingIfNeeded: w0)
        let s = first == UInt8(ascii: "-") || first == UInt8(ascii: "+") ? 1 : 0
        return (w0, s, nonDigits & ~UInt64(s))
    }

    /// The 8 bytes at `p` as a little-endian word (unaligned load).
    @inline(__always)
    static func load64(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// The value of the first `count` (0...8) bytes of `word`, which must be ASCII digits.
    @inline(__always)
    static func digitValue(_ word: UInt64, count: Int) -> UInt64 {
        eightDigits((word &- 0x3030_3030_3030_3030) << UInt64(64 - 8 * count))
    }

    /// 10^0 ... 10^19.
    static let pow10Int19: [UInt64] = [
        1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
        10_000_000_000_000_000_000,
    ]

    /// Appends the run of ASCII digits at `cursor` to `value` (`value = value * 10^k + digits`,
    /// wrapping on overflow: callers count digits), eight bytes at a time (SWAR: one unaligned
    /// 64-bit load, a per-byte digit test, and three multiplications to convert up to 8 digits).
    ///
    /// With `padded` (see ``scanDouble(_:_:padded:)``) every step loads 8 bytes, converts the
    /// leading digits among them and stops when fewer than 8 were digits: no branch per digit.
    /// Otherwise it loads words only while 8 bytes remain before `end`, then goes byte by byte.
    @inline(__always)
    static func accumulateDigits(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, into value: inout UInt64, padded: Bool) {
        var c = cursor
        var v = value
        if padded {
            while true {
                let word = UInt64(littleEndian: UnsafeRawPointer(c).loadUnaligned(as: UInt64.self))
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
    static func skipSign(_ c: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, padded: Bool) -> (UnsafePointer<UInt8>, Bool) {
        guard padded || c < end else { return (c, false) }
        let b = c.pointee
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

    /// Correctly rounded conversion of bytes already validated by ``scanDouble(_:_:)``.
    @inline(never)
    static func slowParse(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        Double(String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self))
    }

    /// Scans a decimal integer `[+-]? digits` into an `Int64`, advancing `cursor`.
    /// - Returns: `nil` when there are no digits or the value does not fit in 64 bits.
    /// - Complexity: O(length of the number).
    @inline(__always)
    /// - Parameter padded: as for ``scanDouble(_:_:padded:)``.
    static func scanInt64(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, padded: Bool = false) -> Int64? {
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
    /// to the nearest nanosecond.
    /// - Returns: `nil` when there is no number, or the time does not fit in `Int64` nanoseconds.
    /// - Complexity: O(length of the number).
    @inline(__always)
    static func scanSecondsAsNanoseconds(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int64? {
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
                if fractionDigits < 9 {
                    fraction = fraction &* 10 &+ Int64(d)
                } else if fractionDigits == 9 {
                    roundUp = d >= 5
                }
                fractionDigits += 1
                c += 1
            }
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        if c < end && (c.pointee | 0x20) == UInt8(ascii: "e") {
            var d = start
            guard let seconds = scanDouble(&d, end) else { return nil }
            let ns = (seconds * 1e9).rounded()
            guard ns.isFinite, abs(ns) < 9.2e18 else { return nil }
            cursor = d
            return Int64(ns)
        }
        guard integerDigits <= 10, whole <= UInt64(Int64.max / 1_000_000_000) else { return nil }
        var scale = fractionDigits
        while scale < 9 { fraction &*= 10; scale += 1 }
        if roundUp { fraction += 1 }
        let (total, overflow) = (Int64(whole) * 1_000_000_000).addingReportingOverflow(fraction)
        guard !overflow else { return nil }
        cursor = c
        return negative ? -total : total
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
}
