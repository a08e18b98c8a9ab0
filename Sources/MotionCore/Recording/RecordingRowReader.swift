/// What a dialect's reader provides to ``RecordingReader``, which wraps every dialect: the header
/// it parsed, then the samples in file order. Implementations are strict (every malformed line a
/// ``RecordingError`` with file, line and column) and tolerate defects only with a
/// ``RecordingWarning``. ``RecordingReader`` keeps the first error and rethrows it on every
/// later call, so an implementation need not remember that it failed.
public protocol RecordingRowReader: AnyObject {
    /// Dialect, columns and metadata.
    var header: RecordingHeader { get }
    /// Tolerated defects met so far.
    var warnings: [RecordingWarning] { get }
    /// The number of the last line (or record) read, 1-based; header lines count.
    var lineNumber: Int { get }
    /// Bytes of the input consumed so far (for progress).
    var bytesRead: Int { get }

    /// Appends up to `maxSamples` samples (and, with a label column, their labels) to the
    /// arrays; at a bad line the samples before it are appended and the error is thrown.
    /// - Returns: the number appended; 0 at the end.
    func read(into samples: inout [Sample], labels: inout [String?], maxSamples: Int) throws -> Int

    /// The next chunk when it can be handed over without copying (a whole parsed block of at most
    /// `maxSamples` samples), else nil (nothing consumed; ``read(into:labels:maxSamples:)`` follows).
    func takeWholeChunk(maxSamples: Int) throws -> RecordingChunk?

    /// Stops any work ahead of the caller (threads, decoders) after a failure or when the reader
    /// is released. Idempotent.
    func stop()
}

extension RecordingRowReader {
    /// No whole chunks: every chunk is copied by ``read(into:labels:maxSamples:)``.
    public func takeWholeChunk(maxSamples: Int) throws -> RecordingChunk? { nil }
    /// Nothing to stop.
    public func stop() {}
}
