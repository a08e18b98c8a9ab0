/// A strict JSON reader (RFC 8259) for the small files MotionBatch reads (board profiles, capture
/// statistics): every value keeps its line and column, so errors point at the place; a
/// document deeper than ``maxDepth`` or larger than ``maxBytes`` is refused before it can use
/// much stack or memory; duplicate keys, raw control characters in strings, invalid UTF-8,
/// numbers outside the JSON grammar (`+1`, `01`, `.5`, `0x10`, `NaN`) or beyond `Double` are errors.
public struct JSONReader {
    /// Deepest nesting of arrays and objects accepted.
    public static let maxDepth = 64
    /// Largest document accepted, in bytes (1 MiB).
    public static let maxBytes = 1 << 20

    /// A document that cannot be read: where and why.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The position of the problem.
        public var position: TextPosition
        /// What is wrong.
        public var problem: String
        /// `line:column: problem`.
        public var description: String { "\(position): \(problem)" }
    }

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0

    /// Parses `bytes` as one JSON document (surrounding white space allowed), at most `limit` bytes.
    /// - Throws: ``Failure`` with the position and the problem.
    public static func parse(_ bytes: [UInt8], maxBytes limit: Int = maxBytes) throws(Failure) -> JSONNode {
        guard bytes.count <= limit else {
            throw Failure(position: TextPosition(line: 1, column: 1), problem: "the file is larger than \(limit) bytes")
        }
        var reader = JSONReader(bytes: bytes)
        reader.skipSpace()
        let node = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.i == bytes.count else { throw reader.failure("unexpected \(reader.describeHere()) after the JSON value") }
        return node
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var position: TextPosition { TextPosition(line: line, column: i - lineStart + 1) }

    private func failure(_ problem: String) -> Failure { Failure(position: position, problem: problem) }

    /// The byte at the cursor, for messages (`'x'`, `'\x00'`, `the end of the file`).
    private func describeHere() -> String {
        guard i < bytes.count else { return "end of the file" }
        return "character '\(DiagnosticText.escaped(bytes[i..<min(i + 1, bytes.count)]))'"
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A:
                i += 1
                line += 1
                lineStart = i
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONNode {
        let start = position
        guard i < bytes.count else { throw failure("expected a JSON value, found the end of the file") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            guard depth < Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth) levels") }
            return JSONNode(.object(try object(depth: depth + 1)), at: start)
        case UInt8(ascii: "["):
            guard depth < Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth) levels") }
            return JSONNode(.array(try array(depth: depth + 1)), at: start)
        case UInt8(ascii: "\""):
            return JSONNode(.string(try string()), at: start)
        case UInt8(ascii: "t"):
            try literal("true")
            return JSONNode(.bool(true), at: start)
        case UInt8(ascii: "f"):
            try literal("false")
            return JSONNode(.bool(false), at: start)
        case UInt8(ascii: "n"):
            try literal("null")
            return JSONNode(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(.number(try number()), at: start)
        default:
            throw failure("expected a JSON value, found \(describeHere())")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else {
            throw failure("expected a JSON value, found \(describeHere())")
        }
        i += w.count
    }

    private mutating func object(depth: Int) throws(Failure) -> [(key: String, value: JSONNode)] {
        i += 1  // {
        var members: [(key: String, value: JSONNode)] = []
        var seen: [String: TextPosition] = [:]
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return members }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw failure("expected a key in double quotes, found \(describeHere())") }
            let keyPosition = position
            let key = try string()
            if let first = seen[key] {
                throw Failure(position: keyPosition, problem: "key \(DiagnosticText.quoted(key)) appears twice (first at \(first))")
            }
            seen[key] = keyPosition
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw failure("expected ':' after the key, found \(describeHere())") }
            i += 1
            skipSpace()
            members.append((key, try value(depth: depth)))
            skipSpace()
            guard i < bytes.count else { throw failure("expected ',' or '}', found the end of the file") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return members }
            throw failure("expected ',' or '}', found \(describeHere())")
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> [JSONNode] {
        i += 1  // [
        var items: [JSONNode] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return items }
        while true {
            skipSpace()
            items.append(try value(depth: depth))
            skipSpace()
            guard i < bytes.count else { throw failure("expected ',' or ']', found the end of the file") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return items }
            throw failure("expected ',' or ']', found \(describeHere())")
        }
    }

    /// A number in JSON's grammar `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, finite.
    private mutating func number() throws(Failure) -> Double {
        let start = i
        let startPosition = position
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - s
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        let integerStart = i
        let n = digits()
        guard n > 0 else { throw failure("expected a digit in the number, found \(describeHere())") }
        if n > 1 && bytes[integerStart] == UInt8(ascii: "0") {
            throw Failure(position: startPosition, problem: "numbers must not have leading zeros")
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw failure("expected a digit after the decimal point, found \(describeHere())") }
        }
        if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw failure("expected a digit in the exponent, found \(describeHere())") }
        }
        let text = bytes[start..<i]
        guard let v = text.withUnsafeBufferPointer({ DecimalScanner.parseDouble($0.baseAddress!, $0.count) }), v.isFinite else {
            throw Failure(position: startPosition, problem: "number \(DiagnosticText.quoted(text)) is out of range (beyond ±1.8e308)")
        }
        return v
    }

    /// A string in double quotes: escapes decoded (`\uXXXX` with surrogate pairs), raw control
    /// characters and invalid UTF-8 refused.
    private mutating func string() throws(Failure) -> String {
        i += 1  // "
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw failure("the string has no closing '\"'") }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                guard let s = String(validating: out, as: UTF8.self) else {
                    throw failure("the string before this point is not valid UTF-8")
                }
                return s
            case UInt8(ascii: "\\"):
                i += 1
                guard i < bytes.count else { throw failure("the string has no closing '\"'") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw failure("a high surrogate \\u escape must be followed by a low one")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("a high surrogate \\u escape must be followed by a low one") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw failure("a low surrogate \\u escape without a high one")
                    }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    throw failure("unknown escape '\\\(DiagnosticText.escaped([e]))'")
                }
            case 0x00..<0x20:
                throw failure("control character '\(DiagnosticText.escaped([b]))' in a string (write it as an escape)")
            default:
                out.append(b)
                i += 1
            }
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 <= bytes.count else { throw failure("expected 4 hexadecimal digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw failure("expected 4 hexadecimal digits after \\u, found \(describeHere())")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }
}
