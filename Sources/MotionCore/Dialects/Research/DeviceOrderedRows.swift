/// The ``RecordingRowReader`` of the binary device readers (GT3X, CWA): the defect rule of
/// ``TimestampDefectFilter`` for samples whose times the decoder generates, checked per sample
/// in one comparison instead of the general filter's per-row bookkeeping.
///
/// A decoder's times increase strictly within a record or block (`start + i × step`, step > 0),
/// so no two of its samples share a timestamp: duplicate rows and equal timestamps (the filter's
/// other cases) cannot arise, and a sample whose time is not after the last kept one comes
/// from a record or block that steps back. As the rule says, it is dropped when it is at most
/// ``TimestampDefectFilter/backwardTolerance`` earlier (`backward-step`, counted per sample), and
/// beyond that the input is refused with the record or block and both times.
final class DeviceOrderedRows: RecordingRowReader {
    private let source: any RecordingSampleSource
    private var tally = RecordingWarningTally()
    private var lines: [Int] = []
    private var labels: [String?] = []
    private var last: Int64?
    private var lastLine = 0

    init(source: any RecordingSampleSource) { self.source = source }

    var header: RecordingHeader { source.header }
    var warnings: [RecordingWarning] {
        var t = RecordingWarningTally()
        for w in source.warnings { t.add(w) }
        for w in tally.warnings { t.add(w) }
        return t.warnings
    }
    var lineNumber: Int { source.lineNumber }
    var bytesRead: Int { source.bytesRead }

    func read(into samples: inout [Sample], labels _: inout [String?], maxSamples: Int) throws -> Int {
        var produced = 0
        while produced < maxSamples {
            let start = samples.count
            lines.removeAll(keepingCapacity: true)
            let n = try source.read(into: &samples, labels: &labels, lines: &lines, maxSamples: maxSamples - produced)
            if n == 0 { break }
            produced += try keepIncreasing(&samples, from: start)
        }
        return produced
    }

    /// Drops, in place, the samples from `start` on that are not after the last kept one.
    /// - Returns: how many were kept.
    private func keepIncreasing(_ samples: inout [Sample], from start: Int) throws -> Int {
        var write = start
        var last = self.last ?? Int64.min
        for read in start..<samples.count {
            let t = samples[read].timestamp
            if t > last {
                if write != read { samples[write] = samples[read] }
                write += 1
                last = t
                lastLine = lines[read - start]
                continue
            }
            let back = last - t
            guard back <= TimestampDefectFilter.backwardTolerance else {
                throw RecordingError(file: source.name, line: lines[read - start], column: 1, columnName: source.timeColumn,
                                     problem: "timestamp \(t) ns goes back \((Double(back) / 1e9).compactText) s (record or block \(lastLine) has \(last) ns): more than the 1 s tolerated (the clock set back, or recordings joined?)")
            }
            tally.add(.backwardStep, file: source.name, line: lines[read - start],
                      message: "sample dropped: its time is up to 1 s earlier than the sample before it (a record or block that steps back)")
        }
        if write > start { self.last = last }
        samples.removeLast(samples.count - write)
        return write - start
    }

    func stop() { source.stop() }
}
