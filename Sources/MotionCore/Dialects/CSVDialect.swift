/// MotionBatch's two CSV dialects, read by ``RecordingCSVReader``: its own format (`format`
/// `.motionbatch`, a `#` header block) and the datasets' plain CSV (`.plain`, `time_s,...`);
/// with `format` nil, whichever the first line shows (the fallback for unrecognised inputs).
/// Plain CSV's timing defects (duplicate rows, equal timestamps, small steps back) follow
/// ``TimestampDefectFilter``'s rule; MotionBatch's own format, whose writer guarantees the order,
/// stays strict.
struct CSVDialect: RecordingDialect {
    let name: String
    /// The dialect expected, or nil for either.
    let format: RecordingFormat?

    var summary: String {
        switch format {
        case .motionbatch: return "MotionBatch's own CSV format ('# motionbatch-recording: 1' header block, timestamp_ns,...)"
        case .plain: return "plain CSV: time_s,accel_x,accel_y,accel_z[,gyro_x,gyro_y,gyro_z][,label]"
        case nil: return "MotionBatch's own format or plain CSV"
        }
    }

    /// The column lines of plain CSV, in their one order (other orders: the `columns` dialect).
    static let plainHeaders: Set<String> = {
        var out: Set<String> = []
        for gyro in ["", ",gyro_x,gyro_y,gyro_z"] {
            for label in ["", ",label"] { out.insert("time_s,accel_x,accel_y,accel_z" + gyro + label) }
        }
        return out
    }()

    func recognizes(_ prefix: [UInt8]) -> Bool {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }  // byte-order mark
        switch format {
        case .motionbatch: return bytes.first == UInt8(ascii: "#")
        case .plain:
            // The whole column line, when it is in the prefix (else its start: a long first line).
            guard let nl = bytes.firstIndex(of: 0x0A) else { return bytes.starts(with: Array("time_s,accel_x,accel_y,accel_z".utf8)) }
            var line = bytes[..<nl]
            if line.last == 0x0D { line = line.dropLast() }
            if line.last == UInt8(ascii: ",") { line = line.dropLast() }  // a trailing separator is no column
            return Self.plainHeaders.contains(String(decoding: line, as: UTF8.self))
        case nil: return true
        }
    }

    /// MotionBatch's own format is read strictly; plain CSV through the defect rule (``OrderedRows``).
    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        let reader = try RecordingCSVReader(source: source, prefix: prefix, expected: format, options: options)
        return reader.header.format == .plain ? OrderedRows(source: reader) : reader
    }
}

/// What reads an input that no dialect recognises: the CSV header parser (which explains what
/// MotionBatch's own and the plain header look like), its "missing header" message extended with
/// the other dialects and the options that read any CSV or a raw buffer.
struct UnrecognisedInputDialect: RecordingDialect {
    var name: String { "csv" }
    var summary: String { "an input no dialect recognises (its error lists the formats)" }

    func recognizes(_ prefix: [UInt8]) -> Bool { true }

    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        do {
            return try CSVDialect(name: name, format: nil).makeReader(source: source, prefix: prefix, options: options)
        } catch var error as RecordingError where error.problem.hasPrefix("missing header") {
            error.problem += "; other formats: " + RecordingDialects.all.filter { $0.name != "motionbatch" && $0.name != "plain" }.map(\.name).joined(separator: ", ")
                + " (any CSV: --columns time=...,x=...,y=...,z=...; raw IIO buffers: --layout; docs/dialects.md)"
            throw error
        }
    }
}
