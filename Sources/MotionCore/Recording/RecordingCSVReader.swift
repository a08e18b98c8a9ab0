/// The reader of MotionBatch's two CSV dialects (``RecordingFormat``), strictly: the header is
/// read line by line (``RecordingHeaderParser``), then the rows in blocks of whole lines
/// (``RecordingBlockSplitter``), parsed in place (``RecordingRowParser``), on worker threads for
/// files longer than one block (``RecordingBlockPipeline``). Memory does not grow with the file.
///
/// Order of timestamps (MotionBatch's own format) is checked within a block by the parser and
/// across blocks here, where the blocks arrive in file order; plain CSV rows go through
/// ``TimestampDefectFilter`` instead (``OrderedRows``). Line numbers are counted here (a block only
/// knows row indexes).
/// The one tolerated defect is a torn final line (no trailing newline, as after a power cut):
/// it is dropped and reported in ``warnings``. Used through ``RecordingReader``.
final class RecordingCSVReader: RecordingRowReader {
    let path: String
    let header: RecordingHeader
    private(set) var warnings: [RecordingWarning] = []
    private(set) var lineNumber = 0

    private let pipeline: RecordingBlockPipeline
    /// The block being delivered and the index of its next row.
    private var current: RecordingParsedBlock?
    private var position = 0
    /// Bytes of the input before `current` (header and earlier blocks).
    private var bytesBefore = 0
    private var finished = false
    private var previousTimestamp: Int64 = .min
    private var previousTimestampLine = 0
    private let columnNames: [String]
    private let bufferSize: Int
    /// Samples delivered so far (event lines' ``RecordingEvent/sampleIndex`` counts them).
    private var samplesDelivered = 0
    /// Index in `current.events` of the first event not delivered yet.
    private var nextEvent = 0

    /// Parses the header from `prefix` and then `source`.
    /// - Parameter expected: the dialect required, or nil for either.
    init(source: any RecordingByteSource, prefix: [UInt8], expected: RecordingFormat?, options: RecordingReadOptions) throws {
        path = source.name
        bufferSize = options.bufferSize
        let lines = RecordingLineBuffer(source: source, prefix: prefix, capacity: options.bufferSize)
        let parsed = try RecordingHeaderParser(path: path, expected: expected).parse(lines)
        header = parsed.header
        lineNumber = parsed.lineCount
        columnNames = header.columns
        bytesBefore = lines.bytesConsumed
        let rest = lines.handOver()
        pipeline = RecordingBlockPipeline(
            splitter: RecordingBlockSplitter(source: rest.source, pending: rest.pending, atEOF: rest.atEOF),
            parser: RecordingRowParser(path: path, header: header), blockSize: options.bufferSize, threads: options.threads)
    }

    deinit { pipeline.shutdown() }

    func stop() {
        finished = true
        pipeline.shutdown()
    }

    /// The current block's rows, handed over without copying, when none of them has been delivered,
    /// none failed and they fit in `maxSamples`; else nil (and nothing is consumed).
    func takeWholeChunk(maxSamples: Int) throws -> RecordingChunk? {
        guard !finished, maxSamples > 0 else { return nil }
        if current == nil {
            guard try enterNextBlock() else { return nil }
        }
        guard position == 0, let block = current, block.failureRow == nil,
              !block.samples.isEmpty, block.samples.count <= maxSamples else { return nil }
        current = nil  // the block's arrays are now referenced only here: no copy is made
        let first = samplesDelivered
        var events = block.events
        for k in events.indices { events[k].sampleIndex += first }
        lineNumber += block.samples.count + events.count
        samplesDelivered += block.samples.count
        previousTimestamp = block.samples[block.samples.count - 1].timestamp
        previousTimestampLine = lineNumber
        bytesBefore += block.byteCount
        return RecordingChunk(samples: block.samples, labels: header.hasLabels ? block.labels : nil, events: events, firstSampleIndex: first)
    }

    func read(into samples: inout [Sample], labels: inout [String?], maxSamples: Int) throws -> Int {
        var skipped: [RecordingEvent] = []
        return try read(into: &samples, labels: &labels, events: &skipped, maxSamples: maxSamples)
    }

    func read(into samples: inout [Sample], labels: inout [String?], events: inout [RecordingEvent], maxSamples: Int) throws -> Int {
        guard !finished, maxSamples > 0 else { return 0 }
        var produced = 0
        while produced < maxSamples {
            if current == nil {
                guard try enterNextBlock() else { break }
            }
            let block = current!
            let limit = block.failureRow ?? block.samples.count
            let take = min(limit - position, maxSamples - produced)
            if take > 0 {
                // The events before these rows (none of them delivered yet: events before row
                // `position` went out with the rows before it, or are at `position` itself).
                takeEvents(of: block, rowsBelow: position + take, into: &events)
                samples.append(contentsOf: block.samples[position..<(position + take)])
                if header.hasLabels { labels.append(contentsOf: block.labels[position..<(position + take)]) }
                position += take
                produced += take
                lineNumber += take
                samplesDelivered += take
                previousTimestamp = block.samples[position - 1].timestamp
                previousTimestampLine = lineNumber
            }
            if position == limit && produced < maxSamples {
                if let failure = block.failure {
                    // The event lines before the bad line count as lines.
                    let eventsBefore = block.events[nextEvent...].lazy.filter { $0.sampleIndex <= limit }.count
                    lineNumber += eventsBefore + 1
                    throw error(failure, previousRowLine: lineNumber - 1 - eventsBefore)
                }
                takeEvents(of: block, rowsBelow: limit + 1, into: &events)
                bytesBefore += block.byteCount
                current = nil
                position = 0
                nextEvent = 0
            }
        }
        return produced
    }

    /// Delivers the undelivered events of `block` placed before row `rowsBelow` (block-relative),
    /// counting their lines and making their ``RecordingEvent/sampleIndex`` input-wide.
    private func takeEvents(of block: RecordingParsedBlock, rowsBelow: Int, into events: inout [RecordingEvent]) {
        let base = samplesDelivered - position
        while nextEvent < block.events.count, block.events[nextEvent].sampleIndex < rowsBelow {
            var e = block.events[nextEvent]
            e.sampleIndex += base
            events.append(e)
            nextEvent += 1
            lineNumber += 1
        }
    }

    /// Moves to the next block; false at the end of the input (after a torn final line, with its warning).
    private func enterNextBlock() throws -> Bool {
        switch pipeline.next() {
        case .rows(let block):
            if header.format != .plain, let t = block.firstTimestamp, previousTimestampLine > 0, t <= previousTimestamp {
                lineNumber += block.events.lazy.filter { $0.sampleIndex == 0 }.count + 1
                throw error(.order(timestamp: t, previous: previousTimestamp), previousRowLine: previousTimestampLine)
            }
            current = block
            position = 0
            nextEvent = 0
            return true
        case .torn(let count):
            lineNumber += 1
            bytesBefore += count
            warnings.append(RecordingWarning(kind: .tornFinalLine, file: path, line: lineNumber, message: "last line has no newline (torn write, e.g. power loss); dropped its \(count) bytes"))
        case .tooLong:
            lineNumber += 1
            throw RecordingError(file: path, line: lineNumber, column: bufferSize + 1, problem: "line is longer than \(bufferSize) bytes")
        case .ioError(let e):
            throw e
        case .end:
            break
        }
        finished = true
        pipeline.shutdown()
        return false
    }

    /// The error for a failed row at ``lineNumber`` (the previous row is on line `previousRowLine`).
    private func error(_ failure: RecordingParsedBlock.Failure, previousRowLine: Int) -> RecordingError {
        switch failure {
        case .malformed(var e):
            e.line = lineNumber
            return e
        case .order(let t, let previous):
            return RecordingError(
                file: path, line: lineNumber, column: 1, columnName: columnNames[0],
                problem: t == previous
                    ? "duplicate timestamp \(t) ns (same as line \(previousRowLine))"
                    : "timestamp \(t) ns goes backwards (line \(previousRowLine) has \(previous) ns)")
        }
    }

    /// Bytes of the input consumed so far: the header and the rows delivered, including newlines
    /// (and a dropped torn final line); after an error, up to the row before the bad line.
    var bytesRead: Int {
        guard let current, position > 0 else { return bytesBefore }
        return bytesBefore + Int(current.rowEnds[position - 1])
    }
}
