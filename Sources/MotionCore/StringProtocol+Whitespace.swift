extension StringProtocol {
    /// The text without leading and trailing spaces, tabs, carriage returns and newlines (sysfs
    /// attribute values, scan formats, fields of the text dialects).
    public func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\n" || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\n" || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
