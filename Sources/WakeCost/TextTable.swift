/// Plain-text layout for terminal reports: aligned tables and paragraphs wrapped to a width.
public enum TextTable {
    /// The widest line reports print (columns).
    public static let width = 100

    /// Renders `header` rows (each as wide as the rows) and `rows` with two spaces between
    /// columns: cells right-aligned except the columns in `leftAligned`; trailing spaces trimmed.
    /// A rule of dashes follows the header.
    public static func render(header: [[String]], rows: [[String]], leftAligned: Set<Int> = []) -> String {
        let all = header + rows
        let columns = all.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for r in all { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        func line(_ r: [String]) -> String {
            var s = ""
            for i in 0..<columns {
                let c = i < r.count ? r[i] : ""
                let pad = String(repeating: " ", count: widths[i] - c.count)
                if i > 0 { s += "  " }
                s += leftAligned.contains(i) ? c + pad : pad + c
            }
            while s.hasSuffix(" ") { s.removeLast() }
            return s
        }
        var out = header.map { line($0) + "\n" }.joined()
        if !header.isEmpty { out += String(repeating: "-", count: widths.reduce(0, +) + 2 * max(0, columns - 1)) + "\n" }
        for r in rows { out += line(r) + "\n" }
        return out
    }

    /// `text` wrapped at spaces to lines of at most ``width`` columns (a longer word stands on
    /// its own line), each line prefixed by `indent`, continuation lines by two more spaces.
    public static func wrap(_ text: String, indent: String = "") -> String {
        var out = "", line = indent
        let continuation = indent + "  "
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let lineIsEmpty = line == indent || line == continuation
            if !lineIsEmpty && line.count + 1 + word.count > width {
                out += line + "\n"
                line = continuation
            }
            line += (line == indent || line == continuation ? "" : " ") + word
        }
        return out + line + "\n"
    }
}
