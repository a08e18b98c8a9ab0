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
/// a journal without a final `fsync`. While a journal is open it is locked (`flock(2)`, exclusive):
/// another process can tell that it is being written (``MotionSystem/FileLock/isHeld(_:)``). A
/// write that fails part-way (a full disk) is cut back (``append(_:labels:)``), and format version
/// 2 carries event lines among the rows (``append(event:)``: pauses, lost devices).
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
    // The mutable state is read and written once per batch (a capture's per-wake-up path) by the
    // one thread that owns the writer (the type is not Sendable): no dynamic exclusivity check
    // (a runtime call per access) is needed.

    /// Rows written so far.
    @exclusivity(unchecked) public private(set) var samplesWritten = 0
    /// Event lines written so far.
    @exclusivity(unchecked) public private(set) var eventsWritten = 0
    /// Bytes written (header, rows and event lines so far).
    @exclusivity(unchecked) public private(set) var bytesWritten = 0
    /// How many times `fsync` has been called on a journal (including the one for the header).
    @exclusivity(unchecked) public private(set) var fsyncCount = 0
    /// Timestamp of the newest row known to be on stable storage, if any (journals only).
    @exclusivity(unchecked) public private(set) var lastSyncedTimestamp: Int64?
    /// Where the rows go.
    public let output: OutputFile

    @exclusivity(unchecked) private var encoder: RecordingEncoder
    @exclusivity(unchecked) private var rows: [UInt8] = []
    @exclusivity(unchecked) private var previousTimestamp: Int64?
    @exclusivity(unchecked) private var intervalStart: Int64?
    @exclusivity(unchecked) private var closed = false
    /// Bytes were written since the last `fsync`.
    @exclusivity(unchecked) private var unsynced = false
    private let intervalNanoseconds: Int64

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
        _ = try RecordingEncoder(header: header, path: path)  // refuse bad metadata before creating anything
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
        do { encoder = try RecordingEncoder(header: header, path: output.path) } catch {
            output.discard()
            throw error
        }
        self.header = encoder.header
        do {
            try output.write(encoder.headerText)
            if output.kind == .journal { try output.sync() }
        } catch {
            // A journal that never got its whole header (a full disk) is not left behind.
            output.discardRemovingJournal()
            throw error
        }
        bytesWritten = encoder.headerText.count
        if output.kind == .journal { fsyncCount = 1 }
    }

    deinit {
        if !closed { output.discard() }
    }

    /// Appends every sample of `batch` as rows, in one `write(2)`, then `fsync`s if the policy says so.
    ///
    /// The batch is validated before anything is written (``RecordingEncoder``): timestamps must
    /// strictly increase (also across batches) and lie within ``InputLimits/timestampNanoseconds``,
    /// values must be finite and within ±``InputLimits/sampleMagnitude``, and labels (required
    /// count: one per sample when the header has a label column) must be printable text without `,` or `"`.
    /// - Parameter labels: one label per sample (`nil` for an empty field); ignored when the
    ///   header has no label column; `nil` writes empty labels.
    /// - Throws: ``RecordingError`` (nothing written) or ``SystemError``.
    /// - Complexity: O(batch size).
    public func append(_ batch: SampleBatch, labels: [String?]? = nil) throws {
        precondition(!closed, "append after close")
        let samples = batch.samples
        guard !samples.isEmpty else { return }
        rows.removeAll(keepingCapacity: true)
        try encoder.encode(samples, labels: labels, into: &rows)
        try writeWhole(rows)
        samplesWritten += samples.count
        previousTimestamp = samples[samples.count - 1].timestamp
        let last = samples[samples.count - 1].timestamp
        switch fsyncPolicy {
        case .everyBatch:
            try sync(upTo: last)
        case .interval:
            let start = intervalStart ?? samples[0].timestamp
            intervalStart = start
            if last.saturatingSubtracting(start) >= intervalNanoseconds {
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
        try writeWhole(try encoder.encode(event: event))
        eventsWritten += 1
        if fsyncPolicy == .everyBatch { try sync() }
    }

    /// Writes all of `bytes` at the end of the output; if that fails part-way (a full disk), a
    /// journal is cut back to its size before, so that it never ends in a partial line this writer
    /// made (the caller may retry the same rows after freeing space).
    private func writeWhole(_ bytes: [UInt8]) throws(SystemError) {
        do {
            try output.write(bytes)
        } catch {
            try? output.truncate(to: Int64(bytesWritten))
            throw error
        }
        bytesWritten += bytes.count
        unsynced = true
    }

    /// Finishes the recording: a journal `fsync`s anything not yet synced and is closed; an
    /// atomic output is synced and renamed into place; a stream is closed. Idempotent.
    public func close() throws {
        guard !closed else { return }
        closed = true
        if output.kind == .journal, unsynced {
            do {
                try output.sync()
                fsyncCount += 1
                if let p = previousTimestamp { lastSyncedTimestamp = p }
                unsynced = false
            } catch { output.discard(); throw error }
        }
        try output.commit()
    }

    /// `fsync`s what was written since the last `fsync` now, whatever the policy (e.g. before a
    /// checkpoint that must not describe rows a crash could lose). Nothing for other outputs.
    public func sync() throws {
        precondition(!closed, "sync after close")
        guard output.kind == .journal, unsynced else { return }
        try output.sync()
        fsyncCount += 1
        if let p = previousTimestamp { lastSyncedTimestamp = p }
        unsynced = false
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
        unsynced = false
    }
}
