/// A recording that cannot be read: the file, the 1-based line and column, and the problem.
///
/// Its description reads like a compiler diagnostic:
/// `Recordings/x.csv:12: column 3 (accel_y): bad number "1.2.3"`.
public struct RecordingError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file, as given to the reader.
    public var file: String
    /// The 1-based line number, or `nil` for problems with the file as a whole.
    public var line: Int?
    /// The 1-based column (field) number, or `nil` for problems with the whole line.
    public var column: Int?
    /// The column's name from the header, when known.
    public var columnName: String?
    /// What is wrong, e.g. `bad number "1.2.3"`.
    public var problem: String
    /// For binary inputs (a raw IIO buffer, a zip archive, compressed data), where lines mean
    /// nothing: the 0-based byte offset of the problem in the file.
    public var byteOffset: Int?

    /// Creates an error record.
    public init(file: String, line: Int?, column: Int? = nil, columnName: String? = nil, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.columnName = columnName
        self.problem = problem
    }

    /// Creates an error at a byte offset of a binary input (no line).
    public init(file: String, byteOffset: Int, column: Int? = nil, columnName: String? = nil, problem: String) {
        self.init(file: file, line: nil, column: column, columnName: columnName, problem: problem)
        self.byteOffset = byteOffset
    }

    /// `file:line: column N (name): problem`, or `file: byte B: ...` for a binary input.
    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        s += ": "
        if let byteOffset { s += "byte \(byteOffset): " }
        if let column {
            s += "column \(column)"
            if let columnName { s += " (\(columnName))" }
            s += ": "
        }
        return s + problem
    }
}

/// A kind of defect the reader tolerated, reported once per kind with its count (docs/dialects.md
/// lists them and the rule each follows).
public struct RecordingWarningKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A last line without a newline (a torn write, as after a power cut): dropped.
    public static let tornFinalLine = RecordingWarningKind(rawValue: "torn-final-line")
    /// A row identical to a recent one (same timestamp and values): dropped.
    public static let duplicateRow = RecordingWarningKind(rawValue: "duplicate-row")
    /// Rows sharing one timestamp with different values: spread evenly up to the next timestamp.
    public static let equalTimestamps = RecordingWarningKind(rawValue: "equal-timestamps")
    /// A row whose timestamp is a little earlier than the one before it: dropped.
    public static let backwardStep = RecordingWarningKind(rawValue: "backward-step")
    /// A row with a missing value (`NaN` or an empty field, as phyphox writes for an unequal
    /// column): dropped.
    public static let missingValue = RecordingWarningKind(rawValue: "missing-value")
    /// An empty line among the rows: skipped.
    public static let emptyLine = RecordingWarningKind(rawValue: "empty-line")
    /// A raw IIO scan with an axis at the end of its raw range (the sensor's full scale: the true
    /// value may be beyond it): kept.
    public static let clippedScan = RecordingWarningKind(rawValue: "clipped-scan")
    /// A secondary stream (gyroscope, gravity) that starts after or ends before the accelerometer:
    /// its first or last value is held for those samples.
    public static let heldValue = RecordingWarningKind(rawValue: "held-value")
}

/// Something the reader tolerated but that the user should know about (a torn final line, the
/// defects of phone logs): one record per kind and file, with how often it happened and where.
public struct RecordingWarning: CustomStringConvertible, Sendable, Equatable {
    /// What kind of defect.
    public var kind: RecordingWarningKind
    /// The file, as given to the reader (for an archive, the member: `walk.zip/Gyroscope.csv`).
    public var file: String
    /// The 1-based line number of the first occurrence (for a raw buffer, the scan number).
    public var line: Int
    /// How many times it happened.
    public var count: Int
    /// The lines (scan numbers) of the first occurrences, at most ``RecordingWarning/maxLinesKept``.
    public var firstLines: [Int]
    /// What happened and what was done, the same for every occurrence.
    public var message: String

    /// How many line numbers a warning keeps.
    public static let maxLinesKept = 5

    /// Creates a warning for one occurrence at `line`.
    public init(kind: RecordingWarningKind, file: String, line: Int, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.count = 1
        self.firstLines = [line]
        self.message = message
    }

    /// A torn final line at `line` (the defect MotionBatch's own format tolerates).
    public init(file: String, line: Int, message: String) {
        self.init(kind: .tornFinalLine, file: file, line: line, message: message)
    }

    /// `file:line: warning: message`, with the count and the first lines when it happened more than once.
    public var description: String {
        var s = "\(file):\(line): warning: \(message)"
        if count > 1 {
            s += " (\(count) times; first on lines " + firstLines.map(String.init).joined(separator: ", ") + (count > firstLines.count ? ", ..." : "") + ")"
        }
        return s
    }
}

/// Counts tolerated defects per kind and file as a reader meets them, keeping the first lines of
/// each: memory stays small however many there are. Pure.
public struct RecordingWarningTally: Sendable, Equatable {
    /// The warnings, in the order their kind first occurred.
    public private(set) var warnings: [RecordingWarning] = []

    /// Creates an empty tally.
    public init() {}

    /// Counts one occurrence of `kind` in `file` at `line`; `message` is kept from the first.
    public mutating func add(_ kind: RecordingWarningKind, file: String, line: Int, message: @autoclosure () -> String) {
        if let i = warnings.firstIndex(where: { $0.kind == kind && $0.file == file }) {
            warnings[i].count += 1
            if warnings[i].firstLines.count < RecordingWarning.maxLinesKept { warnings[i].firstLines.append(line) }
        } else {
            warnings.append(RecordingWarning(kind: kind, file: file, line: line, message: message()))
        }
    }

    /// Adds a warning that is already counted (another reader's).
    public mutating func add(_ warning: RecordingWarning) {
        if let i = warnings.firstIndex(where: { $0.kind == warning.kind && $0.file == warning.file }) {
            warnings[i].count += warning.count
            warnings[i].firstLines = Array((warnings[i].firstLines + warning.firstLines).prefix(RecordingWarning.maxLinesKept))
        } else {
            warnings.append(warning)
        }
    }
}
