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

    /// Creates an error record.
    public init(file: String, line: Int?, column: Int? = nil, columnName: String? = nil, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.columnName = columnName
        self.problem = problem
    }

    /// `file:line: column N (name): problem`.
    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        s += ": "
        if let column {
            s += "column \(column)"
            if let columnName { s += " (\(columnName))" }
            s += ": "
        }
        return s + problem
    }
}

/// Something the reader tolerated but that the user should know about (e.g. a torn final line).
public struct RecordingWarning: CustomStringConvertible, Sendable, Equatable {
    /// The file, as given to the reader.
    public var file: String
    /// The 1-based line number concerned.
    public var line: Int
    /// What happened.
    public var message: String

    /// Creates a warning record.
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: warning: message`.
    public var description: String { "\(file):\(line): warning: \(message)" }
}
