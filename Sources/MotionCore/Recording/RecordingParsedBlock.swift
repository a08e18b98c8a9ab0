/// The rows of one block of a recording, parsed by ``RecordingRowParser`` (possibly on another
/// thread) and handed out in order by ``RecordingReader``. Line numbers are not known while a block
/// is parsed: rows are counted from the block's first line and errors get their line when delivered.
struct RecordingParsedBlock: Sendable {
    /// Why the row at ``failureRow`` cannot be delivered.
    enum Failure: Sendable {
        /// A malformed row; `error.line` is filled in when the row is reached.
        case malformed(RecordingError)
        /// The row's timestamp `timestamp` does not exceed the previous row's `previous`.
        case order(timestamp: Int64, previous: Int64)
    }

    /// The parsed rows before ``failureRow`` (all rows when there is no failure).
    var samples: [Sample] = []
    /// One label per row in ``samples`` (empty when the file has no label column).
    var labels: [String?] = []
    /// For each row in ``samples``, the offset just past its newline, from the block's start.
    var rowEnds: [Int32] = []
    /// The timestamp of the block's first row, if it parsed (checked against the previous block's last).
    var firstTimestamp: Int64?
    /// Index of the first row that failed, and why.
    var failureRow: Int?
    var failure: Failure?
    /// Bytes of the block (whole lines).
    var byteCount = 0
}

/// One step of the block stream.
enum RecordingBlockResult: Sendable {
    /// Parsed rows.
    case rows(RecordingParsedBlock)
    /// A torn final line of `count` bytes (dropped with a warning).
    case torn(count: Int)
    /// A line longer than the block size.
    case tooLong
    /// The end of the file.
    case end
    /// Reading the source failed.
    case ioError(any Error)
}
