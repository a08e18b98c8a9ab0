import MotionCore
import Foundation

/// Number formatting shared by the reports: fixed decimals for tables, shortest round-trip
/// (at 10 significant digits) for JSON and CSV.
enum NumberFormat {
    /// `v` with `decimals` digits after the point.
    static func fixed(_ v: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", v)
    }

    /// `v` with at most 10 significant digits, no exponent for ordinary magnitudes; integers
    /// without a fractional part. Non-finite values become `null` (never reached by the model).
    static func json(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        var s = String(format: "%.10g", v)
        if s.contains("e") { return s }
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }

    /// A compact human figure: thousands as `k`, millions as `M`.
    static func compact(_ v: Double) -> String {
        let a = abs(v)
        if a >= 1e6 { return fixed(v / 1e6, a >= 1e7 ? 1 : 2) + "M" }
        if a >= 1e4 { return fixed(v / 1e3, a >= 1e5 ? 0 : 1) + "k" }
        if a == a.rounded() { return String(Int64(v)) }
        return fixed(v, 1)
    }

    /// A latency or other small quantity in seconds with enough digits.
    static func seconds(_ v: Double) -> String {
        if v == 0 { return "0" }
        if v >= 100 { return fixed(v, 0) }
        if v >= 1 { return fixed(v, 2) }
        if v >= 0.01 { return fixed(v, 3) }
        return String(format: "%.2g", v)
    }

    /// `v` with 6 significant digits (`1.00002`): for comparisons whose sides are close.
    static func precise(_ v: Double) -> String { String(format: "%.6g", v) }

    /// A JSON string literal (see ``JSONValue/quoted(_:)``).
    static func string(_ s: String) -> String { JSONValue.quoted(s) }

    /// HTML/XML text escaping.
    static func xml(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
