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

    private var encoder: RecordingEncoder
    private var rows: [UInt8] = []
    private var previousTimestamp: Int64?
    private var intervalStart: Int64?
    private var closed = false
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
        try output.write(encoder.headerText)
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
        try output.write(rows)
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
}
