import MotionSystem

/// Formats a recording as text, without I/O: the header block and column line
/// (``headerText``), then rows batch by batch (``encode(_:labels:into:)``), validating everything
/// first so that what it produces, ``RecordingReader`` reads back (see ``RecordingWriter``, which
/// writes its output to a file or stream).
///
/// Values are printed shortest-round-trip (Swift's `description`), or as the exact decimal
/// `raw × scale` in a column whose `channel.*` entry declares the device's `scale=`
/// (``RecordingValueFormat``); timestamps as integer nanoseconds (plain CSV: exact decimal seconds).
public struct RecordingEncoder {
    /// The header, with default `channel.*` descriptions filled in.
    public let header: RecordingHeader
    /// The header block and column line, UTF-8.
    public let headerText: [UInt8]
    /// Rows encoded so far.
    public private(set) var rowsEncoded = 0
    /// Event lines encoded so far.
    public private(set) var eventsEncoded = 0
    /// The file name used in errors.
    private let path: String
    private var previousTimestamp: Int64?
    /// Per value column (accel_x ... gyro_z), the declared scale's format, if any (own format only).
    private let valueFormats: [RecordingValueFormat?]

    /// Prepares the header.
    /// - Throws: ``RecordingError`` for metadata that cannot be written (keys with spaces or `:`,
    ///   values with control characters or surrounding spaces, a bad rate, a channel entry for a
    ///   missing column or in another unit, an unsupported version).
    public init(header: RecordingHeader, path: String) throws(RecordingError) {
        var header = header
        headerText = Array(try Self.headerText(&header, path: path).utf8)
        self.header = header
        self.path = path
        let valueColumns = header.columns.dropFirst().filter { $0 != "label" }
        valueFormats = valueColumns.map { column in
            guard header.format != .plain, let description = header.metadata[RecordingKey.channelPrefix + column] else { return nil }
            return RecordingValueFormat(channelDescription: description)
        }
    }

    /// Appends the rows of `samples` to `out` after validating all of them (nothing is appended
    /// when one is refused: `out` is cut back to its length before).
    /// - Throws: ``RecordingError`` naming the row's line and column.
    /// - Complexity: O(samples.count); allocates nothing once `out` has grown to a batch's rows
    ///   (numbers are formatted straight into it).
    public mutating func encode(_ samples: [Sample], labels: [String?]?, into out: inout [UInt8]) throws(RecordingError) {
        guard !samples.isEmpty else { return }
        let hasGyro = header.sensors.contains(.gyro)
        let plain = header.format == .plain
        if header.hasLabels, let labels, labels.count != samples.count {
            throw writeError(row: 0, column: nil, "got \(labels.count) labels for \(samples.count) samples")
        }
        let start = out.count
        var previous = previousTimestamp
        let values = hasGyro ? 6 : 3
        for i in samples.indices {
            let s = samples[i]
            guard InputLimits.containsTimestamp(s.timestamp) else {
                out.removeLast(out.count - start)
                throw writeError(row: i, column: 1, "timestamp \(s.timestamp) ns is out of range (allowed \(InputLimits.timestampRangeText))")
            }
            if let previous, s.timestamp <= previous {
                out.removeLast(out.count - start)
                throw writeError(row: i, column: 1, "timestamp \(s.timestamp) ns does not increase (previous \(previous) ns)")
            }
            previous = s.timestamp
            if plain { Self.appendSeconds(s.timestamp, to: &out) } else { DecimalDigits.append(s.timestamp, to: &out) }
            for k in 0..<values {
                let v = k < 3 ? s.accel[k] : s.gyro[k - 3]
                guard v.magnitude <= InputLimits.sampleMagnitude else {
                    out.removeLast(out.count - start)
                    throw writeError(row: i, column: k + 2, "\(v) cannot be written (values must be finite and within ±\(InputLimits.sampleMagnitude.compactText))")
                }
                out.append(0x2C)
                if let format = valueFormats[k], format.appendDeviceValue(v, to: &out) { continue }
                DecimalDigits.appendShortest(v, to: &out)
            }
            if header.hasLabels {
                out.append(0x2C)
                if let label = labels?[i] ?? nil {
                    if label.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 }) || !DiagnosticText.isPrintable(label.utf8) {
                        out.removeLast(out.count - start)
                        throw writeError(row: i, column: header.columns.count, "label \(DiagnosticText.quoted(label)) contains a comma, a quote or a control character")
                    }
                    out.append(contentsOf: label.utf8)
                }
            }
            out.append(0x0A)
        }
        previousTimestamp = previous
        rowsEncoded += samples.count
    }

    /// The event line (format version 2: ``RecordingEvent/line``) with its newline, placed after
    /// the rows encoded so far.
    /// - Throws: ``RecordingError`` for a header without event lines (plain CSV, version 1) or
    ///   details that cannot be written.
    public mutating func encode(event: RecordingEvent) throws(RecordingError) -> [UInt8] {
        guard header.format.hasEventLines else {
            throw RecordingError(file: path, line: nil, problem: "event lines need MotionBatch format version 2 (this file is \(header.format == .plain ? "plain CSV" : "an older version"))")
        }
        if let p = event.problem { throw RecordingError(file: path, line: nil, problem: p) }
        eventsEncoded += 1
        return Array((event.line + "\n").utf8)
    }

    private func writeError(row: Int, column: Int?, _ problem: String) -> RecordingError {
        let headerLines = header.format == .plain ? 1 : header.metadata.count + 2
        return RecordingError(file: path, line: headerLines + rowsEncoded + eventsEncoded + row + 1, column: column,
                              columnName: column.map { header.columns[$0 - 1] }, problem: problem)
    }

    /// Appends `ns` as exact decimal seconds (`12.5`, `0.005035`, `3`).
    static func appendSeconds(_ ns: Int64, to out: inout [UInt8]) {
        if ns < 0 { out.append(0x2D) }
        let magnitude = ns.magnitude
        DecimalDigits.append(magnitude / 1_000_000_000, to: &out)
        var fraction = magnitude % 1_000_000_000
        guard fraction != 0 else { return }
        var digits = 9
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        out.append(0x2E)
        for _ in 0..<(digits - DecimalDigits.count(fraction)) { out.append(UInt8(ascii: "0")) }
        DecimalDigits.append(fraction, to: &out)
    }

    /// The header block and column line; fills in default channel descriptions.
    static func headerText(_ header: inout RecordingHeader, path: String) throws(RecordingError) -> String {
        let columns = header.columns
        guard case .motionbatch(let version) = header.format else {
            return columns.joined(separator: ",") + "\n"
        }
        // Every version the reader reads (a version-1 header stays version 1: no event lines).
        guard RecordingFormat.readableVersions.contains(version) else {
            let known = RecordingFormat.readableVersions.map(String.init).joined(separator: " and ")
            throw RecordingError(file: path, line: nil, problem: "cannot write format version \(version) (this writer writes versions \(known))")
        }
        for c in columns {
            if let unit = RecordingHeader.unit(of: c), header.metadata[RecordingKey.channelPrefix + c] == nil {
                header.metadata[RecordingKey.channelPrefix + c] = unit
            }
        }
        for (key, value) in header.metadata.sorted(by: { $0.key < $1.key }) {
            let badKey = key.isEmpty || key == RecordingKey.formatVersion || key.contains(where: { $0 == ":" || $0 == " " })
                || !DiagnosticText.isPrintable(key.utf8)
            if badKey || !DiagnosticText.isPrintable(value.utf8) || value.hasPrefix(" ") || value.hasSuffix(" ") {
                throw RecordingError(file: path, line: nil, problem: "header entry \(DiagnosticText.quoted(key + ": " + value, limit: 80)) cannot be written (keys: no spaces, ':' or control characters; values: printable text without control characters or surrounding spaces)")
            }
            if RecordingHeaderParser.rateKeys.contains(key), let problem = RecordingHeaderParser.rateProblem(value) {
                throw RecordingError(file: path, line: nil, problem: "header entry '\(key)': \(problem)")
            }
            if key.hasPrefix(RecordingKey.channelPrefix) {
                let channel = String(key.dropFirst(RecordingKey.channelPrefix.count))
                guard columns.contains(channel), let unit = RecordingHeader.unit(of: channel) else {
                    throw RecordingError(file: path, line: nil, problem: "header entry '\(key)' describes a channel that is not a data column")
                }
                let given = value.split(whereSeparator: { $0 == " " || $0 == "," }).first.map(String.init) ?? ""
                guard given == unit else {
                    throw RecordingError(file: path, line: nil, problem: "header entry '\(key)': unit \(DiagnosticText.quoted(given)) is not supported (expected \(unit))")
                }
            }
        }
        var text = "# \(RecordingKey.formatVersion): \(version)\n"
        let standard = [RecordingKey.device, RecordingKey.source, RecordingKey.clock]
        let standardTail = [RecordingKey.requestedHz, RecordingKey.actualHz, RecordingKey.batching, RecordingKey.startUTC]
        let channelKeys = columns.map { RecordingKey.channelPrefix + $0 }
        var order = (standard + channelKeys + standardTail).filter { header.metadata[$0] != nil }
        let rest = header.metadata.keys.filter { !order.contains($0) }.sorted()
        order += rest
        for key in order { text += "# \(key): \(header.metadata[key]!)\n" }
        return text + columns.joined(separator: ",") + "\n"
    }
}
