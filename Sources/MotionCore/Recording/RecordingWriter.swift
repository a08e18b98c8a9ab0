import MotionSystem

/// Writes a recording, appending whole rows per delivered batch, to an ``OutputFile``: a journal
/// (capture), an atomic file (convert) or a stream (a pipe, standard output).
///
/// - **Journal** (``init(path:header:fsync:replaceExisting:)``, capture's recording): the file is
///   created at its final path (no temporary file and rename), the header block is written and
///   `fsync`ed at creation (and the directory entry too), then each ``append(_:labels:)`` issues
///   one `write(2)` with every row of the batch, so the kernel always holds whole rows. Durability
///   follows ``FsyncPolicy``; a crash (power loss) loses at most the rows written after the last
///   `fsync`, and may leave one torn final line, which ``RecordingReader`` drops with a warning.
/// - **Atomic** (``init(output:header:fsync:)`` with an ``OutputFile`` in `.atomic` mode): rows
///   go to a temporary file that ``close()`` syncs and renames into place; a failure, a signal or
///   ``discard()`` leaves no partial file and any previous file untouched. The policy is moot.
/// - **Stream**: written directly, never `fsync`ed.
///
/// Call ``close()`` at the end: a writer released without it discards an atomic output and closes
/// a journal without a final `fsync`.
///
/// The writer refuses anything the reader would refuse, so that every file it writes reads back:
/// timestamps must strictly increase and lie within ``InputLimits/timestampNanoseconds``, values
/// within ±``InputLimits/sampleMagnitude``, labels and header entries printable text, declared
/// rates within ``InputLimits/rate``.
///
/// Values are written in the shortest decimal form that converts back to the same `Double`
/// (Swift's `description`), timestamps as integer nanoseconds, so reading gives back exactly
/// the samples written. The exception: in a column whose `channel.*` header entry declares the
/// device's `scale=`, a value equal (within two ulps) to `raw × scale` is written as that exact
/// decimal, with no more decimals than the scale (``RecordingValueFormat``): reading gives the
/// double nearest to `raw × scale`, and `raw` survives exactly.
public final class RecordingWriter {
    /// When the writer calls `fsync(2)` (journal outputs only).
    public enum FsyncPolicy: Hashable, Sendable {
        /// After every batch: at most the batch being written is lost.
        case everyBatch
        /// When at least `seconds` of *sample time* (timestamps, not the wall clock) have passed
        /// since the last `fsync`: at most about that much data (plus one batch) is lost.
        case interval(seconds: Double)
        /// Only in ``RecordingWriter/close()``: cheapest; a crash may lose everything after the header.
        case onClose
    }

    /// The file being written (the path given; `-` for standard output).
    public let path: String
    /// The header written at creation.
    public let header: RecordingHeader
    /// The durability policy.
    public let fsyncPolicy: FsyncPolicy
    /// Rows written so far.
    public private(set) var samplesWritten = 0
    /// How many times `fsync` has been called on a journal (including the one for the header).
    public private(set) var fsyncCount = 0
    /// Timestamp of the newest row known to be on stable storage, if any (journals only).
    public private(set) var lastSyncedTimestamp: Int64?
    /// Where the rows go.
    public let output: OutputFile

    private var rows: [UInt8] = []
    private var previousTimestamp: Int64?
    private var intervalStart: Int64?
    private var closed = false
    private let intervalNanoseconds: Int64
    /// Per value column (accel_x ... gyro_z), the declared scale's format, if any (own format only).
    private let valueFormats: [RecordingValueFormat?]

    /// Creates the recording at `path` as a journal (see the type), writes the header and `fsync`s it.
    /// A path that names a stream (`-`, a FIFO, a terminal) is written directly, never `fsync`ed.
    /// - Parameters:
    ///   - header: format (``RecordingFormat/current`` or `.plain`), sensors, labels and metadata.
    ///     Missing `channel.*` descriptions are filled in with each column's SI unit.
    ///   - fsync: the durability policy.
    ///   - replaceExisting: truncate an existing file instead of failing (`open` with `O_EXCL`, errno `EEXIST`).
    /// - Throws: ``SystemError`` from `open`/`write`/`fsync`; ``RecordingError`` for metadata
    ///   that cannot be written (keys with spaces or `:`, values with control characters, a bad
    ///   rate, an unsupported version).
    public convenience init(path: String, header: RecordingHeader, fsync: FsyncPolicy = .everyBatch, replaceExisting: Bool = false) throws {
        var checked = header
        _ = try Self.headerText(&checked, path: path)  // refuse bad metadata before creating anything
        let output = try OutputFile(path: path, mode: .journal(replace: replaceExisting))
        try self.init(output: output, header: header, fsync: fsync)
    }

    /// Writes a recording into `output` (which the writer then owns): the header now, the rows
    /// with each ``append(_:labels:)``, and ``close()`` commits it.
    /// - Throws: ``RecordingError`` for metadata that cannot be written (the output is discarded),
    ///   ``SystemError`` from the writes.
    public init(output: OutputFile, header: RecordingHeader, fsync: FsyncPolicy = .onClose) throws {
        if case .interval(let s) = fsync {
            precondition(InputLimits.duration.contains(s), "fsync interval must be within \(InputLimits.duration.rangeText)")
            intervalNanoseconds = Int64((s * 1e9).rounded())
        } else {
            intervalNanoseconds = 0
        }
        self.output = output
        self.path = output.path
        self.fsyncPolicy = fsync
        var header = header
        let text: String
        do { text = try Self.headerText(&header, path: output.path) } catch {
            output.discard()
            throw error
        }
        self.header = header
        let valueColumns = header.columns.dropFirst().filter { $0 != "label" }
        valueFormats = valueColumns.map { column in
            guard header.format != .plain, let description = header.metadata[RecordingKey.channelPrefix + column] else { return nil }
            return RecordingValueFormat(channelDescription: description)
        }
        try output.write(Array(text.utf8))
        if output.kind == .journal {
            try output.sync()
            fsyncCount = 1
        }
    }

    deinit {
        if !closed { output.discard() }
    }

    /// Appends every sample of `batch` as rows, in one `write(2)`, then `fsync`s if the policy says so.
    ///
    /// The batch is validated before anything is written: timestamps must strictly increase (also
    /// across batches) and lie within ``InputLimits/timestampNanoseconds``, values must be finite
    /// and within ±``InputLimits/sampleMagnitude``, and labels (required count: one per sample when
    /// the header has a label column) must be printable text without `,` or `"`.
    /// - Parameter labels: one label per sample (`nil` for an empty field); ignored when the
    ///   header has no label column; `nil` writes empty labels.
    /// - Throws: ``RecordingError`` (nothing written) or ``SystemError``.
    /// - Complexity: O(batch size).
    public func append(_ batch: SampleBatch, labels: [String?]? = nil) throws {
        precondition(!closed, "append after close")
        let samples = batch.samples
        guard !samples.isEmpty else { return }
        let hasGyro = header.sensors.contains(.gyro)
        let plain = header.format == .plain
        if header.hasLabels, let labels, labels.count != samples.count {
            throw writeError(row: 0, column: nil, "got \(labels.count) labels for \(samples.count) samples")
        }
        rows.removeAll(keepingCapacity: true)
        var previous = previousTimestamp
        for (i, s) in samples.enumerated() {
            guard InputLimits.containsTimestamp(s.timestamp) else {
                throw writeError(row: i, column: 1, "timestamp \(s.timestamp) ns is out of range (allowed \(InputLimits.timestampRangeText))")
            }
            if let previous, s.timestamp <= previous {
                throw writeError(row: i, column: 1, "timestamp \(s.timestamp) ns does not increase (previous \(previous) ns)")
            }
            previous = s.timestamp
            if plain { Self.appendSeconds(s.timestamp, to: &rows) } else { rows.append(contentsOf: String(s.timestamp).utf8) }
            var values = [s.accel.x, s.accel.y, s.accel.z]
            if hasGyro { values += [s.gyro.x, s.gyro.y, s.gyro.z] }
            for (k, v) in values.enumerated() {
                guard v.magnitude <= InputLimits.sampleMagnitude else {
                    throw writeError(row: i, column: k + 2, "\(v) cannot be written (values must be finite and within ±\(InputLimits.sampleMagnitude.compactText))")
                }
                rows.append(0x2C)
                if let format = valueFormats[k], format.appendDeviceValue(v, to: &rows) { continue }
                rows.append(contentsOf: v.description.utf8)
            }
            if header.hasLabels {
                rows.append(0x2C)
                if let label = labels?[i] ?? nil {
                    if label.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 }) || !DiagnosticText.isPrintable(label.utf8) {
                        throw writeError(row: i, column: header.columns.count, "label \(DiagnosticText.quoted(label)) contains a comma, a quote or a control character")
                    }
                    rows.append(contentsOf: label.utf8)
                }
            }
            rows.append(0x0A)
        }
        try output.write(rows)
        previousTimestamp = previous
        samplesWritten += samples.count
        let last = samples[samples.count - 1].timestamp
        switch fsyncPolicy {
        case .everyBatch:
            try sync(upTo: last)
        case .interval:
            let start = intervalStart ?? samples[0].timestamp
            intervalStart = start
            if last - start >= intervalNanoseconds {
                try sync(upTo: last)
                intervalStart = last
            }
        case .onClose:
            break
        }
    }

    /// Finishes the recording: a journal `fsync`s any rows not yet synced and is closed; an
    /// atomic output is synced and renamed into place; a stream is closed. Idempotent.
    public func close() throws {
        guard !closed else { return }
        closed = true
        if output.kind == .journal, let p = previousTimestamp, p != lastSyncedTimestamp {
            do { try sync(upTo: p) } catch { output.discard(); throw error }
        }
        try output.commit()
    }

    /// Abandons the recording: an atomic output leaves nothing behind (any previous file stays as
    /// it was); a journal keeps the rows written. Idempotent.
    public func discard() {
        guard !closed else { return }
        closed = true
        output.discard()
    }

    private func sync(upTo timestamp: Int64) throws(SystemError) {
        guard output.kind == .journal else { return }
        try output.sync()
        fsyncCount += 1
        lastSyncedTimestamp = timestamp
    }

    private func writeError(row: Int, column: Int?, _ problem: String) -> RecordingError {
        let headerLines = header.format == .plain ? 1 : header.metadata.count + 2
        return RecordingError(file: path, line: headerLines + samplesWritten + row + 1, column: column,
                              columnName: column.map { header.columns[$0 - 1] }, problem: problem)
    }

    /// Appends `ns` as exact decimal seconds (`12.5`, `0.005035`, `3`).
    static func appendSeconds(_ ns: Int64, to out: inout [UInt8]) {
        if ns < 0 { out.append(0x2D) }
        let magnitude = ns.magnitude
        out.append(contentsOf: String(magnitude / 1_000_000_000).utf8)
        var fraction = magnitude % 1_000_000_000
        guard fraction != 0 else { return }
        var digits = 9
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let text = String(fraction)
        out.append(0x2E)
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits - text.utf8.count))
        out.append(contentsOf: text.utf8)
    }

    /// The header block and column line; fills in default channel descriptions.
    static func headerText(_ header: inout RecordingHeader, path: String) throws -> String {
        let columns = header.columns
        guard case .motionbatch(let version) = header.format else {
            return columns.joined(separator: ",") + "\n"
        }
        guard version == RecordingFormat.currentVersion else {
            throw RecordingError(file: path, line: nil, problem: "cannot write format version \(version) (this writer writes version \(RecordingFormat.currentVersion))")
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
