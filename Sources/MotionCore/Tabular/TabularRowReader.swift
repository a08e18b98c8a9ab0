/// Reads the rows of a text recording described by a ``TabularLayout``, line by line through one
/// fixed buffer (``RecordingLineBuffer``: memory does not grow with the file), converting each row
/// to a ``Sample`` in SI units. Strict about what it cannot represent (a bad number, a value
/// beyond ``InputLimits``, a row with too few fields or more than the header names: a ``RecordingError`` with file, line, column
/// and problem); tolerant, with a count in ``warnings``, of what real exports contain: a row with
/// a missing value (`NaN` or empty, as phyphox writes), an empty line, a torn final line. The
/// order of timestamps is left to ``TimestampDefectFilter`` (``OrderedRows``).
final class TabularRowReader: RecordingSampleSource {
    let name: String
    let header: RecordingHeader
    var timeColumn: String { layout.name(layout.time) }
    var warnings: [RecordingWarning] { tally.warnings }
    private(set) var lineNumber: Int
    var bytesRead: Int { lines.bytesConsumed }

    private let lines: RecordingLineBuffer
    private let format: DelimitedFormat
    private let layout: TabularLayout
    private var tally = RecordingWarningTally()
    private var fields: [(start: Int, count: Int)] = []
    private var scratch = [UInt8](repeating: 0, count: 80)
    private var finished = false

    /// Reads rows from `lines`, which has already given the header (`linesBefore` lines).
    init(name: String, lines: RecordingLineBuffer, linesBefore: Int, format: DelimitedFormat, layout: TabularLayout, header: RecordingHeader) {
        self.name = name
        self.lines = lines
        self.lineNumber = linesBefore
        self.format = format
        self.layout = layout
        self.header = header
    }

    func read(into samples: inout [Sample], labels: inout [String?], lines out: inout [Int], maxSamples: Int) throws -> Int {
        var produced = 0
        while produced < maxSamples, !finished {
            guard let line = try lines.next() else { finished = true; break }
            lineNumber += 1
            switch line {
            case .torn(let count):
                tally.add(.tornFinalLine, file: name, line: lineNumber, message: "last line has no newline (torn write, e.g. power loss); dropped its \(count) bytes")
                finished = true
            case .tooLong:
                throw RecordingError(file: name, line: lineNumber, column: lines.capacity + 1, problem: "line is longer than \(lines.capacity) bytes")
            case .line(let p, let n):
                let bytes = UnsafeBufferPointer(start: p, count: n)
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    tally.add(.emptyLine, file: name, line: lineNumber, message: "empty line skipped")
                    continue
                }
                guard let (sample, label) = try row(bytes) else { continue }
                samples.append(sample)
                if header.hasLabels { labels.append(label) }
                out.append(lineNumber)
                produced += 1
            }
        }
        return produced
    }

    /// One row's sample and label; nil for a row with a missing value (counted).
    private func row(_ line: UnsafeBufferPointer<UInt8>) throws -> (Sample, String?)? {
        format.split(line, into: &fields)
        // A trailing separator (an empty last field beyond the header's names) is no field, as
        // a trailing separator in the header is no column.
        if fields.count == layout.columnNames.count + 1, let f = fields.last,
           UnsafeBufferPointer(rebasing: line[f.start..<(f.start + f.count)]).allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            fields.removeLast()
        }
        // Too few fields for the columns read, or more than the header names (a field split by a
        // stray separator, e.g. a decimal comma in a comma-separated file): never guessed.
        guard fields.count >= layout.neededFields, fields.count <= layout.columnNames.count else {
            let column = fields.count > layout.columnNames.count ? layout.columnNames.count + 1 : fields.count + 1
            // A column beyond the header's names has no name: "column 6", not "column 6 (column 6)".
            throw RecordingError(file: name, line: lineNumber, column: column, columnName: column <= layout.columnNames.count ? layout.name(column - 1) : nil,
                                 problem: "expected \(layout.columnNames.count) fields (\(DiagnosticText.escaped(layout.columnNames.joined(separator: format.separatorName == "comma" ? "," : " ").utf8, limit: 120))), found \(fields.count)")
        }
        guard let t = try time(line) else { return nil }
        var accel = Vector3.zero
        var gyro = Vector3.zero
        for k in 0..<3 {
            guard let v = try value(line, layout.accel[k], scale: layout.accelScale[k], rule: layout.accelRule) else { return nil }
            accel[k] = v
        }
        if let g = layout.gyro {
            for k in 0..<3 {
                guard let v = try value(line, g[k], scale: layout.gyroScale[k], rule: InputLimits.angularRate) else { return nil }
                gyro[k] = v
            }
        }
        var label: String?
        if let l = layout.label {
            let f = fields[l]
            let bytes = UnsafeBufferPointer(rebasing: line[f.start..<(f.start + f.count)])
            if !bytes.isEmpty {
                guard DiagnosticText.isPrintable(bytes), !bytes.contains(0x2C), !bytes.contains(0x22), let text = String(validating: bytes, as: UTF8.self) else {
                    throw RecordingError(file: name, line: lineNumber, column: l + 1, columnName: layout.name(l),
                                         problem: "label \(DiagnosticText.quoted(bytes)) is not printable UTF-8 text without ',' and '\"'")
                }
                label = text
            }
        }
        return (Sample(timestamp: t, accel: accel, gyro: gyro), label)
    }

    /// The field's bytes with spaces around them removed and, with a decimal comma, `,` read as
    /// `.` (copied to the scratch buffer); `body` gets them.
    private func numberBytes<T>(_ line: UnsafeBufferPointer<UInt8>, _ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let f = fields[index]
        var lo = f.start, hi = f.start + f.count
        while lo < hi && (line[lo] == 0x20 || line[lo] == 0x09) { lo += 1 }
        while hi > lo && (line[hi - 1] == 0x20 || line[hi - 1] == 0x09) { hi -= 1 }
        let field = UnsafeBufferPointer(rebasing: line[lo..<hi])
        guard format.decimalComma, field.contains(UInt8(ascii: ",")), field.count <= scratch.count else { return try body(field) }
        for i in 0..<field.count { scratch[i] = field[i] == UInt8(ascii: ",") ? UInt8(ascii: ".") : field[i] }
        return try scratch.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<field.count])) }
    }

    /// Whether the field means "no value" (empty or NaN).
    private static func isMissing(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        field.isEmpty || (field.count == 3 && (field[0] | 0x20) == UInt8(ascii: "n") && (field[1] | 0x20) == UInt8(ascii: "a") && (field[2] | 0x20) == UInt8(ascii: "n"))
    }

    private func missing(_ index: Int) -> Bool {
        tally.add(.missingValue, file: name, line: lineNumber,
                  message: "row dropped: no value in column \(DiagnosticText.quoted(layout.name(index))) (NaN or empty, as an export writes where a column is shorter)")
        return true
    }

    private func time(_ line: UnsafeBufferPointer<UInt8>) throws -> Int64? {
        let index = layout.time
        let unit = layout.timeUnit
        let result: Int64?? = try numberBytes(line, index) { field in
            if Self.isMissing(field) { return .some(nil) }
            guard let p = field.baseAddress, let t = DecimalScanner.parseScaledDecimal(p, field.count, fractionDigits: unit.fractionDigits) else {
                if let p = field.baseAddress, let v = DecimalScanner.parseDouble(p, field.count), v.isFinite {
                    throw RecordingError(file: name, line: lineNumber, column: index + 1, columnName: layout.name(index),
                                         problem: "time \(DiagnosticText.quoted(field)) \(unit.rawValue) is out of range (allowed \(InputLimits.timestampRangeText))")
                }
                throw RecordingError(file: name, line: lineNumber, column: index + 1, columnName: layout.name(index),
                                     problem: "bad time \(DiagnosticText.quoted(field)) (expected a number of \(unit.rawValue))")
            }
            guard InputLimits.containsTimestamp(t) else {
                throw RecordingError(file: name, line: lineNumber, column: index + 1, columnName: layout.name(index),
                                     problem: "time \(DiagnosticText.quoted(field)) \(unit.rawValue) is out of range (allowed \(InputLimits.timestampRangeText))")
            }
            return .some(t)
        }
        guard let t = result! else {
            _ = missing(index)
            return nil
        }
        return t
    }

    private func value(_ line: UnsafeBufferPointer<UInt8>, _ index: Int, scale: Double, rule: ValueRule) throws -> Double? {
        let result: Double?? = try numberBytes(line, index) { field in
            if Self.isMissing(field) { return .some(nil) }
            guard let p = field.baseAddress, let v = DecimalScanner.parseDouble(p, field.count), v.isFinite else {
                let problem = field.baseAddress.flatMap { RecordingRowParser.valueProblem($0, field.count, rule: nil) } ?? "bad number \(DiagnosticText.quoted(field))"
                throw RecordingError(file: name, line: lineNumber, column: index + 1, columnName: layout.name(index), problem: problem)
            }
            let si = v * scale
            guard rule.contains(si) else {
                throw RecordingError(file: name, line: lineNumber, column: index + 1, columnName: layout.name(index),
                                     problem: rule.problem(DiagnosticText.quoted(field) + (scale == 1 ? "" : " (\(si.compactText) \(rule.unit))")))
            }
            return .some(si)
        }
        guard let v = result! else {
            _ = missing(index)
            return nil
        }
        return v
    }
}

extension TabularRowReader {
    /// Opens a text export whose first line names its columns: reads that line, detects the
    /// separator (``DelimitedFormat/detect(headerLine:)``), lets `map` turn the names into a
    /// ``TabularLayout`` (or refuse them), and returns the rows through the defect rule.
    /// - Parameter map: the column names and the 1-based line; throws ``RecordingError`` to refuse.
    static func open(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions, metadata: [String: String],
                     map: ([String], DelimitedFormat) throws -> TabularLayout) throws -> OrderedRows {
        let lines = RecordingLineBuffer(source: source, prefix: prefix, capacity: options.bufferSize)
        let headerLine = try lines.headerLine(name: source.name, number: 1, what: "column header line")
        let format = DelimitedFormat.detect(headerLine: headerLine)
        let layout = try map(format.names(headerLine), format)
        let header = RecordingHeader(format: .plain, sensors: layout.sensors, hasLabels: layout.label != nil, metadata: metadata)
        return OrderedRows(source: TabularRowReader(name: source.name, lines: lines, linesBefore: 1, format: format, layout: layout, header: header))
    }

    /// The index of the one column named `name` in `names`, or nil.
    /// - Throws: ``RecordingError`` (line 1) when several columns have that name.
    static func column(_ name: String, in names: [String], file: String) throws -> Int? {
        let found = names.indices.filter { names[$0] == name }
        guard found.count <= 1 else {
            throw RecordingError(file: file, line: 1, column: found[1] + 1, columnName: name, problem: "column \(DiagnosticText.quoted(name)) appears \(found.count) times")
        }
        return found.first
    }
}
