/// Parses the header of the two CSV dialects, strictly: MotionBatch's `# key: value` block (first
/// line `# motionbatch-recording: 1` or `2`) and its column line, or the plain CSV column line
/// (`time_s,accel_x,...`). Every problem is a ``RecordingError`` with the file, line and column
/// (the character column within a `#` line, the field on the column line), bytes that are not
/// printable shown escaped (`\x00`). One trailing separator on the column line is no column
/// (`time_s,accel_x,accel_y,accel_z,`), as in every other text dialect.
///
/// Checked besides the shape: header lines and values are printable UTF-8 (no control
/// characters, which would be copied into outputs), a key appears once, the rates
/// `requested_hz`/`actual_hz` are numbers within ``InputLimits/rate``, and `channel.*` entries
/// describe existing columns in their SI unit.
struct RecordingHeaderParser {
    /// The file name used in errors.
    let path: String
    /// The dialect the caller expects (nil: whichever the first line shows).
    let expected: RecordingFormat?

    /// The header and the number of lines it took (the column line included).
    struct Result {
        var header: RecordingHeader
        var lineCount: Int
    }

    private static let plainHint = "time_s,accel_x,accel_y,accel_z[,gyro_x,gyro_y,gyro_z][,label]"
    private static let ownHint = "# \(RecordingKey.formatVersion): \(RecordingFormat.currentVersion)"

    /// Keys whose value must start with a sampling rate in Hz.
    static let rateKeys: Set<String> = [RecordingKey.requestedHz, RecordingKey.actualHz]

    /// Reads header lines from `lines` up to and including the column line.
    /// - Throws: ``RecordingError``, or the source's read error.
    func parse(_ lines: RecordingLineBuffer) throws -> Result {
        var lineNumber = 0
        func nextLine(_ what: String) throws -> [UInt8]? {
            guard let line = try lines.nextHeaderLine(name: path, number: lineNumber + 1, what: what, allowingTabs: false) else { return nil }
            lineNumber += 1
            return line
        }
        guard let firstBytes = try nextLine("header") else {
            throw RecordingError(file: path, line: 1, column: 1, problem: "missing header: the file is empty (expected '\(Self.ownHint)' or '\(Self.plainHint)')")
        }
        let first = String(decoding: firstBytes, as: UTF8.self)
        var format = RecordingFormat.plain
        var metadata: [String: String] = [:]
        var keyLines: [String: Int] = [:]
        var columnLine = first
        if first.hasPrefix("#") {
            if expected == .plain {
                throw RecordingError(file: path, line: 1, column: 1, problem: "missing header: expected a plain CSV header '\(Self.plainHint)', found \(DiagnosticText.quoted(firstBytes, limit: 60))")
            }
            guard let (key, value, valueColumn) = Self.keyValue(first), key == RecordingKey.formatVersion else {
                throw RecordingError(file: path, line: 1, column: 1, problem: "missing header: the first line must be '\(Self.ownHint)', found \(DiagnosticText.quoted(firstBytes, limit: 60))")
            }
            guard let version = Int(value), version >= 1 else {
                throw RecordingError(file: path, line: 1, column: valueColumn, problem: "bad format version \(DiagnosticText.quoted(value))")
            }
            guard RecordingFormat.readableVersions.contains(version) else {
                let known = RecordingFormat.readableVersions.map(String.init).joined(separator: " and ")
                throw RecordingError(file: path, line: 1, column: valueColumn, problem: "unknown format version \(version) (this reader knows versions \(known))")
            }
            format = .motionbatch(version: version)
            while true {
                guard let bytes = try nextLine("header line") else {
                    throw RecordingError(file: path, line: lineNumber + 1, column: 1, problem: "missing column header line after the '#' header block")
                }
                let l = String(decoding: bytes, as: UTF8.self)
                guard l.hasPrefix("#") else { columnLine = l; break }
                guard let (key, value, valueColumn) = Self.keyValue(l) else {
                    throw RecordingError(file: path, line: lineNumber, column: 1, problem: "malformed header line \(DiagnosticText.quoted(bytes, limit: 60)) (expected '# key: value')")
                }
                if key == "event", version >= 2 {
                    throw RecordingError(file: path, line: lineNumber, column: 3, problem: "an event line before the column line (event lines go among the rows, after the column header)")
                }
                guard metadata[key] == nil, key != RecordingKey.formatVersion else {
                    throw RecordingError(file: path, line: lineNumber, column: 3, problem: "header key '\(key)' appears twice (first on line \(keyLines[key] ?? 1))")
                }
                if Self.rateKeys.contains(key), let problem = Self.rateProblem(value) {
                    throw RecordingError(file: path, line: lineNumber, column: valueColumn, columnName: key, problem: problem)
                }
                metadata[key] = value
                keyLines[key] = lineNumber
            }
        } else if case .motionbatch = expected {
            throw RecordingError(file: path, line: 1, column: 1, problem: "missing header: the first line must be '\(Self.ownHint)', found \(DiagnosticText.quoted(firstBytes, limit: 60))")
        }
        let header = try columns(columnLine, format: format, metadata: metadata, line: lineNumber)
        // Channel descriptions must name existing columns and their SI unit.
        for (key, value) in metadata.sorted(by: { keyLines[$0.key, default: 0] < keyLines[$1.key, default: 0] }) where key.hasPrefix(RecordingKey.channelPrefix) {
            let line = keyLines[key] ?? 1
            let channel = String(key.dropFirst(RecordingKey.channelPrefix.count))
            guard header.columns.contains(channel), let unit = RecordingHeader.unit(of: channel) else {
                throw RecordingError(file: path, line: line, column: 3, problem: "header key '\(key)' describes a channel that is not a data column")
            }
            let given = value.split(whereSeparator: { $0 == " " || $0 == "," }).first.map(String.init) ?? ""
            guard given == unit else {
                throw RecordingError(file: path, line: line, column: key.count + 5, problem: "header key '\(key)': unit \(DiagnosticText.quoted(given)) is not supported (expected \(unit))")
            }
        }
        return Result(header: header, lineCount: lineNumber)
    }

    /// Parses the column line (`line`) into the header.
    private func columns(_ columnLine: String, format: RecordingFormat, metadata: [String: String], line: Int) throws -> RecordingHeader {
        var names = columnLine.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        // A trailing separator is no column (as in every other text dialect): one empty last name.
        if names.count > 1, names.last == "" { names.removeLast() }
        guard names.first == format.timeColumn else {
            if format == .plain {
                throw RecordingError(file: path, line: line, column: 1, problem: "missing header: expected '\(Self.ownHint)' or a plain CSV header '\(Self.plainHint)', found \(DiagnosticText.quoted(columnLine, limit: 60))")
            }
            throw RecordingError(file: path, line: line, column: 1, problem: "unknown column \(DiagnosticText.quoted(names.first ?? "")) (expected '\(format.timeColumn)')")
        }
        var sensors: SensorSet = .accel
        var hasLabels = false
        var i = 1
        func expect(_ name: String) throws {
            guard i < names.count else {
                throw RecordingError(file: path, line: line, column: i + 1, problem: "missing column '\(name)'")
            }
            guard names[i] == name else {
                throw RecordingError(file: path, line: line, column: i + 1, problem: "unknown column \(DiagnosticText.quoted(names[i])) (expected '\(name)')")
            }
            i += 1
        }
        for name in ["accel_x", "accel_y", "accel_z"] { try expect(name) }
        if i < names.count, names[i] == "gyro_x" {
            for name in ["gyro_x", "gyro_y", "gyro_z"] { try expect(name) }
            sensors.insert(.gyro)
        }
        if i < names.count, names[i] == "label" {
            hasLabels = true
            i += 1
        }
        if i < names.count {
            let allowed = sensors.contains(.gyro) ? (hasLabels ? "end of line" : "'label'") : (hasLabels ? "end of line" : "'gyro_x' or 'label'")
            throw RecordingError(file: path, line: line, column: i + 1, problem: "unknown column \(DiagnosticText.quoted(names[i])) (expected \(allowed))")
        }
        return RecordingHeader(format: format, sensors: sensors, hasLabels: hasLabels, metadata: metadata)
    }

    /// Why a rate entry's value is not accepted, or nil: its first word must be a number (the
    /// project's one grammar) within ``InputLimits/rate``; text may follow (`104.17 Hz`).
    static func rateProblem(_ value: String) -> String? {
        let word = String(value.split(separator: " ", maxSplits: 1).first ?? "")
        guard let v = DecimalScanner.double(word) else {
            return "expected a sampling rate in Hz (a number within \(InputLimits.rate.rangeText)), found \(DiagnosticText.quoted(value))"
        }
        return InputLimits.rate.contains(v) ? nil : InputLimits.rate.problem(word)
    }

    /// Splits `# key: value` into its parts and the 1-based column where the value starts; `nil`
    /// when the line does not have that shape (the key: no spaces).
    static func keyValue(_ line: String) -> (String, String, Int)? {
        guard line.hasPrefix("# "), let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[line.index(line.startIndex, offsetBy: 2)..<colon]
        guard !key.isEmpty, !key.contains(" ") else { return nil }
        var value = line[line.index(after: colon)...]
        while value.first == " " { value.removeFirst() }
        while value.last == " " { value.removeLast() }
        let column = line.utf8.distance(from: line.startIndex, to: value.startIndex) + 1
        return (String(key), String(value), column)
    }
}
