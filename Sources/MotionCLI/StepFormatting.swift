import MotionCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Number and JSON-string formatting for the step commands (no Foundation): wraps `snprintf`.
enum StepFormatting {
    /// `x` with `digits` decimals (`%.*f`); "-0.0" becomes "0.0".
    static func fixed(_ x: Double, _ digits: Int) -> String {
        var buf = [CChar](repeating: 0, count: 64)
        _ = withVaList([Int32(digits), x]) { vsnprintf(&buf, 64, "%.*f", $0) }
        let s = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return s.hasPrefix("-") && s.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) ? String(s.dropFirst()) : s
    }

    /// A JSON number with up to 6 significant digits (`%.6g`), or `null` when not finite.
    static func jsonNumber(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        var buf = [CChar](repeating: 0, count: 64)
        _ = withVaList([x]) { vsnprintf(&buf, 64, "%.6g", $0) }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A JSON string literal (see ``JSONValue/quoted(_:)``).
    static func jsonString(_ s: String) -> String { JSONValue.quoted(s) }
}
