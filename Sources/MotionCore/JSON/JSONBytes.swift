/// Writes compact JSON straight into bytes, as ``JSONValue/serialized(pretty:)`` would write it
/// (`{"key":value,...}`, strings escaped the same way, integers in decimal), without building a
/// ``JSONValue`` tree or a `String`: for a document written again and again on a hot path (a
/// capture's checkpoint, once a second), which then allocates nothing once `bytes` has grown.
///
/// ```swift
/// var json = JSONBytes(reusing: &buffer)   // takes the buffer (emptied, its capacity kept)
/// json.beginObject()
/// json.member("samples", int: 42)
/// json.member("session", string: "a1b2")
/// json.endObject()
/// json.finish(into: &buffer)               // hands it back with the text
/// ```
public struct JSONBytes {
    /// The text written so far.
    public private(set) var bytes: [UInt8] = []
    private var first = true

    /// Starts writing into `buffer`'s storage: the array is moved in (left empty) and emptied,
    /// its capacity kept, so that writing allocates nothing until it outgrows it.
    public init(reusing buffer: inout [UInt8]) {
        swap(&bytes, &buffer)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Moves the text written into `buffer` (the writer is left empty).
    public mutating func finish(into buffer: inout [UInt8]) {
        buffer = []
        swap(&buffer, &bytes)
    }

    /// `{`.
    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    /// `}`.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    /// Appends raw bytes (a newline after the document).
    public mutating func append(_ byte: UInt8) { bytes.append(byte) }

    /// `"key":value` with an integer value, `null` when nil.
    public mutating func member(_ key: StaticString, int value: Int64?) {
        appendKey(key)
        if let value { appendDecimal(value) } else { appendNull() }
    }

    /// `"key":"value"` with a string value, `null` when nil.
    public mutating func member(_ key: StaticString, string value: String?) {
        appendKey(key)
        if let value { Self.quote(value, into: &bytes) } else { appendNull() }
    }

    private mutating func appendKey(_ key: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        key.withUTF8Buffer { Self.quote(UnsafeRawBufferPointer($0), into: &bytes) }
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func appendNull() {
        bytes.append(UInt8(ascii: "n")); bytes.append(UInt8(ascii: "u")); bytes.append(UInt8(ascii: "l")); bytes.append(UInt8(ascii: "l"))
    }

    private mutating func appendDecimal(_ value: Int64) {
        DecimalDigits.append(value, to: &bytes)
    }

    /// `s` as a JSON string literal, escaped as ``JSONValue/quoted(_:)`` escapes it.
    public static func quote(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { quote(UnsafeRawBufferPointer($0), into: &out) }
    }

    /// UTF-8 `utf8` as a JSON string literal: quotes, backslashes and control characters escaped
    /// (`\n`, `\r`, `\t`, else `\u00xx` in lower-case hex), every other byte as it is.
    static func quote(_ utf8: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\\"))
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "u")); out.append(UInt8(ascii: "0")); out.append(UInt8(ascii: "0"))
                hex.withUTF8Buffer { h in out.append(h[Int(b >> 4)]); out.append(h[Int(b & 15)]) }
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
