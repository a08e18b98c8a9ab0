/// Text from outside (a field, a header line, an option) made safe to print in a message: quoted,
/// with every byte that is not printable escaped (`\x00`, `\x1b`, `\x7f`, invalid UTF-8 as one
/// `\xNN` per byte, C1 controls as `\u{85}`), `"` and `\` escaped, and cut after `limit` bytes.
/// Raw control characters from a file never reach a terminal or a log through a message.
public enum DiagnosticText {
    /// `"text"` with escapes (see the type), at most `limit` bytes of the input shown, then `...`.
    public static func quoted<C: Collection>(_ bytes: C, limit: Int = 40) -> String where C.Element == UInt8 {
        "\"" + escaped(bytes, limit: limit) + "\""
    }

    /// `"text"` with escapes (see the type).
    public static func quoted(_ text: String, limit: Int = 40) -> String {
        quoted(Array(text.utf8), limit: limit)
    }

    /// The escaped text without quotes.
    public static func escaped<C: Collection>(_ bytes: C, limit: Int = Int.max) -> String where C.Element == UInt8 {
        let all = Array(bytes)
        let shown = all.prefix(limit)
        var out = ""
        var i = shown.startIndex
        while i < shown.endIndex {
            let b = shown[i]
            if b < 0x80 {
                switch b {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(b))
                default: out += hex(b)
                }
                i += 1
                continue
            }
            // A multi-byte UTF-8 sequence: kept when valid and printable, else escaped byte by byte.
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            if length > 1, i + length <= shown.endIndex,
               let s = String(validating: shown[i..<(i + length)], as: UTF8.self),
               let scalar = s.unicodeScalars.first, s.unicodeScalars.count == 1 {
                if scalar.value < 0xA0 {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
                i += length
            } else {
                out += hex(b)
                i += 1
            }
        }
        if all.count > limit { out += "..." }
        return out
    }

    /// `text` with only its non-printable characters escaped (controls as `\x1b`, C1 controls
    /// as `\u{85}`), line breaks kept, quotes and backslashes left as they are: the last step
    /// before a message is printed, so that no control character from an input reaches the terminal.
    public static func sanitized(_ text: String) -> String {
        guard !text.utf8.contains(where: { $0 < 0x20 && $0 != 0x0A || $0 == 0x7F || $0 >= 0x80 }) else {
            return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                var out = ""
                for scalar in line.unicodeScalars {
                    switch scalar.value {
                    case 0x00..<0x20, 0x7F: out += hex(UInt8(scalar.value))
                    case 0x80..<0xA0: out += "\\u{\(String(scalar.value, radix: 16))}"
                    default: out.unicodeScalars.append(scalar)
                    }
                }
                return out
            }.joined(separator: "\n")
        }
        return text
    }

    /// Whether every byte is printable (valid UTF-8 without C0 controls, DEL or C1 controls).
    public static func isPrintable<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        firstUnprintableOffset(bytes) == nil
    }

    /// The offset of the first byte that is not printable text (a C0 control, DEL, the start of
    /// a C1 control or of an invalid UTF-8 sequence), or nil when there is none.
    public static func firstUnprintableOffset<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8 {
        let a = Array(bytes)
        var i = 0
        while i < a.count {
            let b = a[i]
            if b < 0x80 {
                if b < 0x20 || b == 0x7F { return i }
                i += 1
                continue
            }
            let length = sequenceLength(a, i)
            guard length > 0 else { return i }
            i += length
        }
        return nil
    }

    /// The length of the valid, printable (U+00A0 or above) UTF-8 sequence at `a[i]`, or 0.
    private static func sequenceLength(_ a: [UInt8], _ i: Int) -> Int {
        let b = a[i]
        let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0
        guard length > 0, i + length <= a.count,
              let s = String(validating: a[i..<(i + length)], as: UTF8.self),
              let scalar = s.unicodeScalars.first, s.unicodeScalars.count == 1, scalar.value >= 0xA0 else { return 0 }
        return length
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "\\x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 15)])
    }
}
