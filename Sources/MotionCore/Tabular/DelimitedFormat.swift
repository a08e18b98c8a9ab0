/// How the fields of a text recording are separated and its numbers written, as the apps'
/// export dialogs offer: comma, tab or semicolon between fields (phyphox: "CSV (Tabulator,
/// decimal comma)" and the like), and a decimal comma where the separator is not a comma.
/// Fields may be quoted (`"Time (s)"`; `""` inside a quoted field is one `"`).
struct DelimitedFormat: Sendable, Equatable {
    /// The byte between fields: `,`, `\t` or `;`.
    var separator: UInt8
    /// Whether numbers may use `,` as the decimal mark (only when the separator is not `,`).
    var decimalComma: Bool

    static let comma = DelimitedFormat(separator: UInt8(ascii: ","), decimalComma: false)

    /// The separator of `headerLine`: of `,`, tab and `;`, the one that occurs most often outside
    /// quotes (a comma on a tie; a comma when none occurs). With a tab or semicolon, a decimal
    /// comma is accepted in numbers.
    static func detect(headerLine: [UInt8]) -> DelimitedFormat {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, 0x09: 0, UInt8(ascii: ";"): 0]
        var quoted = false
        for b in headerLine {
            if b == 0x22 { quoted.toggle() } else if !quoted, counts[b] != nil { counts[b]! += 1 }
        }
        let best = [UInt8(ascii: ","), 0x09, UInt8(ascii: ";")].max { counts[$0]! < counts[$1]! } ?? UInt8(ascii: ",")
        let separator = counts[best]! > counts[UInt8(ascii: ",")]! ? best : UInt8(ascii: ",")
        return DelimitedFormat(separator: separator, decimalComma: separator != UInt8(ascii: ","))
    }

    /// The name of the separator, for messages.
    var separatorName: String {
        switch separator {
        case 0x09: return "tab"
        case UInt8(ascii: ";"): return "semicolon"
        default: return "comma"
        }
    }

    /// Splits `line` into fields: appends each field's `(start, count)` to `fields` (quotes
    /// removed from a quoted field, and spaces before its opening quote; its `""` escapes are
    /// left for ``text(_:_:)``).
    /// - Complexity: O(line length).
    func split(_ line: UnsafeBufferPointer<UInt8>, into fields: inout [(start: Int, count: Int)]) {
        fields.removeAll(keepingCapacity: true)
        var i = 0
        let n = line.count
        while true {
            // Spaces before a quoted field (`"t", "ax"`) belong to no field: the quotes count.
            var k = i
            while k < n && line[k] == 0x20 && separator != 0x20 { k += 1 }
            if k < n && line[k] == 0x22 && k > i { i = k }
            if i < n && line[i] == 0x22 {
                // Quoted: up to the closing quote that is not doubled.
                var j = i + 1
                while j < n {
                    if line[j] == 0x22 {
                        if j + 1 < n && line[j + 1] == 0x22 { j += 2; continue }
                        break
                    }
                    j += 1
                }
                fields.append((i + 1, max(0, min(j, n) - i - 1)))
                i = j + 1
                while i < n && line[i] != separator { i += 1 }  // anything after the closing quote is ignored
            } else {
                var j = i
                while j < n && line[j] != separator { j += 1 }
                fields.append((i, j - i))
                i = j
            }
            if i >= n { break }
            i += 1  // the separator
            if i == n { fields.append((n, 0)); break }
        }
    }

    /// A field's text, `""` unescaped, spaces around it removed.
    static func text(_ line: UnsafeBufferPointer<UInt8>, _ field: (start: Int, count: Int)) -> String {
        let bytes = UnsafeBufferPointer(rebasing: line[field.start..<(field.start + field.count)])
        var s = String(decoding: bytes, as: UTF8.self)
        if s.contains("\"\"") { s = s.replacingOccurrences(of: "\"\"", with: "\"") }
        return s.trimmingWhitespace()
    }

    /// The fields of `line` as texts (a header line).
    func names(_ line: [UInt8]) -> [String] {
        line.withUnsafeBufferPointer { b in
            var fields: [(start: Int, count: Int)] = []
            split(b, into: &fields)
            return fields.map { Self.text(b, $0) }
        }
    }
}

extension String {
    /// `self` with every `target` replaced by `replacement` (no Foundation).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}
