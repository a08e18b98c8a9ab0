import MotionCore

/// The `--csv` output of `steps`, `activity` and `replay`: a header line, then one line per row,
/// that `pandas.read_csv` and R's `read.csv` read as they are (comma-separated, `.` decimals, a
/// field with a comma, quote, newline or surrounding space quoted with `"` doubled inside, no
/// value as an empty field). Values are written as in `--json` (the same numbers, the same
/// rounding), so the two outputs agree.
enum CSVOutput {
    /// The header line of `columns`.
    static func header(_ columns: [String]) -> String { columns.map(field).joined(separator: ",") }

    /// One line of scalar `values`: null empty, numbers as in JSON, strings quoted when needed,
    /// arrays of scalars joined with `;`.
    static func line(_ values: [JSONValue]) -> String { values.map(text).joined(separator: ",") }

    /// A value's field text.
    static func text(_ v: JSONValue) -> String {
        switch v {
        case .null: return ""
        case .string(let s): return field(s)
        case .array(let items): return field(items.map { item in
            if case .string(let s) = item { return s }
            return item.serialized()
        }.joined(separator: ";"))
        default: return v.serialized()
        }
    }

    /// `s`, quoted when it holds a comma, quote, line break, or a space at either end.
    static func field(_ s: String) -> String {
        let needs = s.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) || s.first == " " || s.last == " "
        guard needs else { return s }
        var out = "\""
        for c in s {
            if c == "\"" { out += "\"" }
            out.append(c)
        }
        return out + "\""
    }

    /// `--json` and `--csv` exclude each other.
    static func checkExclusive(_ args: ParsedArguments) throws(CLIError) {
        if args.flag("json") && args.flag("csv") { throw .usage("Choose one of '--json' and '--csv'.") }
    }
}
