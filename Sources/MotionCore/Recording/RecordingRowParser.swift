#if canImport(Glibc)
import Glibc
#endif

/// Parses the data rows of a recording from a block of whole lines, strictly: the hot loop reads
/// each row's fields in place (no `String`, no per-line search for the newline: the parse itself
/// must end exactly on the row's `\n`), and any row that fails is explained by a cold diagnosis
/// naming the column and problem. One trailing separator on a row (an empty field beyond the
/// header's names) is no field, as in every other text dialect. Value type, safe to use on
/// several threads at once.
struct RecordingRowParser: Sendable {
    /// The file name used in errors.
    let path: String
    /// Column names in file order (for messages).
    let columnNames: [String]
    let hasGyro: Bool
    let hasLabels: Bool
    /// `time_s` (plain CSV) instead of `timestamp_ns`.
    let seconds: Bool
    /// Event lines (``RecordingEvent``) may appear among the rows (format version 2).
    let eventLines: Bool
    /// Whether rows must have strictly increasing timestamps (MotionBatch's own format, whose
    /// writer guarantees it); plain CSV leaves their order to ``TimestampDefectFilter``.
    let checksOrder: Bool

    /// Creates a parser for the rows described by `header`.
    init(path: String, header: RecordingHeader) {
        self.path = path
        columnNames = header.columns
        hasGyro = header.sensors.contains(.gyro)
        hasLabels = header.hasLabels
        seconds = header.format == .plain
        eventLines = header.format.hasEventLines
        checksOrder = !seconds
    }

    /// Parses the `count` bytes at the start of `block` (whole lines: the last byte is `\n`).
    /// Stops at the first bad row (see ``RecordingParsedBlock/failureRow``).
    /// - Complexity: O(count).
    func parse(_ block: RecordingByteBlock, count: Int) -> RecordingParsedBlock {
        var out = RecordingParsedBlock()
        out.byteCount = count
        let estimate = count / (hasGyro ? 40 : 24) + 16
        // Rows go to local arrays (kept in registers by the optimizer), moved into `out` at the end.
        var samples: [Sample] = []
        var rowEnds: [Int32] = []
        samples.reserveCapacity(estimate)
        rowEnds.reserveCapacity(estimate)
        if hasLabels { out.labels.reserveCapacity(estimate) }
        block.classify(count: count)
        let bytes = block.paddedBytes(count: count)
        let base = bytes.start
        let end = bytes.end
        let nonDigits = RecordingByteBlock.NonDigitBitmap(block)
        var c = base
        var previous: Int64 = .min
        var labelCache = LabelCache()
        let comma = UInt8(ascii: ",")
        let valueCount = hasGyro ? 6 : 3
        let limit = InputLimits.sampleMagnitude
        // The row's values are stored here one by one and loaded as one vector (inserting into a
        // SIMD8 at a variable index made the optimizer spill and reload the whole vector per field).
        // Zeroed once: each row overwrites lanes 0..<valueCount before the load, the rest stay 0.
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<SIMD8<Double>>.size, alignment: MemoryLayout<SIMD8<Double>>.alignment)
        defer { scratch.deallocate() }
        scratch.storeBytes(of: SIMD8<Double>(), as: SIMD8<Double>.self)
        rows: while c < end {
            let row = samples.count
            let rowStart = c
            let parsedTime = seconds
                ? DecimalScanner.scanSecondsAsNanoseconds(&c, end)
                : CSVFieldScanner.scanInt64(&c, in: bytes, nonDigits: nonDigits[c - base])
            // In range: |t| <= InputLimits.timestampLimit, one unsigned comparison.
            guard let t = parsedTime, UInt64(bitPattern: t &+ InputLimits.timestampLimit) <= 2 &* UInt64(InputLimits.timestampLimit),
                  bytes[c] == comma else {
                // Not a row: an event line (format version 2), or a bad row. Off the hot path.
                if eventLines, rowStart.pointee == 0x23 {
                    switch parseEvent(rowStart, end, row: row) {
                    case .success(let (event, next)):
                        out.events.append(event)
                        c = next
                        continue rows
                    case .failure(let e):
                        fail(&out, row: row, e)
                        break rows
                    }
                }
                if !eventLines, !seconds, rowStart.pointee == 0x23 {
                    fail(&out, row: row, RecordingError(file: path, line: nil, column: 1, problem: "a '#' line among the rows: event lines need format version 2, this file declares version 1"))
                    break
                }
                fail(&out, row: row, diagnose(rowStart, end))
                break
            }
            if row == 0 {
                out.firstTimestamp = t
            } else if checksOrder && t <= previous {
                out.failureRow = row
                out.failure = .order(timestamp: t, previous: previous)
                break
            }
            c += 1
            // Values: one loop over the value columns around a single copy of the fast field
            // scanner, then the separator; any miss goes to `diagnose`.
            var k = 0
            while true {
                // Within ±sampleMagnitude (false for NaN and infinities). Checked per value: a vector
                // comparison with the limit after the row made the whole parse 1.5x slower.
                guard let v = CSVFieldScanner.scanDouble(&c, in: bytes, nonDigits: nonDigits[c - base]),
                      v.magnitude <= limit else { fail(&out, row: row, diagnose(rowStart, end)); break rows }
                scratch.storeBytes(of: v, toByteOffset: 8 * k, as: Double.self)
                k += 1
                if k == valueCount { break }
                guard bytes[c] == comma else { fail(&out, row: row, diagnose(rowStart, end)); break rows }
                c += 1
            }
            let values = scratch.load(as: SIMD8<Double>.self)
            let gyro = hasGyro ? Vector3(values[3], values[4], values[5]) : Vector3.zero
            if hasLabels {
                guard bytes[c] == comma else { fail(&out, row: row, diagnose(rowStart, end)); break }
                c += 1
                let lineEnd = Self.lineEnd(c, end)
                var labelEnd = lineEnd > c && bytes[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
                var field = labelCache.label(c, labelEnd - c)
                if case .comma = field, bytes[labelEnd - 1] == comma {
                    // One trailing separator (an empty last field) is no field, as in every dialect.
                    labelEnd -= 1
                    field = labelCache.label(c, labelEnd - c)
                }
                switch field {
                case .value(let l): out.labels.append(l)
                case .comma: fail(&out, row: row, diagnose(rowStart, end)); break rows
                case .quoted:
                    fail(&out, row: row, labelError("quoted fields are not supported (\(DiagnosticText.quoted(UnsafeBufferPointer(start: c, count: labelEnd - c))))"))
                    break rows
                case .notPrintable:
                    fail(&out, row: row, labelError("label \(DiagnosticText.quoted(UnsafeBufferPointer(start: c, count: labelEnd - c))) is not printable UTF-8 text (control characters and invalid bytes are not allowed)"))
                    break rows
                }
                c = lineEnd + 1
            } else if bytes[c] == 0x0A {
                c += 1
            } else if bytes[c] == 0x0D && bytes[c + 1] == 0x0A {
                c += 2
            } else if bytes[c] == comma, bytes[c + 1] == 0x0A || (bytes[c + 1] == 0x0D && bytes[c + 2] == 0x0A) {
                // One trailing separator (an empty last field) is no field, as in every dialect.
                c += bytes[c + 1] == 0x0A ? 2 : 3
            } else {
                fail(&out, row: row, diagnose(rowStart, end))
                break
            }
            samples.append(Sample(timestamp: t, accel: Vector3(values[0], values[1], values[2]), gyro: gyro))
            rowEnds.append(Int32(truncatingIfNeeded: c - base))
            previous = t
        }
        out.samples = samples
        out.rowEnds = rowEnds
        return out
    }

    /// Parses the event line starting at `p` (its first byte is `#`), placed before row `row`.
    /// - Returns: the event and the start of the next line, or the error (its `line` nil).
    @inline(never)
    func parseEvent(_ p: UnsafePointer<UInt8>, _ blockEnd: UnsafePointer<UInt8>, row: Int) -> Result<(RecordingEvent, UnsafePointer<UInt8>), RecordingError> {
        let lineEnd = Self.lineEnd(p, blockEnd)
        let bytes = UnsafeBufferPointer(start: p, count: lineEnd - p)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(RecordingError(file: path, line: nil, column: 1, problem: "event line is not valid UTF-8: \(DiagnosticText.quoted(bytes, limit: 60))"))
        }
        switch RecordingEvent.parse(Substring(text)) {
        case .success(var event):
            event.sampleIndex = row
            return .success((event, lineEnd + 1))
        case .failure(let problem):
            let names = ["event kind", "event time"]
            let name = problem.column.map { $0 <= names.count ? names[$0 - 1] : "event detail" }
            return .failure(RecordingError(file: path, line: nil, column: problem.column, columnName: name, problem: problem.problem))
        }
    }

    private func fail(_ out: inout RecordingParsedBlock, row: Int, _ error: RecordingError) {
        out.failureRow = row
        out.failure = .malformed(error)
    }

    /// The position of the `\n` that ends the line containing `p` (the block ends with one).
    @inline(__always)
    static func lineEnd(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        guard p < end, let nl = memchr(p, 0x0A, end - p) else { return end }
        return UnsafePointer(nl.assumingMemoryBound(to: UInt8.self))
    }

    // MARK: - Labels

    /// Converts label bytes to `String`s, reusing the previous one when the bytes repeat.
    private struct LabelCache {
        enum Field { case value(String?), comma, quoted, notPrintable }
        var lastBytes: [UInt8] = []
        var last: String?

        mutating func label(_ p: UnsafePointer<UInt8>, _ n: Int) -> Field {
            if n == 0 { return .value(nil) }
            if n == lastBytes.count, last != nil, lastBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, p, n) == 0 }) {
                return .value(last)
            }
            let bytes = UnsafeBufferPointer(start: p, count: n)
            if bytes.contains(0x2C) { return .comma }
            if bytes.contains(0x22) { return .quoted }
            guard DiagnosticText.isPrintable(bytes), let text = String(validating: bytes, as: UTF8.self) else { return .notPrintable }
            lastBytes = Array(bytes)
            last = text
            return .value(text)
        }
    }

    // MARK: - Errors (cold paths)

    /// An error in the label field.
    private func labelError(_ problem: String) -> RecordingError {
        RecordingError(file: path, line: nil, column: columnNames.count, columnName: "label", problem: problem)
    }

    /// Explains why the line starting at `p` failed the fast parse: column count, or the first bad
    /// field (its column always named). The error's `line` is nil (filled in by the reader).
    @inline(never)
    func diagnose(_ p: UnsafePointer<UInt8>, _ blockEnd: UnsafePointer<UInt8>) -> RecordingError {
        var n = Self.lineEnd(p, blockEnd) - p
        if n > 0 && p[n - 1] == 0x0D { n -= 1 }
        if n == 0 { return RecordingError(file: path, line: nil, column: 1, problem: "empty line") }
        var fields: [(Int, Int)] = []
        var start = 0
        for i in 0...n where i == n || p[i] == 0x2C {
            fields.append((start, i - start))
            start = i + 1
        }
        if fields.count == columnNames.count + 1, fields[fields.count - 1].1 == 0 {
            fields.removeLast()  // a trailing separator, as the fast parse reads it
        }
        if fields.count != columnNames.count {
            // The column where the line stops matching: the first missing or the first extra one.
            let column = min(fields.count, columnNames.count) + 1
            return RecordingError(file: path, line: nil, column: column, columnName: column <= columnNames.count ? columnNames[column - 1] : nil,
                                  problem: "expected \(columnNames.count) columns (\(columnNames.joined(separator: ","))), found \(fields.count)")
        }
        let (t0, tn) = fields[0]
        if let problem = timeProblem(p + t0, tn) {
            return RecordingError(file: path, line: nil, column: 1, columnName: columnNames[0], problem: problem)
        }
        for k in 1..<fields.count where columnNames[k] != "label" {
            let (s, len) = fields[k]
            let rule = k <= 3 ? InputLimits.acceleration : InputLimits.angularRate
            if let problem = Self.valueProblem(p + s, len, rule: rule) {
                return RecordingError(file: path, line: nil, column: k + 1, columnName: columnNames[k], problem: problem)
            }
        }
        if hasLabels, let (s, len) = fields.last {
            let label = UnsafeBufferPointer(start: p + s, count: len)
            if label.contains(0x22) {
                return RecordingError(file: path, line: nil, column: columnNames.count, columnName: "label",
                                      problem: "quoted fields are not supported (\(DiagnosticText.quoted(label)))")
            }
            if !DiagnosticText.isPrintable(label) {
                return RecordingError(file: path, line: nil, column: columnNames.count, columnName: "label",
                                      problem: "label \(DiagnosticText.quoted(label)) is not printable UTF-8 text (control characters and invalid bytes are not allowed)")
            }
        }
        return RecordingError(file: path, line: nil, column: 1, problem: "malformed line \(DiagnosticText.quoted(UnsafeBufferPointer(start: p, count: n)))")
    }

    /// What is wrong with the time field at `p` (`n` bytes), or nil when it is a valid time.
    private func timeProblem(_ p: UnsafePointer<UInt8>, _ n: Int) -> String? {
        let field = UnsafeBufferPointer(start: p, count: n)
        if n == 0 { return "empty field" }
        if seconds {
            if let ns = DecimalScanner.parseSecondsAsNanoseconds(p, n) {
                return InputLimits.containsTimestamp(ns) ? nil : "time \(DiagnosticText.quoted(field)) s is out of range (allowed \(InputLimits.secondsRangeText))"
            }
            if DecimalScanner.parseDouble(p, n)?.isFinite == true {
                return "time \(DiagnosticText.quoted(field)) s is out of range (allowed \(InputLimits.secondsRangeText))"
            }
            return Self.valueProblem(p, n, rule: nil) ?? "bad time \(DiagnosticText.quoted(field))"
        }
        if let t = DecimalScanner.parseInt64(p, n) {
            return InputLimits.containsTimestamp(t) ? nil : "timestamp \(t) ns is out of range (allowed \(InputLimits.timestampRangeText))"
        }
        if DecimalScanner.parseDouble(p, n) != nil {
            let digits = field.drop(while: { $0 == 0x2B || $0 == 0x2D })
            if !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                return "timestamp \(DiagnosticText.quoted(field)) ns is out of range (allowed \(InputLimits.timestampRangeText))"
            }
            return "bad timestamp \(DiagnosticText.quoted(field)) (expected integer nanoseconds within \(InputLimits.timestampRangeText))"
        }
        return "bad timestamp \(DiagnosticText.quoted(field))"
    }

    /// What is wrong with the value field at `p` (`n` bytes), or nil when it is a number within
    /// `rule` (any finite number without a rule).
    static func valueProblem(_ p: UnsafePointer<UInt8>, _ n: Int, rule: ValueRule?) -> String? {
        let field = UnsafeBufferPointer(start: p, count: n)
        if n == 0 { return "empty field" }
        if let v = DecimalScanner.parseDouble(p, n) {
            if let rule {
                return rule.contains(v) ? nil : rule.problem(DiagnosticText.quoted(field))
            }
            return v.isFinite ? nil : "value \(DiagnosticText.quoted(field)) is out of range (infinite)"
        }
        let text = String(decoding: field, as: UTF8.self).lowercased()
        if text.contains("nan") { return "NaN is not allowed (\(DiagnosticText.quoted(field)))" }
        if text.contains("inf") { return "infinity is not allowed (\(DiagnosticText.quoted(field)))" }
        return "bad number \(DiagnosticText.quoted(field))"
    }
}
