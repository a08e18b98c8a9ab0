/// The samples of a tolerant dialect as its parser reads them: in file order, each with the line
/// (or scan) it came from, timestamps not yet checked for order. ``OrderedRows`` puts them
/// through the ``TimestampDefectFilter``.
protocol RecordingSampleSource: AnyObject {
    /// Dialect, columns and metadata.
    var header: RecordingHeader { get }
    /// Defects the parser tolerated (a torn final line, missing values).
    var warnings: [RecordingWarning] { get }
    /// The number of the last line (scan) read.
    var lineNumber: Int { get }
    /// Bytes of the input consumed so far.
    var bytesRead: Int { get }
    /// The file named in errors and warnings.
    var name: String { get }
    /// The time column's name, for errors.
    var timeColumn: String { get }

    /// Appends up to `maxSamples` rows: samples, labels (only with a label column) and each
    /// row's line. Returns the number appended; 0 at the end.
    func read(into samples: inout [Sample], labels: inout [String?], lines: inout [Int], maxSamples: Int) throws -> Int
    /// Stops work ahead (threads). Idempotent.
    func stop()
}

extension RecordingSampleSource {
    func stop() {}
}

/// A ``RecordingRowReader`` over a ``RecordingSampleSource`` whose rows go through the
/// ``TimestampDefectFilter``: what every dialect except MotionBatch's own format reads through,
/// so that duplicate rows, equal timestamps and small backward steps follow one documented rule
/// and are counted in ``warnings``.
final class OrderedRows: RecordingRowReader {
    private let source: any RecordingSampleSource
    private var filter: TimestampDefectFilter
    private var rawSamples: [Sample] = []
    private var rawLabels: [String?] = []
    private var rawLines: [Int] = []
    private var outSamples: [Sample] = []
    private var outLabels: [String?] = []
    private var outPosition = 0
    private var finished = false

    /// Rows read from the source per step.
    static let step = 4096

    init(source: any RecordingSampleSource) {
        self.source = source
        filter = TimestampDefectFilter(file: source.name, timeColumn: source.timeColumn, hasLabels: source.header.hasLabels)
    }

    var header: RecordingHeader { source.header }
    var warnings: [RecordingWarning] {
        var t = RecordingWarningTally()
        for w in source.warnings { t.add(w) }
        for w in filter.warnings { t.add(w) }
        return t.warnings
    }
    var lineNumber: Int { source.lineNumber }
    var bytesRead: Int { source.bytesRead }

    func read(into samples: inout [Sample], labels: inout [String?], maxSamples: Int) throws -> Int {
        var produced = 0
        let hasLabels = header.hasLabels
        while produced < maxSamples {
            if outPosition == outSamples.count {
                outSamples.removeAll(keepingCapacity: true)
                outLabels.removeAll(keepingCapacity: true)
                outPosition = 0
                guard try refill() else { break }
                continue
            }
            let take = min(maxSamples - produced, outSamples.count - outPosition)
            samples.append(contentsOf: outSamples[outPosition..<(outPosition + take)])
            if hasLabels { labels.append(contentsOf: outLabels[outPosition..<(outPosition + take)]) }
            outPosition += take
            produced += take
        }
        return produced
    }

    /// Filters the next rows of the source into the output buffer; false at the end.
    private func refill() throws -> Bool {
        guard !finished else { return false }
        rawSamples.removeAll(keepingCapacity: true)
        rawLabels.removeAll(keepingCapacity: true)
        rawLines.removeAll(keepingCapacity: true)
        let n = try source.read(into: &rawSamples, labels: &rawLabels, lines: &rawLines, maxSamples: Self.step)
        if n == 0 {
            finished = true
            filter.finish(into: &outSamples, labels: &outLabels)
            return !outSamples.isEmpty
        }
        let hasLabels = header.hasLabels
        for i in 0..<n {
            try filter.push(rawSamples[i], label: hasLabels ? rawLabels[i] : nil, line: rawLines[i], into: &outSamples, labels: &outLabels)
        }
        return true
    }

    func stop() { source.stop() }
}
