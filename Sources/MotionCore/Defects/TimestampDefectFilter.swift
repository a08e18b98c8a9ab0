/// The documented rule for the timing defects of real phone and device logs
/// (docs/dialects.md, "Defects"), as a pure state machine: rows go in in file order with their
/// line numbers, rows with strictly increasing timestamps come out, and every tolerated defect
/// is counted (``warnings``), never silent.
///
/// - **Exact duplicate** (the same timestamp, values and label as one of the last
///   ``recentRows`` rows: the event delivered twice): dropped (`duplicate-row`). More than
///   ``maxDuplicateRun`` duplicates in a row (one hour of samples at 100 Hz: an endless input of
///   one repeated row or scan, such as `/dev/zero` or a bomb of one line) is an error.
/// - **Equal timestamps, different values** (batched delivery stamped once): the rows sharing a
///   timestamp T are held until the next larger timestamp T' arrives and spread evenly over
///   [T, T'): `T + i·(T'−T)/k` for the i-th of k rows (`equal-timestamps`). After the last row, a
///   group is spread by the stream's last interval; with no interval known, only its first row is
///   kept. More than ``maxGroup`` rows on one timestamp is an error (not a time column).
/// - **Small backward step** (a timestamp earlier than the previous kept one by at most
///   ``backwardTolerance``, 1 s: jitter or a reordered event): the row is dropped
///   (`backward-step`); a larger step back (a clock reset, files joined) is an error naming both lines.
///
/// Memory: the held group (at most ``maxGroup`` rows) and the last ``recentRows`` rows.
public struct TimestampDefectFilter: Sendable {
    /// How far back a timestamp may step and be dropped as jitter rather than refused: 1 s.
    public static let backwardTolerance: Int64 = 1_000_000_000
    /// Most rows one timestamp may carry (a larger group is an error).
    public static let maxGroup = 10_000
    /// Rows compared for exact duplicates.
    public static let recentRows = 8
    /// Most consecutive exact duplicates dropped before the run is an error: 360 000, one hour
    /// at 100 Hz (real logs repeat an event once or twice).
    public static let maxDuplicateRun = 360_000

    private struct Row: Sendable {
        var sample: Sample
        var label: String?
        var line: Int
    }

    /// The file named in errors and warnings.
    public let file: String
    /// The time column's name (errors name it).
    public let timeColumn: String
    /// Whether rows carry labels (passed through).
    public let hasLabels: Bool
    /// The defects met so far.
    public private(set) var tally = RecordingWarningTally()
    /// Counted defects, per kind.
    public var warnings: [RecordingWarning] { tally.warnings }

    private var group: [Row] = []
    private var recent: [Row] = []
    private var recentNext = 0
    private var lastOutput: Int64?
    private var lastOutputLine = 0
    private var lastInterval: Int64?
    /// Consecutive exact duplicates just dropped, and the line of the row they repeat.
    private var duplicateRun = 0
    private var duplicateRunLine = 0

    /// A filter for the rows of `file`.
    public init(file: String, timeColumn: String, hasLabels: Bool) {
        self.file = file
        self.timeColumn = timeColumn
        self.hasLabels = hasLabels
    }

    /// Takes the next row in file order; appends to `samples` (and `labels`, when the rows carry
    /// them) the rows whose timestamps are now final.
    /// - Throws: ``RecordingError`` for a step back beyond ``backwardTolerance``, a group beyond
    ///   ``maxGroup`` or a run of duplicates beyond ``maxDuplicateRun``.
    public mutating func push(_ sample: Sample, label: String?, line: Int, into samples: inout [Sample], labels: inout [String?]) throws {
        let row = Row(sample: sample, label: label, line: line)
        if let original = recentDuplicate(row) {
            if duplicateRun == 0 { duplicateRunLine = original.line }
            duplicateRun += 1
            guard duplicateRun <= Self.maxDuplicateRun else {
                throw RecordingError(file: file, line: line, column: 1, columnName: timeColumn,
                                     problem: "more than \(Self.maxDuplicateRun) consecutive exact duplicates of the rows at line \(duplicateRunLine) (the limit of the tolerated duplicate-row defect: one hour at 100 Hz): an endless input of one repeated row (/dev/zero, a decompression bomb)?")
            }
            tally.add(.duplicateRow, file: file, line: line,
                      message: "exact duplicate row dropped (the same timestamp and values as a row just before it: the event was delivered twice)")
            return
        }
        duplicateRun = 0
        remember(row)
        let t = sample.timestamp
        if let first = group.first {
            let groupTime = first.sample.timestamp
            if t == groupTime {
                guard group.count < Self.maxGroup else {
                    throw RecordingError(file: file, line: line, column: 1, columnName: timeColumn,
                                         problem: "more than \(Self.maxGroup) rows share timestamp \(groupTime) ns (from line \(first.line)): is this the time column?")
                }
                group.append(row)
                return
            }
            if t < groupTime {
                try stepBack(row, reference: groupTime, referenceLine: group[group.count - 1].line)
                return
            }
            release(next: t, into: &samples, labels: &labels)
        } else if let last = lastOutput, t <= last {
            try stepBack(row, reference: last, referenceLine: lastOutputLine)
            return
        }
        group.append(row)
    }

    /// Releases the held group at the end of the input.
    public mutating func finish(into samples: inout [Sample], labels: inout [String?]) {
        guard let first = group.first else { return }
        if group.count == 1 {
            release(next: nil, into: &samples, labels: &labels)
            return
        }
        if let d = lastInterval {
            let span = d.multipliedReportingOverflow(by: Int64(group.count))
            let next = span.overflow ? InputLimits.timestampLimit : min(InputLimits.timestampLimit, first.sample.timestamp.saturatingAdding(span.partialValue))
            release(next: next, into: &samples, labels: &labels)
        } else {
            for r in group.dropFirst() {
                tally.add(.equalTimestamps, file: file, line: r.line,
                          message: "rows share a timestamp with the row before them (batched delivery): spread evenly up to the next timestamp (at the end of the file by the last interval; without one, dropped)")
            }
            group.removeSubrange(1...)
            release(next: nil, into: &samples, labels: &labels)
        }
    }

    /// Emits the held group, spread over `[T, next)` when it holds several rows.
    private mutating func release(next: Int64?, into samples: inout [Sample], labels: inout [String?]) {
        guard let first = group.first else { return }
        let t0 = first.sample.timestamp
        let k = Int64(group.count)
        for (i, r) in group.enumerated() {
            var s = r.sample
            if i > 0 {
                guard let next, next > t0 else { break }
                // t0 + i·(next − t0)/k without overflow: the span fits (both within the limits).
                let offset = Int64(i) * ((next - t0) / k) + Int64(i) * ((next - t0) % k) / k
                let t = t0 + offset
                guard t > (lastOutput ?? t0), t < next else {
                    tally.add(.equalTimestamps, file: file, line: r.line,
                              message: "rows share a timestamp with the row before them (batched delivery): spread evenly up to the next timestamp (where they do not fit, dropped)")
                    continue
                }
                s.timestamp = t
                tally.add(.equalTimestamps, file: file, line: r.line,
                          message: "rows share a timestamp with the row before them (batched delivery): spread evenly up to the next timestamp")
            }
            samples.append(s)
            if hasLabels { labels.append(r.label) }
            lastOutput = s.timestamp
            lastOutputLine = r.line
        }
        if let next, next > t0 { lastInterval = max(1, (next - t0) / k) }
        group.removeAll(keepingCapacity: true)
    }

    /// A row earlier than `reference` (the previous kept or held timestamp): dropped when close, else refused.
    private mutating func stepBack(_ row: Row, reference: Int64, referenceLine: Int) throws {
        let back = reference.subtractingReportingOverflow(row.sample.timestamp)
        guard !back.overflow, back.partialValue <= Self.backwardTolerance else {
            throw RecordingError(file: file, line: row.line, column: 1, columnName: timeColumn,
                                 problem: "timestamp \(row.sample.timestamp) ns goes back \(Self.seconds(back.overflow ? Int64.max : back.partialValue)) s (line \(referenceLine) has \(reference) ns): more than the \(Self.seconds(Self.backwardTolerance)) s tolerated (a clock reset, or recordings joined?)")
        }
        tally.add(.backwardStep, file: file, line: row.line,
                  message: "row dropped: its timestamp is up to \(Self.seconds(Self.backwardTolerance)) s earlier than the row before it (jitter or a reordered event)")
    }

    private func recentDuplicate(_ row: Row) -> Row? {
        recent.first { r in
            r.sample.timestamp == row.sample.timestamp && r.label == row.label && Self.sameBits(r.sample, row.sample)
        }
    }

    private mutating func remember(_ row: Row) {
        if recent.count < Self.recentRows {
            recent.append(row)
        } else {
            recent[recentNext] = row
            recentNext = (recentNext + 1) % Self.recentRows
        }
    }

    private static func sameBits(_ a: Sample, _ b: Sample) -> Bool {
        a.accel.x.bitPattern == b.accel.x.bitPattern && a.accel.y.bitPattern == b.accel.y.bitPattern && a.accel.z.bitPattern == b.accel.z.bitPattern
            && a.gyro.x.bitPattern == b.gyro.x.bitPattern && a.gyro.y.bitPattern == b.gyro.y.bitPattern && a.gyro.z.bitPattern == b.gyro.z.bitPattern
    }

    private static func seconds(_ ns: Int64) -> String { (Double(ns) / 1e9).compactText }
}
