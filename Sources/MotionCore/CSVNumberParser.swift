/// Byte-level parsers for the numeric fields of a CSV recording.
///
/// They read ASCII bytes directly (no `String`, no locale) and accept exactly one grammar:
/// `[+-]? digits [. digits]? ([eE] [+-]? digits)?` (at least one digit before or after the point).
/// Anything else, including `nan`, `inf`, spaces and hexadecimal, is rejected (`nil`).
/// Each function parses a whole field: every byte in `[0, count)` must belong to the number.
enum CSVNumberParser {
    /// Exact powers of ten representable as `Double` (10^0 ... 10^22).
    @usableFromInline
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses a decimal floating-point field.
    ///
    /// Up to 19 significant digits are composed into a `UInt64` mantissa. When the mantissa fits
    /// in 53 bits and the decimal exponent is within ±22, the result is one correctly rounded IEEE
    /// multiplication or division by an exact power of ten (Clinger's fast path), so it equals
    /// `strtod`'s. Longer or more extreme inputs fall back to the standard library's correctly
    /// rounded conversion (`Double(String)`, which wraps `strtod_l`). Overflow yields ±infinity,
    /// which callers reject.
    ///
    /// - Returns: the value, or `nil` when the bytes are not a number in the grammar above.
    /// - Complexity: O(`count`).
    @inline(__always)
    static func parseDouble(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        var i = 0
        var negative = false
        if count > 0 {
            if p[0] == UInt8(ascii: "-") { negative = true; i = 1 } else if p[0] == UInt8(ascii: "+") { i = 1 }
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exp10 = 0
        var sawDigit = false
        var truncated = false
        while i < count {
            let d = p[i] &- 48
            if d > 9 { break }
            sawDigit = true
            if mantissa != 0 || d != 0 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(d); digits += 1 } else { exp10 += 1; truncated = truncated || d != 0 }
            }
            i += 1
        }
        if i < count && p[i] == UInt8(ascii: ".") {
            i += 1
            while i < count {
                let d = p[i] &- 48
                if d > 9 { break }
                sawDigit = true
                if mantissa != 0 || d != 0 {
                    if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(d); digits += 1; exp10 -= 1 } else { truncated = truncated || d != 0 }
                } else {
                    exp10 -= 1
                }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < count && (p[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < count && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) {
                expNegative = p[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            var expDigits = 0
            while i < count {
                let d = p[i] &- 48
                if d > 9 { break }
                if e < 100_000 { e = e * 10 + Int(d) }
                expDigits += 1
                i += 1
            }
            guard expDigits > 0 else { return nil }
            exp10 += expNegative ? -e : e
        }
        guard i == count else { return nil }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        if !truncated && mantissa <= (1 << 53) && exp10 >= -22 && exp10 <= 22 {
            var v = Double(mantissa)
            if exp10 < 0 { v /= powersOfTen[-exp10] } else { v *= powersOfTen[exp10] }
            return negative ? -v : v
        }
        return slowParse(p, count)
    }

    /// Correctly rounded conversion of a field already validated by ``parseDouble(_:_:)``.
    @inline(never)
    static func slowParse(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        Double(String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self))
    }

    /// Parses a decimal integer field `[+-]? digits` into an `Int64`.
    /// - Returns: `nil` when the bytes are not an integer or it does not fit in 64 bits.
    /// - Complexity: O(`count`).
    @inline(__always)
    static func parseInt64(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int64? {
        var i = 0
        var negative = false
        if count > 0 {
            if p[0] == UInt8(ascii: "-") { negative = true; i = 1 } else if p[0] == UInt8(ascii: "+") { i = 1 }
        }
        guard i < count else { return nil }
        var magnitude: UInt64 = 0
        while i < count {
            let d = p[i] &- 48
            guard d <= 9 else { return nil }
            let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(d))
            guard !o1, !o2 else { return nil }
            magnitude = a
            i += 1
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// Parses a time in decimal seconds (`12.345678`) into integer nanoseconds, exactly, from the
    /// digits: the integer part times 10^9 plus the first nine fractional digits, rounded half away
    /// from zero on the tenth. Inputs with an exponent (`1.5e-3`) go through `Double` and are rounded
    /// to the nearest nanosecond.
    /// - Returns: `nil` when the bytes are not a number, or the time does not fit in `Int64` nanoseconds.
    /// - Complexity: O(`count`).
    @inline(__always)
    static func parseSecondsAsNanoseconds(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int64? {
        var i = 0
        var negative = false
        if count > 0 {
            if p[0] == UInt8(ascii: "-") { negative = true; i = 1 } else if p[0] == UInt8(ascii: "+") { i = 1 }
        }
        var whole: Int64 = 0
        var sawDigit = false
        var overflow = false
        while i < count {
            let d = p[i] &- 48
            if d > 9 { break }
            sawDigit = true
            let (m, o1) = whole.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(d))
            overflow = overflow || o1 || o2
            whole = a
            i += 1
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        var roundUp = false
        if i < count && p[i] == UInt8(ascii: ".") {
            i += 1
            while i < count {
                let d = p[i] &- 48
                if d > 9 { break }
                sawDigit = true
                if fractionDigits < 9 {
                    fraction = fraction * 10 + Int64(d)
                } else if fractionDigits == 9 {
                    roundUp = d >= 5
                }
                fractionDigits += 1
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < count {
            // An exponent: validate the whole field with the double grammar, then round.
            guard (p[i] | 0x20) == UInt8(ascii: "e"), let seconds = parseDouble(p, count) else { return nil }
            let ns = (seconds * 1e9).rounded()
            guard ns.isFinite, abs(ns) < 9.2e18 else { return nil }
            return Int64(ns)
        }
        guard !overflow else { return nil }
        var scale = fractionDigits
        while scale < 9 { fraction *= 10; scale += 1 }
        if roundUp { fraction += 1 }
        let (wholeNs, o1) = whole.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, o2) = wholeNs.addingReportingOverflow(fraction)
        guard !o1, !o2 else { return nil }
        return negative ? -total : total
    }
}
