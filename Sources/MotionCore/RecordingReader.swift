#if canImport(Glibc)
import Glibc
#endif

/// Up to N consecutive rows of a recording, as returned by ``RecordingReader/next(maxSamples:)``.
public struct RecordingChunk: Sendable, Equatable {
    /// The samples, in file order.
    public var samples: [Sample]
    /// One label per sample (`nil` where the label field is empty), or `nil` when the file has no `label` column.
    public var labels: [String?]?

    /// Creates a chunk.
    public init(samples: [Sample], labels: [String?]?) {
        self.samples = samples
        self.labels = labels
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

    private let lines: RecordingLineBuffer
    private var finished = false
    /// The first error met; the reader stays failed (every later call throws it again).
    private var failure: (any Error)?
    private var previousTimestamp: Int64 = .min
    private var previousTimestampLine = 0
    private var lastLabelBytes: [UInt8] = []
    private var lastLabel: String?
    private let columnNames: [String]

    /// Opens `path` and parses its header.
    /// - Parameter bufferSize: bytes read per `read(2)`; also the longest line accepted.
    /// - Throws: ``RecordingIOError`` if the file cannot be opened or read; ``RecordingError``
    ///   if the header is missing or malformed.
    public init(path: String, bufferSize: Int = 1 << 20) throws {
        self.path = path
        let file = try RecordingFile.openForReading(path)
        lines = RecordingLineBuffer(file: file, capacity: bufferSize)
        var number = 0
        header = try Self.parseHeader(lines: lines, path: path, lineNumber: &number)
        lineNumber = number
        columnNames = header.columns
    }

    /// Reads the next chunk of at most `maxSamples` rows.
    /// - Returns: `nil` once the file is exhausted.
    /// - Throws: ``RecordingError`` at the first malformed line (rows before it in the same chunk
    ///   are discarded; the reader then stays failed); ``RecordingIOError`` on read failure.
    /// - Complexity: O(bytes read).
    public func next(maxSamples: Int = 4096) throws -> RecordingChunk? {
        var samples: [Sample] = []
        samples.reserveCapacity(min(max(maxSamples, 1), 1 << 16))
        var labels: [String?] = []
        let n = try read(into: &samples, labels: &labels, maxSamples: maxSamples)
        guard n > 0 else { return nil }
        return RecordingChunk(samples: samples, labels: header.hasLabels ? labels : nil)
    }

    /// Appends up to `maxSamples` rows to `samples` (and, when the file has labels, their labels to
    /// `labels`), reusing the callers' storage. When a bad line is met, the rows before it in this
    /// call are already appended and the error is thrown; the reader then stays failed.
    /// - Returns: the number of rows appended; 0 once the file is exhausted.
    /// - Throws: ``RecordingError`` at the first malformed line; ``RecordingIOError`` on read failure.
    /// - Complexity: O(bytes read).
    public func read(into samples: inout [Sample], labels: inout [String?], maxSamples: Int) throws -> Int {
        if let failure { throw failure }
        do {
            return try readRows(into: &samples, labels: &labels, maxSamples: maxSamples)
        } catch {
            failure = error
            throw error
        }
    }

    private func readRows(into samples: inout [Sample], labels: inout [String?], maxSamples: Int) throws -> Int {
        guard !finished, maxSamples > 0 else { return 0 }
        let hasGyro = header.sensors.contains(.gyro)
        let hasLabels = header.hasLabels
        let seconds = header.format == .plain
        var line = lineNumber
        var previous = previousTimestamp
        var previousLine = previousTimestampLine
        defer {
            lineNumber = line
            previousTimestamp = previous
            previousTimestampLine = previousLine
        }
        var produced = 0
        while produced < maxSamples {
            guard let next = try lines.next() else { finished = true; break }
            line += 1
            let p: UnsafePointer<UInt8>
            let n: Int
            switch next {
            case .line(let ptr, let count):
                p = ptr
                n = count
            case .torn(let count):
                warnings.append(RecordingWarning(file: path, line: line, message: "last line has no newline (torn write, e.g. power loss); dropped its \(count) bytes"))
                finished = true
                return produced
            case .tooLong:
                throw RecordingError(file: path, line: line, problem: "line is longer than \(lines.capacity) bytes")
            }
            // Hot path: one pass over the bytes; any failure is diagnosed by `diagnose` (cold).
            // `padded`: the byte at `e` is the line's '\n' or '\r' (not a digit) and the buffer
            // has slack after its data (see RecordingLineBuffer.slack).
            var c = p
            let e = p + n
            let comma = UInt8(ascii: ",")
            let parsedTime = seconds
                ? CSVNumberParser.scanSecondsAsNanoseconds(&c, e)
                : CSVNumberParser.scanInt64(&c, e, padded: true)
            guard let t = parsedTime, c < e, c.pointee == comma else { throw diagnose(p, n, line: line) }
            if t <= previous && previousLine > 0 {
                throw RecordingError(
                    file: path, line: line, column: 1, columnName: columnNames[0],
                    problem: t == previous
                        ? "duplicate timestamp \(t) ns (same as line \(previousLine))"
                        : "timestamp \(t) ns goes backwards (line \(previousLine) has \(previous) ns)")
            }
            c += 1
            guard let ax = CSVNumberParser.scanDouble(&c, e, padded: true), c < e, c.pointee == comma else { throw diagnose(p, n, line: line) }
            c += 1
            guard let ay = CSVNumberParser.scanDouble(&c, e, padded: true), c < e, c.pointee == comma else { throw diagnose(p, n, line: line) }
            c += 1
            guard let az = CSVNumberParser.scanDouble(&c, e, padded: true) else { throw diagnose(p, n, line: line) }
            var finite = ax.isFinite && ay.isFinite && az.isFinite
            var gyro = Vector3.zero
            if hasGyro {
                guard c < e, c.pointee == comma else { throw diagnose(p, n, line: line) }
                c += 1
                guard let gx = CSVNumberParser.scanDouble(&c, e, padded: true), c < e, c.pointee == comma else { throw diagnose(p, n, line: line) }
                c += 1
                guard let gy = CSVNumberParser.scanDouble(&c, e, padded: true), c < e, c.pointee == comma else { throw diagnose(p, n, line: line) }
                c += 1
                guard let gz = CSVNumberParser.scanDouble(&c, e, padded: true) else { throw diagnose(p, n, line: line) }
                finite = finite && gx.isFinite && gy.isFinite && gz.isFinite
                gyro = Vector3(gx, gy, gz)
            }
            guard finite else { throw diagnose(p, n, line: line) }
            if hasLabels {
                guard c < e, c.pointee == comma else { throw diagnose(p, n, line: line) }
                c += 1
                guard let l = try label(c, e - c, line: line) else { throw diagnose(p, n, line: line) }
                labels.append(l.value)
            } else if c != e {
                throw diagnose(p, n, line: line)
            }
            let accel = Vector3(ax, ay, az)
            previous = t
            previousLine = line
            samples.append(Sample(timestamp: t, accel: accel, gyro: gyro))
            produced += 1
        }
        return produced
    }

    /// Bytes of the file consumed so far (header and rows, including newlines).
    public var bytesRead: Int { lines.bytesConsumed }

    // MARK: - Labels

    /// A parsed label field (`value` nil for an empty field).
    private struct LabelField { var value: String? }

    /// The label in `n` bytes at `p`; `nil` if they contain a comma (wrong column count, diagnosed by the caller).
    @inline(__always)
    private func label(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int) throws -> LabelField? {
        if n == 0 { return LabelField(value: nil) }
        if n == lastLabelBytes.count, lastLabel != nil,
           lastLabelBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, p, n) == 0 }) {
            return LabelField(value: lastLabel)
        }
        let bytes = UnsafeBufferPointer(start: p, count: n)
        if bytes.contains(0x2C) { return nil }
        if bytes.contains(0x22) {
            throw RecordingError(file: path, line: line, column: columnNames.count, columnName: "label",
                                 problem: "quoted fields are not supported (\(Self.quote(p, n)))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RecordingError(file: path, line: line, column: columnNames.count, columnName: "label", problem: "label is not valid UTF-8")
        }
        lastLabelBytes = Array(bytes)
        lastLabel = text
        return LabelField(value: text)
    }

    // MARK: - Errors (cold paths)

    /// Explains why line `line` (`n` bytes at `p`) failed the fast parse: column count, or the first bad field.
    @inline(never)
    private func diagnose(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int) -> RecordingError {
        if n == 0 { return RecordingError(file: path, line: line, problem: "empty line") }
        var fields: [(Int, Int)] = []
        var start = 0
        for i in 0...n where i == n || p[i] == 0x2C {
            fields.append((start, i - start))
            start = i + 1
        }
        if fields.count != columnNames.count { return columnCountError(p, n, line: line) }
        let (t0, tn) = fields[0]
        let time = header.format == .plain
            ? CSVNumberParser.parseSecondsAsNanoseconds(p + t0, tn)
            : CSVNumberParser.parseInt64(p + t0, tn)
        if time == nil { return timeError(p + t0, tn, line: line) }
        for k in 1..<fields.count where columnNames[k] != "label" {
            let (s, len) = fields[k]
            if CSVNumberParser.parseDouble(p + s, len)?.isFinite != true {
                return numberError(p + s, len, line: line, column: k)
            }
        }
        return RecordingError(file: path, line: line, problem: "malformed line")
    }

    @inline(never)
    private func columnCountError(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int) -> RecordingError {
        var found = 1
        for i in 0..<n where p[i] == 0x2C { found += 1 }
        return RecordingError(file: path, line: line, problem: "expected \(columnNames.count) columns (\(columnNames.joined(separator: ","))), found \(found)")
    }

    @inline(never)
    private func numberError(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int, column: Int) -> RecordingError {
        RecordingError(file: path, line: line, column: column + 1, columnName: columnNames[column], problem: Self.describeBadNumber(p, n))
    }

    @inline(never)
    private func timeError(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int) -> RecordingError {
        var problem: String
        if header.format == .plain {
            problem = Self.describeBadNumber(p, n)
            if CSVNumberParser.parseDouble(p, n)?.isFinite == true { problem = "time \(Self.quote(p, n)) s is out of range" }
        } else if n == 0 {
            problem = "empty field"
        } else if CSVNumberParser.parseDouble(p, n) != nil {
            problem = "bad timestamp \(Self.quote(p, n)) (expected integer nanoseconds within ±9.2e18)"
        } else {
            problem = "bad timestamp \(Self.quote(p, n))"
        }
        return RecordingError(file: path, line: line, column: 1, columnName: columnNames[0], problem: problem)
    }

    static func describeBadNumber(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
        if n == 0 { return "empty field" }
        let text = String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self).lowercased()
        if text.contains("nan") { return "NaN is not allowed (\(quote(p, n)))" }
        if text.contains("inf") { return "infinity is not allowed (\(quote(p, n)))" }
        if CSVNumberParser.parseDouble(p, n) != nil { return "value \(quote(p, n)) is out of range (infinite)" }
        return "bad number \(quote(p, n))"
    }

    static func quote(_ p: UnsafePointer<UInt8>, _ n: Int) -> String {
        let text = String(decoding: UnsafeBufferPointer(start: p, count: min(n, 40)), as: UTF8.self)
        return "\"" + text + (n > 40 ? "..." : "") + "\""
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
            guard version == RecordingFormat.currentVersion else {
                throw RecordingError(file: path, line: 1, problem: "unknown format version \(version) (this reader knows version \(RecordingFormat.currentVersion))")
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
