/// A binary device reader (GT3X, CWA): decodes its input straight into the caller's array.
protocol DeviceSampleSource: AnyObject {
    /// The file named in errors and warnings.
    var name: String { get }
    /// Dialect, columns and metadata.
    var header: RecordingHeader { get }
    /// Defects the decoder tolerated.
    var warnings: [RecordingWarning] { get }
    /// The number of the last record or block read.
    var lineNumber: Int { get }
    /// Bytes of the input consumed so far.
    var bytesRead: Int { get }
    /// Decodes samples into `out` until it has no room, the rule failed, or the input ends (the
    /// only case in which it returns with room left).
    func decode(into out: inout DeviceSampleWriter) throws
}

/// The ``RecordingRowReader`` of the binary device readers (GT3X, CWA): the defect rule of
/// ``TimestampDefectFilter`` for samples whose times the decoder generates, checked per sample
/// in one comparison (``DeviceSampleWriter``) as the decoder writes them into the caller's array,
/// instead of the general filter's per-row bookkeeping.
///
/// A decoder's times increase strictly within a record or block (`start + i × step`, step > 0),
/// so no two of its samples share a timestamp: duplicate rows and equal timestamps (the filter's
/// other cases) cannot arise, and a sample whose time is not after the last kept one comes
/// from a record or block that steps back. As the rule says, it is dropped when it is at most
/// ``TimestampDefectFilter/backwardTolerance`` earlier (`backward-step`, counted per sample), and
/// beyond that the input is refused with the record or block and both times (the samples before
/// it are appended).
final class DeviceOrderedRows: RecordingRowReader {
    private let source: any DeviceSampleSource
    private var order: DeviceSampleOrder
    /// An error of the source met while decoding (thrown once the array holds the samples before it).
    private var sourceError: (any Error)?

    /// The time column's name, in errors.
    static let timeColumn = "timestamp"
    /// Samples decoded per append at the most (the array grows by this much when asked for more).
    static let piece = 1 << 16

    init(source: any DeviceSampleSource) {
        self.source = source
        order = DeviceSampleOrder(file: source.name)
    }

    var header: RecordingHeader { source.header }
    var warnings: [RecordingWarning] {
        var t = RecordingWarningTally()
        for w in source.warnings { t.add(w) }
        for w in order.tally.warnings { t.add(w) }
        return t.warnings
    }
    var lineNumber: Int { source.lineNumber }
    var bytesRead: Int { source.bytesRead }

    func read(into samples: inout [Sample], labels _: inout [String?], maxSamples: Int) throws -> Int {
        if let error = sourceError { throw error }
        if let failure = order.failure { throw failure }
        var produced = 0
        while produced < maxSamples {
            let want = min(maxSamples - produced, Self.piece)
            DeviceSampleWriter.reserve(&samples, want)
            let before = samples.count
            lastWritten = 0
            samples.append(contentsOf: Fill(rows: self, limit: want))
            let written = samples.count - before
            precondition(written == lastWritten, "the decoded samples were not appended in place")
            produced += written
            if let error = sourceError { throw error }
            if let failure = order.failure { throw failure }
            if written < want { break }
        }
        return produced
    }

    private var lastWritten = 0

    /// Decodes up to `limit` samples into `buffer` (uninitialised): how many it holds.
    fileprivate func fill(_ buffer: UnsafeMutableBufferPointer<Sample>, limit: Int) -> Int {
        var w = DeviceSampleWriter(buffer, capacity: min(limit, buffer.count), order: order)
        // The state is the writer's for the call (one owner of the tally: no copy when it grows).
        order = DeviceSampleOrder(file: order.file)
        do {
            try source.decode(into: &w)
        } catch {
            sourceError = error
        }
        order = w.order
        lastWritten = w.count
        return w.count
    }

    /// Appended to the caller's array, decodes into its spare capacity: `Array.append(contentsOf:)`
    /// hands a sequence's `_copyContents` the uninitialised storage after the elements (the
    /// count written is checked in ``read(into:labels:maxSamples:)``).
    private struct Fill: Sequence {
        let rows: DeviceOrderedRows
        let limit: Int
        var underestimatedCount: Int { 0 }
        func makeIterator() -> EmptyCollection<Sample>.Iterator { EmptyCollection<Sample>().makeIterator() }
        func _copyContents(initializing buffer: UnsafeMutableBufferPointer<Sample>) -> (EmptyCollection<Sample>.Iterator, Int) {
            (makeIterator(), rows.fill(buffer, limit: limit))
        }
    }

    func stop() {}
}
