#if canImport(Glibc)
import Glibc
#endif
import MotionSystem

/// Writes a recording file, appending whole rows per delivered batch.
///
/// The file is created at its final path (no temporary file and rename): the header block is
/// written and `fsync`ed at creation (and the directory entry too), then each ``append(_:labels:)``
/// issues one `write(2)` with every row of the batch, so the kernel always holds whole rows.
/// Durability follows ``FsyncPolicy``; a crash (power loss) loses at most the rows written after
/// the last `fsync`, and may leave one torn final line, which ``RecordingReader`` drops with a warning.
///
/// Call ``close()`` at the end: a writer released without it closes the descriptor without a final `fsync`.
/// While it is open the file is locked (`flock(2)`, exclusive): another process can tell that it
/// is being written (``MotionSystem/FileLock/isHeld(_:)``).
///
/// Values are written in the shortest decimal form that converts back to the same `Double`
/// (Swift's `description`), timestamps as integer nanoseconds, so reading gives back exactly
/// the samples written. The exception: in a column whose `channel.*` header entry declares the
/// device's `scale=`, a value equal (within two ulps) to `raw × scale` is written as that exact
/// decimal, with no more decimals than the scale (``RecordingValueFormat``): reading gives the
/// double nearest to `raw × scale`, and `raw` survives exactly.
public final class RecordingWriter {
    /// When the writer calls `fsync(2)`.
    public enum FsyncPolicy: Hashable, Sendable {
        /// After every batch: at most the batch being written is lost.
        case everyBatch
        /// When at least `seconds` of *sample time* (timestamps, not the wall clock) have passed
        /// since the last `fsync`: at most about that much data (plus one batch) is lost.
        case interval(seconds: Double)
        /// Only in ``RecordingWriter/close()``: cheapest; a crash may lose everything after the header.
        case onClose
    }

    /// The file being written.
    public let path: String
    /// The header written at creation.
    public let header: RecordingHeader
    /// The durability policy.
    public let fsyncPolicy: FsyncPolicy
    /// Rows written so far.
    public private(set) var samplesWritten = 0
    /// Event lines written so far.
    public private(set) var eventsWritten = 0
    /// Bytes in the file (header, rows and event lines written so far).
    public private(set) var bytesWritten = 0
    /// How many times `fsync` has been called (including the one for the header).
    public private(set) var fsyncCount = 0
    /// Timestamp of the newest row known to be on stable storage, if any.
    public private(set) var lastSyncedTimestamp: Int64?

    private let file: FileDescriptor
    private var rows: [UInt8] = []
    private var previousTimestamp: Int64?
    private var intervalStart: Int64?
    private var closed = false
    /// Bytes were written since the last `fsync`.
    private var unsynced = false
    private let intervalNanoseconds: Int64
    /// Per value column (accel_x ... gyro_z), the declared scale's format, if any (own format only).
    private let valueFormats: [RecordingValueFormat?]

    /// Creates the file at `path`, writes the header and `fsync`s it.
    /// - Parameters:
    ///   - header: format (``RecordingFormat/current`` or `.plain`), sensors, labels and metadata.
    ///     Missing `channel.*` descriptions are filled in with each column's SI unit.
    ///   - fsync: the durability policy.
    ///   - replaceExisting: truncate an existing file instead of failing (`open` with `O_EXCL`, errno `EEXIST`).
    /// - Throws: ``SystemError`` from `open`/`write`/`fsync`; ``RecordingError`` for metadata
    ///   that cannot be written (keys with spaces or `:`, values with newlines, an unsupported version).
    public init(path: String, header: RecordingHeader, fsync: FsyncPolicy = .everyBatch, replaceExisting: Bool = false) throws {
        if case .interval(let s) = fsync {
            precondition(s.isFinite && s >= 0, "fsync interval must be finite and >= 0")
            intervalNanoseconds = Int64((s * 1e9).rounded())
        } else {
            intervalNanoseconds = 0
        }
        self.path = path
        self.fsyncPolicy = fsync
        var header = header
        let text = try Self.headerText(&header, path: path)
        self.header = header
        let valueColumns = header.columns.dropFirst().filter { $0 != "label" }
        valueFormats = valueColumns.map { column in
            guard header.format != .plain, let description = header.metadata[RecordingKey.channelPrefix + column] else { return nil }
            return RecordingValueFormat(channelDescription: description)
        }
        file = try FileDescriptor.create(path, replaceExisting: replaceExisting)
        do {
            try file.write(Array(text.utf8))
            try file.sync()
            try FileDescriptor.syncDirectory(containing: path)
        } catch {
            // A file that never got its whole header (a full disk) is not left behind.
            try? file.close()
            _ = unlink(path)
            throw error
        }
        bytesWritten = text.utf8.count
        fsyncCount = 1
        // Held while the file is written (released by the kernel however the process ends), so
        // that a recovery tool can tell an open recording from an interrupted one.
        _ = flock(file.rawValue, LOCK_EX | LOCK_NB)
    }

    deinit {
        if !closed { try? file.close() }
    }

    /// Appends every sample of `batch` as rows, in one `write(2)`, then `fsync`s if the policy says so.
    ///
    /// The batch is validated before anything is written: timestamps must strictly increase (also
    /// across batches), values must be finite, and labels (required count: one per sample when the
    /// header has a label column) must not contain `,`, `"`, or line breaks.
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
            if let previous, s.timestamp <= previous {
                throw writeError(row: i, column: 1, "timestamp \(s.timestamp) ns does not increase (previous \(previous) ns)")
            }
            previous = s.timestamp
            if plain { Self.appendSeconds(s.timestamp, to: &rows) } else { rows.append(contentsOf: String(s.timestamp).utf8) }
            var values = [s.accel.x, s.accel.y, s.accel.z]
            if hasGyro { values += [s.gyro.x, s.gyro.y, s.gyro.z] }
            for (k, v) in values.enumerated() {
                guard v.isFinite else { throw writeError(row: i, column: k + 2, "\(v) cannot be written (values must be finite)") }
                rows.append(0x2C)
                if let format = valueFormats[k], format.appendDeviceValue(v, to: &rows) { continue }
                rows.append(contentsOf: v.description.utf8)
            }
            if header.hasLabels {
                rows.append(0x2C)
                if let label = labels?[i] ?? nil {
                    if label.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
                        throw writeError(row: i, column: header.columns.count, "label \"\(label)\" contains a comma, quote or line break")
                    }
                    rows.append(contentsOf: label.utf8)
                }
            }
            rows.append(0x0A)
        }
        try writeWhole(rows)
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

    /// Appends an event line (format version 2: ``RecordingEvent/line``) after the rows written
    /// so far, in one `write(2)`; `fsync`s it with the `.everyBatch` policy (the other policies sync
    /// it with the next rows they sync).
    /// - Throws: ``RecordingError`` for a file of another format or details that cannot be
    ///   written (nothing written); ``SystemError``.
    public func append(event: RecordingEvent) throws {
        precondition(!closed, "append after close")
        guard header.format.hasEventLines else {
            throw RecordingError(file: path, line: nil, problem: "event lines need MotionBatch format version 2 (this file is \(header.format == .plain ? "plain CSV" : "an older version"))")
        }
        if let p = event.problem { throw RecordingError(file: path, line: nil, problem: p) }
        try writeWhole(Array((event.line + "\n").utf8))
        eventsWritten += 1
        if fsyncPolicy == .everyBatch { try sync() }
    }

    /// Writes all of `bytes` at the end of the file; if that fails part-way (a full disk), the
    /// file is cut back to its size before, so that it never ends in a partial line this writer
    /// made (the caller may retry the same rows after freeing space).
    private func writeWhole(_ bytes: [UInt8]) throws(SystemError) {
        do {
            try file.write(bytes)
        } catch {
            _ = ftruncate(file.rawValue, off_t(bytesWritten))
            throw error
        }
        bytesWritten += bytes.count
        unsynced = true
    }

    /// `fsync`s any rows not yet synced and closes the file (`fsync(2)`, `close(2)`). Idempotent.
    public func close() throws {
        guard !closed else { return }
        closed = true
        if unsynced {
            do {
                try file.sync()
                fsyncCount += 1
                if let p = previousTimestamp { lastSyncedTimestamp = p }
            } catch { try? file.close(); throw error }
        }
        try file.close()
    }

    private func sync(upTo timestamp: Int64) throws(SystemError) {
        try file.sync()
        fsyncCount += 1
        lastSyncedTimestamp = timestamp
        unsynced = false
    }

    /// `fsync`s what was written since the last `fsync` now, whatever the policy (e.g. before a
    /// checkpoint that must not describe rows a crash could lose).
    public func sync() throws {
        precondition(!closed, "sync after close")
        guard unsynced else { return }
        try file.sync()
        fsyncCount += 1
        if let p = previousTimestamp { lastSyncedTimestamp = p }
        unsynced = false
    }

    private func writeError(row: Int, column: Int?, _ problem: String) -> RecordingError {
        let headerLines = header.format == .plain ? 1 : header.metadata.count + 2
        return RecordingError(file: path, line: headerLines + samplesWritten + eventsWritten + row + 1, column: column,
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
        for (key, value) in header.metadata {
            let badKey = key.isEmpty || key == RecordingKey.formatVersion || key.contains(where: { $0 == ":" || $0 == " " || $0.isNewline })
            if badKey || value.contains(where: \.isNewline) {
                throw RecordingError(file: path, line: nil, problem: "header entry '\(key): \(value)' cannot be written (keys: no spaces, ':' or line breaks; values: no line breaks)")
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
