/// MotionBatch's two CSV dialects, read by ``RecordingCSVReader``: its own format (`format`
/// `.motionbatch`, a `#` header block) and the datasets' plain CSV (`.plain`, `time_s,...`);
/// with `format` nil, whichever the first line shows (the fallback for unrecognised inputs).
struct CSVDialect: RecordingDialect {
    let name: String
    /// The dialect expected, or nil for either.
    let format: RecordingFormat?

    func recognizes(_ prefix: [UInt8]) -> Bool {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }  // byte-order mark
        switch format {
        case .motionbatch: return bytes.first == UInt8(ascii: "#")
        case .plain: return bytes.starts(with: Array("time_s,".utf8))
        case nil: return true
        }
    }

    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        try RecordingCSVReader(source: source, prefix: prefix, expected: format, options: options)
    }
}
