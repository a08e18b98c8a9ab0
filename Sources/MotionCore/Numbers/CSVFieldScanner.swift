/// The recording reader's fast path for one numeric field: same results as the general
/// ``DecimalScanner`` (padded), specialised for the shapes writers produce, with the end of the
/// field found from the block's precomputed non-digit bitmap instead of a loop over its bytes.
/// Any other shape is handed to ``DecimalScanner``. Every byte it reads goes through the block's
/// ``PaddedBytes`` view.
enum CSVFieldScanner {
    /// One value field (`[+-]digits[.digits]`, at most 7 integer digits, at most 19 significant
    /// digits, the field ending within 24 bytes).
    ///
    /// The end of the field is found from `nonDigits`, the classes of the bytes from `cursor` on
    /// (bit i set when byte `cursor + i` is not an ASCII digit, valid for i < 24 at least), which
    /// the reader takes from its block's precomputed bitmap (``RecordingByteBlock/NonDigitBitmap``):
    /// `tzcnt` gives the point and the separator, so the next field's start depends on one load and
    /// a few ALU operations, not on a loop over the digits. The digits are converted 8 at a time
    /// (SWAR): the integer part, one fraction word, a second only for 9+ fraction digits and a third
    /// for 17+; the mantissa is converted with one correctly rounded operation (see
    /// ``DecimalScanner/scanDouble(_:_:padded:)``). Any other shape (exponent, longer numbers, no
    /// digits, a byte after the number that is not `,`, `\n` or `\r`) is handed to
    /// ``DecimalScanner/scanDouble(_:in:)``.
    ///
    /// Reads at most 32 bytes from `cursor` (``PaddedBytes/padding``); `cursor` is within `bytes`.
    /// - Complexity: O(1) for the fast shape; O(length of the number) otherwise.
    @inline(__always)
    static func scanDouble(_ cursor: inout UnsafePointer<UInt8>, in bytes: PaddedBytes, nonDigits: UInt64) -> Double? {
        let c = cursor
        let (w0, s, mask) = fieldStart(c, bytes, nonDigits)
        let first = UInt8(truncatingIfNeeded: w0)
        let d = mask.trailingZeroBitCount          // the point, or the end of an integer field
        let isPoint = d < 8 && UInt8(truncatingIfNeeded: w0 >> UInt64(8 * d)) == UInt8(ascii: ".")
        let afterPoint = mask & ~((2 &<< UInt64(d)) &- 1)  // (only used when d < 8)
        let e = isPoint ? afterPoint.trailingZeroBitCount : d
        let integerDigits = d - s
        let fractionDigits = isPoint ? e - d - 1 : 0
        let terminator = bytes[c + min(e, 24)]
        guard d < 8, e < 24, integerDigits + fractionDigits > 0,
              terminator == UInt8(ascii: ",") || terminator == 0x0A || terminator == 0x0D else {
            return scanDoubleOutlined(&cursor, bytes)
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
        var fraction = digitValue(bytes.load64(f), count: min(fractionDigits, 8))
        if fractionDigits > 8 {  // 9+ fraction digits: the second word
            let k1 = min(fractionDigits - 8, 8)
            fraction = fraction &* pow10Int19[k1] &+ digitValue(bytes.load64(f + 8), count: k1)
            if fractionDigits > 16 {  // 17+ fraction digits: the third word
                let k2 = fractionDigits - 16
                fraction = fraction &* pow10Int19[k2] &+ digitValue(bytes.load64(f + 16), count: k2)
            }
        }
        let significant = (integer == 0 ? 0 : integerDigits) + fractionDigits
        guard significant <= 19 else { return scanDoubleOutlined(&cursor, bytes) }
        let mantissa = integer &* pow10Int19[fractionDigits] &+ fraction
        cursor = c + e
        // The sign is or-ed into the result's sign bit: a branch on it would be mispredicted
        // about every other field in real data.
        let signBit = (UInt64(s) & UInt64(truncatingIfNeeded: first >> 2)) << 63  // '-' is 0x2D, '+' is 0x2B
        if mantissa <= (1 << 53) {
            let v = Double(Int64(bitPattern: mantissa)) / DecimalScanner.powersOfTen[fractionDigits]
            return Double(bitPattern: v.bitPattern | signBit)
        }
        // Here fractionDigits >= 1: without a fraction the mantissa is the integer part, at most
        // 7 digits (d < 8), so below 2^53 and handled above.
        return Double(bitPattern: eiselLemire(mantissa, negativeExponent: fractionDigits).bitPattern | signBit)
    }

    /// One timestamp field `[+-]digits` (at most 19 digits, ending within 24 bytes) as an `Int64`,
    /// its end found from `nonDigits` (see ``scanDouble(_:in:nonDigits:)``); other shapes go to
    /// ``DecimalScanner/scanInt64(_:in:)``.
    /// - Returns: `nil` when there are no digits or the value does not fit in 64 bits.
    @inline(__always)
    static func scanInt64(_ cursor: inout UnsafePointer<UInt8>, in bytes: PaddedBytes, nonDigits: UInt64) -> Int64? {
        let c = cursor
        let (w0, s, mask) = fieldStart(c, bytes, nonDigits)
        let negative = UInt8(truncatingIfNeeded: w0) == UInt8(ascii: "-")
        let e = mask.trailingZeroBitCount
        let n = e - s
        guard e < 24, n > 0, n <= 19 else { return scanInt64Outlined(&cursor, bytes) }
        let p = c + s
        let k1 = min(max(n - 8, 0), 8)
        var magnitude = digitValue(bytes.load64(p), count: min(n, 8)) &* pow10Int19[k1] &+ digitValue(bytes.load64(p + 8), count: k1)
        if n > 16 {
            let k2 = n - 16
            magnitude = magnitude &* pow10Int19[k2] &+ digitValue(bytes.load64(p + 16), count: k2)
        }
        cursor = c + e
        return DecimalScanner.signedInt64(magnitude, negative: negative)
    }

    /// The double nearest to `m × 10^-k` (ties to even) for `m > 0` and `1 <= k <= 19`, by the
    /// Eisel–Lemire algorithm (D. Lemire, "Number Parsing at a Gigabyte per Second", 2021): `m` is
    /// normalised and multiplied by a 128-bit approximation of `5^-k` (one or two 64×64-bit
    /// products), which gives the 53-bit significand and its rounding; for these exponents the
    /// approximation is always sufficient (Mushtak & Lemire, "Fast Number Parsing Without
    /// Fallback", 2023) and exact ties, possible only for `k <= 4`, are detected.
    /// Multiplications only: no division, no x87. Inlined into ``scanDouble(_:in:nonDigits:)``
    /// (measured: faster than a call there).
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

    /// ``DecimalScanner/scanDouble(_:in:)``, kept out of line: the fast scanner's rare fallback.
    @inline(never)
    static func scanDoubleOutlined(_ cursor: inout UnsafePointer<UInt8>, _ bytes: PaddedBytes) -> Double? {
        DecimalScanner.scanDouble(&cursor, in: bytes)
    }

    /// ``DecimalScanner/scanInt64(_:in:)``, kept out of line: the fast scanner's rare fallback.
    @inline(never)
    static func scanInt64Outlined(_ cursor: inout UnsafePointer<UInt8>, _ bytes: PaddedBytes) -> Int64? {
        DecimalScanner.scanInt64(&cursor, in: bytes)
    }

    /// The start of a field at `c`: its first 8 bytes, the length of a leading `+` or `-` (0 or 1),
    /// and `nonDigits` (bit i set when byte i is not a digit) with the sign's bit cleared.
    @inline(__always)
    static func fieldStart(_ c: UnsafePointer<UInt8>, _ bytes: PaddedBytes, _ nonDigits: UInt64) -> (first8: UInt64, signLength: Int, nonDigits: UInt64) {
        let w0 = bytes.load64(c)
        let first = UInt8(truncatingIfNeeded: w0)
        let s = first == UInt8(ascii: "-") || first == UInt8(ascii: "+") ? 1 : 0
        return (w0, s, nonDigits & ~UInt64(s))
    }

    /// The value of the first `count` (0...8) bytes of `word`, which must be ASCII digits.
    @inline(__always)
    static func digitValue(_ word: UInt64, count: Int) -> UInt64 {
        DecimalScanner.eightDigits((word &- 0x3030_3030_3030_3030) << UInt64(64 - 8 * count))
    }

    /// 10^0 ... 10^19.
    static let pow10Int19: [UInt64] = [
        1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
        10_000_000_000_000_000_000,
    ]
}
