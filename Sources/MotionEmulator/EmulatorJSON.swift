/// A minimal JSON value with stable key order, for the emulator's summary and status files
/// (no Foundation needed at runtime).
public indirect enum EmulatorJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([EmulatorJSON])
    /// Keys are written in the given order.
    case object([(String, EmulatorJSON)])

    public static func == (a: EmulatorJSON, b: EmulatorJSON) -> Bool { a.rendered() == b.rendered() }

    /// Renders the value; `indent` > 0 pretty-prints. Non-finite doubles become null.
    public func rendered(indent: Int = 2, level: Int = 0) -> String {
        let pad = indent > 0 ? "\n" + String(repeating: " ", count: indent * (level + 1)) : ""
        let end = indent > 0 ? "\n" + String(repeating: " ", count: indent * level) : ""
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? (d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)) : "null"
        case .string(let s): return Self.quote(s)
        case .array(let a):
            if a.isEmpty { return "[]" }
            return "[" + a.map { pad + $0.rendered(indent: indent, level: level + 1) }.joined(separator: ",") + end + "]"
        case .object(let o):
            if o.isEmpty { return "{}" }
            let sep = indent > 0 ? ": " : ":"
            return "{" + o.map { pad + Self.quote($0.0) + sep + $0.1.rendered(indent: indent, level: level + 1) }.joined(separator: ",") + end + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 { out += "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count) + String(u.value, radix: 16) }
                else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
