/// A fixed offset of a device's local time from UTC (`-05:00`): what ActiGraph's `info.txt`
/// gives (`TimeZone: -05:00:00`) and what `--tz` says for a file whose times are device-local
/// without a zone (Axivity CWA, ActiLife's CSV export). UTC = local time − offset.
public struct UTCOffset: Sendable, Equatable, CustomStringConvertible {
    /// Seconds east of UTC (−05:00 is −18000).
    public var seconds: Int

    /// Offsets people's devices use: −14:00 ... +14:00.
    public static let range = -14 * 3600...14 * 3600

    /// UTC itself.
    public static let utc = UTCOffset(seconds: 0)

    /// An offset of `seconds` east of UTC (range-checked by the parsers, not here).
    public init(seconds: Int) { self.seconds = seconds }

    /// Parses `±HH:MM`, `±HH:MM:SS`, `±HHMM`, `±HH`, `HH:MM:SS` (info.txt writes positive offsets
    /// without a sign), `UTC`, `Z` or `+00:00`; nil for anything else or beyond ±14:00.
    public init?(parsing text: String) {
        let t = text.trimmingWhitespace()
        if t == "UTC" || t == "Z" || t == "GMT" { self.init(seconds: 0); return }
        var digits = Substring(t)
        var sign = 1
        if let first = digits.first, first == "+" || first == "-" || first == "\u{2212}" {
            sign = first == "+" ? 1 : -1
            digits = digits.dropFirst()
        }
        var parts = digits.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1, let p = parts.first, p.count == 4 { parts = [String(p.prefix(2)), String(p.suffix(2))] }
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }) else { return nil }
        let v = parts.compactMap { Int($0) }
        guard v.count == parts.count, v.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let s = sign * (v[0] * 3600 + (v.count > 1 ? v[1] * 60 : 0) + (v.count > 2 ? v[2] : 0))
        guard Self.range.contains(s) else { return nil }
        self.init(seconds: s)
    }

    /// `-05:00`, `+05:30`, `+00:00` (`:SS` only when not whole minutes).
    public var description: String {
        let a = abs(seconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var s = (seconds < 0 ? "-" : "+") + two(a / 3600) + ":" + two(a / 60 % 60)
        if a % 60 != 0 { s += ":" + two(a % 60) }
        return s
    }

    /// The UTC instant (ns since the Unix epoch) of a local wall time given as ns since the
    /// "local epoch" (1970-01-01T00:00 local).
    public func utc(fromLocal ns: Int64) -> Int64 { ns - Int64(seconds) * 1_000_000_000 }
}
