/// Parsers for IIO sysfs attribute values. Libiio-free.
public enum AttributeText {
    /// A number such as `0.009806650`, `104`, `-12`. Nil for empty/non-finite text.
    public static func double(_ text: String?) -> Double? {
        guard let t = text?.trimmingWhitespace(), !t.isEmpty, let v = Double(t), v.isFinite else { return nil }
        return v
    }

    /// An integer; accepts `12` and `12.0`.
    public static func int(_ text: String?) -> Int? {
        guard let t = text?.trimmingWhitespace(), !t.isEmpty else { return nil }
        if let v = Int(t) { return v }
        if let d = Double(t), d.isFinite, d == d.rounded(), abs(d) < 1e15 { return Int(d) }
        return nil
    }

    /// A boolean: `1`/`0`, `y`/`n`, `true`/`false`.
    public static func bool(_ text: String?) -> Bool? {
        switch text?.trimmingWhitespace().lowercased() {
        case "1", "y", "yes", "true", "on": true
        case "0", "n", "no", "false", "off": false
        default: nil
        }
    }

    /// An `*_available` list: space-separated values (`12.5 26 52 104`), or the IIO range form
    /// `[min step max]` expanded when it has at most 1000 values. Sorted, unique, finite, > 0.
    public static func frequencies(_ text: String?) -> [Double] {
        guard let t = text?.trimmingWhitespace(), !t.isEmpty else { return [] }
        if t.hasPrefix("["), t.hasSuffix("]") {
            let parts = t.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
            guard parts.count == 3, parts[1] > 0, parts[2] >= parts[0] else { return [] }
            let n = Int(((parts[2] - parts[0]) / parts[1]).rounded(.down))
            guard n <= 1000 else { return [parts[0], parts[2]].filter { $0 > 0 } }
            return (0...n).map { parts[0] + Double($0) * parts[1] }.filter { $0 > 0 }
        }
        let values = t.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Double($0) }.filter { $0.isFinite && $0 > 0 }
        return Array(Set(values)).sorted()
    }

    /// The `current_timestamp_clock` value, e.g. `monotonic`.
    public static func clock(_ text: String?) -> String? {
        guard let t = text?.trimmingWhitespace(), !t.isEmpty else { return nil }
        return t
    }
}
