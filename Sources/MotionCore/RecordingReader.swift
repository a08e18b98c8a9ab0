#if canImport(Glibc)
import Glibc
import MotionSystem
#endif

/// Up to N consecutive rows of a recording, as returned by ``RecordingReader/next(maxSamples:)``.
public struct RecordingChunk: Sendable, Equatable {
    /// The samples, in file order.
    public var samples: [Sample]
    /// One label per sample (`nil` where the label field is empty), or `nil` when the file has no `label` column.
    public var labels: [String?]?
    /// The event lines met with these rows (format version 2), in file order; each one's
    /// ``RecordingEvent/sampleIndex`` counts the file's rows before it (so the event comes before
    /// `samples[sampleIndex - firstSampleIndex]`, or after the last of them).
    public var events: [RecordingEvent]
    /// The index in the file of `samples[0]` (the rows delivered before this chunk).
    public var firstSampleIndex: Int

    /// Creates a chunk.
    public init(samples: [Sample], labels: [String?]?, events: [RecordingEvent] = [], firstSampleIndex: Int = 0) {
        self.samples = samples
        self.labels = labels
        self.events = events
        self.firstSampleIndex = firstSampleIndex
    }
}

/// Streams the samples of a recording file, in either dialect (``RecordingFormat``), strictly.
///
/// The file is read in fixed-size chunks (1 MiB by default) and parsed byte by byte, so memory
/// does not grow with the file's length. Every malformed line is a ``RecordingError`` naming the
/// file, line, column and problem: bad number, wrong column count, NaN or infinity, a timestamp
/// that goes backwards or repeats, an unknown format version, a missing header, an unknown column.
/// The one tolerated defect is a torn final line (no trailing newline, as after a power cut):
/// it is dropped and reported in ``warnings``.
///
/// ```swift
/// let reader = try RecordingReader(path: "Recordings/walk.csv")
/// while let chunk = try reader.next(maxSamples: 4096) { ... }
/// ```
public final class RecordingReader {
    /// The path given at creation (used in messages).
    public let path: String
    /// Dialect, columns and metadata, parsed at creation.
    public let header: RecordingHeader
    /// Tolerated defects met so far (a torn final line).
    public private(set) var warnings: [RecordingWarning] = []
    /// The number of the last line read (1-based; header lines count).
    public private(set) var lineNumber = 0
    /// Rows delivered so far.
    public private(set) var samplesDelivered = 0

    private let pipeline: RecordingBlockPipeline
    /// The block being delivered and the index of its next row.
    private var current: RecordingParsedBlock?
    private var position = 0
    /// Bytes of the file before `current` (header and earlier blocks).
    private var bytesBefore = 0
    private var finished = false
    /// The first error met; the reader stays failed (every later call throws it again).
    private var failure: (any Error)?
    private var previousTimestamp: Int64 = .min
    private var previousTimestampLine = 0
    private let columnNames: [String]
    private let bufferSize: Int

    /// Bytes per block (one `read(2)`, parsed as a unit): 1 MiB.
    public static let defaultBufferSize = 1 << 20

    /// Worker threads used by default: 2 on a machine with at least two processors, else 1.
    public static var defaultThreadCount: Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 ? 2 : 1 }

    /// Opens `path` and parses its header.
    /// - Parameters:
    ///   - bufferSize: bytes per block (one `read(2)`); also the longest line accepted.
    ///   - threads: threads that parse blocks ahead of the caller once the file turns out to be
    ///     longer than one block (1: everything on the caller's thread). Results, errors and their
    ///     order do not depend on it. Memory: about `2 × threads` parsed blocks plus one raw block per thread.
    /// - Throws: ``SystemError`` if the file cannot be opened or read; ``RecordingError``
    ///   if the header is missing or malformed.
    public init(path: String, bufferSize: Int = RecordingReader.defaultBufferSize, threads: Int = RecordingReader.defaultThreadCount) throws {
        self.path = path
        let capacity = max(bufferSize, 64)
        self.bufferSize = capacity
        let file = try FileDescriptor.openForReading(path)
        let lines = RecordingLineBuffer(file: file, capacity: capacity)
        var number = 0
        header = try Self.parseHeader(lines: lines, path: path, lineNumber: &number)
        lineNumber = number
        columnNames = header.columns
        bytesBefore = lines.bytesConsumed
        let rest = lines.handOver()
        pipeline = RecordingBlockPipeline(
            splitter: RecordingBlockSplitter(file: rest.file, pending: rest.pending, atEOF: rest.atEOF),
            parser: RecordingRowParser(path: path, header: header), blockSize: capacity, threads: threads)
    }

    deinit { pipeline.shutdown() }

    /// Reads the next chunk of at most `maxSamples` rows, with the event lines met among them.
    ///
    /// When `maxSamples` is at least a parsed block's row count (about 11 000 rows per MiB of
    /// accel + gyro rows), whole blocks are handed over as parsed, without copying their samples.
    /// A chunk may hold events and no rows (event lines after the last row).
    /// - Returns: `nil` once the file is exhausted.
    /// - Throws: ``RecordingError`` at the first malformed line (rows before it in the same chunk
    ///   are discarded; the reader then stays failed); ``SystemError`` on read failure.
    /// - Complexity: O(bytes read).
    public func next(maxSamples: Int = 4096) throws -> RecordingChunk? {
        let first = samplesDelivered
        if let whole = try failingOnce({ try takeWholeBlock(maxSamples: maxSamples) }) { return whole }
        var samples: [Sample] = []
        samples.reserveCapacity(min(max(maxSamples, 1), 1 << 16))
        var labels: [String?] = []
        var events: [RecordingEvent] = []
        let n = try read(into: &samples, labels: &labels, events: &events, maxSamples: maxSamples)
        guard n > 0 || !events.isEmpty else { return nil }
        return RecordingChunk(samples: samples, labels: header.hasLabels ? labels : nil, events: events, firstSampleIndex: first)
    }

    /// Appends up to `maxSamples` rows to `samples` (and, when the file has labels, their labels to
    /// `labels`), reusing the callers' storage; event lines are skipped (use
    /// ``read(into:labels:events:maxSamples:)`` to get them). When a bad line is met, the rows
    /// before it in this call are already appended and the error is thrown; the reader then stays failed.
    /// - Returns: the number of rows appended; 0 once the file is exhausted.
    /// - Throws: ``RecordingError`` at the first malformed line; ``SystemError`` on read failure.
    /// - Complexity: O(bytes read).
    public func read(into samples: inout [Sample], labels: inout [String?], maxSamples: Int) throws -> Int {
        var skipped: [RecordingEvent] = []
        return try read(into: &samples, labels: &labels, events: &skipped, maxSamples: maxSamples)
    }

    /// As ``read(into:labels:maxSamples:)``, also appending the event lines met (format version 2)
    /// to `events`, each with its ``RecordingEvent/sampleIndex`` (rows of the file before it).
    /// Events after the last row come with a call that appends no rows.
    public func read(into samples: inout [Sample], labels: inout [String?], events: inout [RecordingEvent], maxSamples: Int) throws -> Int {
        try failingOnce { try readRows(into: &samples, labels: &labels, events: &events, maxSamples: maxSamples) }
    }

    /// Runs `body` unless the reader already failed (then rethrows that failure); the first error
    /// `body` throws is kept, the workers are stopped, and every later call throws it again.
    private func failingOnce<T>(_ body: () throws -> T) throws -> T {
        if let failure { throw failure }
        do {
            return try body()
        } catch {
            failure = error
            finished = true
            pipeline.shutdown()
            throw error
        }
    }

    /// The current block's rows, handed over without copying, when none of them has been delivered,
    /// none failed and they fit in `maxSamples`; else nil (and nothing is consumed).
    private func takeWholeBlock(maxSamples: Int) throws -> RecordingChunk? {
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

    private func readRows(into samples: inout [Sample], labels: inout [String?], events: inout [RecordingEvent], maxSamples: Int) throws -> Int {
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

    /// Index in `current.events` of the first event not delivered yet.
    private var nextEvent = 0

    /// Delivers the undelivered events of `block` placed before row `rowsBelow` (block-relative),
    /// counting their lines and making their ``RecordingEvent/sampleIndex`` file-wide.
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

    /// Moves to the next block; false at the end of the file (after a torn final line, with its warning).
    private func enterNextBlock() throws -> Bool {
        switch pipeline.next() {
        case .rows(let block):
            if let t = block.firstTimestamp, previousTimestampLine > 0, t <= previousTimestamp {
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
            warnings.append(RecordingWarning(file: path, line: lineNumber, message: "last line has no newline (torn write, e.g. power loss); dropped its \(count) bytes"))
        case .tooLong:
            lineNumber += 1
            throw RecordingError(file: path, line: lineNumber, problem: "line is longer than \(bufferSize) bytes")
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

    /// Bytes of the file consumed so far: the header and the rows delivered, including newlines
    /// (and a dropped torn final line); after an error, up to the row before the bad line.
    public var bytesRead: Int {
        guard let current, position > 0 else { return bytesBefore }
        return bytesBefore + Int(current.rowEnds[position - 1])
    }

    // MARK: - Header

    private static func parseHeader(lines: RecordingLineBuffer, path: String, lineNumber: inout Int) throws -> RecordingHeader {
        let plainHint = "time_s,accel_x,accel_y,accel_z[,gyro_x,gyro_y,gyro_z][,label]"
        let ownHint = "# \(RecordingKey.formatVersion): \(RecordingFormat.currentVersion)"
        func nextLine(_ what: String) throws -> String? {
            guard let l = try lines.next() else { return nil }
            lineNumber += 1
            switch l {
            case .line(let p, let n):
                var bytes = UnsafeBufferPointer(start: p, count: n)
                if lineNumber == 1, n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF {
                    bytes = UnsafeBufferPointer(rebasing: bytes[3...])  // UTF-8 byte-order mark from spreadsheets
                }
                guard let s = String(validating: bytes, as: UTF8.self) else {
                    throw RecordingError(file: path, line: lineNumber, problem: "\(what) is not valid UTF-8")
                }
                return s
            case .torn:
                throw RecordingError(file: path, line: lineNumber, problem: "the file ends inside the header (\(what) has no newline)")
            case .tooLong:
                throw RecordingError(file: path, line: lineNumber, problem: "line is longer than \(lines.capacity) bytes")
            }
        }
        guard let first = try nextLine("header") else {
            throw RecordingError(file: path, line: nil, problem: "missing header: the file is empty (expected '\(ownHint)' or '\(plainHint)')")
        }
        var format = RecordingFormat.plain
        var metadata: [String: String] = [:]
        var columnLine = first
        if first.hasPrefix("#") {
            guard let (key, value) = keyValue(first), key == RecordingKey.formatVersion else {
                throw RecordingError(file: path, line: 1, problem: "missing header: the first line must be '\(ownHint)', found '\(first.prefix(60))'")
            }
            guard let version = Int(value), version >= 1 else {
                throw RecordingError(file: path, line: 1, problem: "bad format version '\(value)'")
            }
            guard RecordingFormat.readableVersions.contains(version) else {
                let known = RecordingFormat.readableVersions.map(String.init).joined(separator: " and ")
                throw RecordingError(file: path, line: 1, problem: "unknown format version \(version) (this reader knows versions \(known))")
            }
            format = .motionbatch(version: version)
            while true {
                guard let l = try nextLine("header line") else {
                    throw RecordingError(file: path, line: lineNumber + 1, problem: "missing column header line after the '#' header block")
                }
                guard l.hasPrefix("#") else { columnLine = l; break }
                guard let (key, value) = keyValue(l) else {
                    throw RecordingError(file: path, line: lineNumber, problem: "malformed header line '\(l.prefix(60))' (expected '# key: value')")
                }
                if key == "event", version >= 2 {
                    throw RecordingError(file: path, line: lineNumber, problem: "an event line before the column line (event lines go among the rows, after the column header)")
                }
                guard metadata[key] == nil, key != RecordingKey.formatVersion else {
                    throw RecordingError(file: path, line: lineNumber, problem: "header key '\(key)' appears twice")
                }
                metadata[key] = value
            }
        }
        let names = columnLine.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard names.first == format.timeColumn else {
            if format == .plain {
                throw RecordingError(file: path, line: lineNumber, problem: "missing header: expected '\(ownHint)' or a plain CSV header '\(plainHint)', found '\(columnLine.prefix(60))'")
            }
            throw RecordingError(file: path, line: lineNumber, column: 1, problem: "unknown column '\(names.first ?? "")' (expected '\(format.timeColumn)')")
        }
        var expected = ["accel_x", "accel_y", "accel_z"]
        var sensors: SensorSet = .accel
        var hasLabels = false
        var i = 1
        func expect(_ name: String) throws {
            guard i < names.count else {
                throw RecordingError(file: path, line: lineNumber, column: i + 1, problem: "missing column '\(name)'")
            }
            guard names[i] == name else {
                throw RecordingError(file: path, line: lineNumber, column: i + 1, problem: "unknown column '\(names[i])' (expected '\(name)')")
            }
            i += 1
        }
        for name in expected { try expect(name) }
        if i < names.count, names[i] == "gyro_x" {
            expected = ["gyro_x", "gyro_y", "gyro_z"]
            for name in expected { try expect(name) }
            sensors.insert(.gyro)
        }
        if i < names.count, names[i] == "label" {
            hasLabels = true
            i += 1
        }
        if i < names.count {
            let allowed = sensors.contains(.gyro) ? (hasLabels ? "end of line" : "'label'") : (hasLabels ? "end of line" : "'gyro_x' or 'label'")
            throw RecordingError(file: path, line: lineNumber, column: i + 1, problem: "unknown column '\(names[i])' (expected \(allowed))")
        }
        let header = RecordingHeader(format: format, sensors: sensors, hasLabels: hasLabels, metadata: metadata)
        // Channel descriptions must name existing columns and their SI unit.
        for (key, value) in metadata where key.hasPrefix(RecordingKey.channelPrefix) {
            let channel = String(key.dropFirst(RecordingKey.channelPrefix.count))
            guard header.columns.contains(channel), let unit = RecordingHeader.unit(of: channel) else {
                throw RecordingError(file: path, line: nil, problem: "header key '\(key)' describes a channel that is not a data column")
            }
            let given = value.split(whereSeparator: { $0 == " " || $0 == "," }).first.map(String.init) ?? ""
            guard given == unit else {
                throw RecordingError(file: path, line: nil, problem: "header key '\(key)': unit '\(given)' is not supported (expected \(unit))")
            }
        }
        return header
    }

    /// Splits `# key: value` into its parts; `nil` when the line does not have that shape.
    static func keyValue(_ line: String) -> (String, String)? {
        guard line.hasPrefix("# "), let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[line.index(line.startIndex, offsetBy: 2)..<colon]
        guard !key.isEmpty, !key.contains(" ") else { return nil }
        var value = line[line.index(after: colon)...]
        while value.first == " " { value.removeFirst() }
        while value.last == " " { value.removeLast() }
        return (String(key), String(value))
    }
}
