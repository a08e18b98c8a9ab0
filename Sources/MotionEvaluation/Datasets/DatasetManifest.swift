import MotionCore

/// The index of a datasets folder (`manifest.csv`, as in `../shared/datasets`): a header naming the
/// columns (`path`, `activity`, `steps_true`, ...), then one row per recording. Rows are plain
/// comma-separated fields (the manifest has no quoted fields).
public struct DatasetManifest: Sendable {
    /// One row: a recording and its ground truth.
    public struct Entry: Sendable {
        /// The manifest file (for messages).
        public let file: String
        /// The 1-based line of the row.
        public let line: Int
        /// The header's column names.
        let columns: [String]
        /// The fields, one per column.
        let fields: [String]

        /// The recording's path relative to the datasets folder (the `path` column).
        public var path: String { fields[0] }

        /// The field of column `name`, or nil when the manifest has no such column.
        public subscript(name: String) -> String? {
            columns.firstIndex(of: name).map { fields[$0] }
        }

        /// The field of column `name`, which must exist.
        /// - Throws: ``MotionCore/RecordingError`` naming the file and line when the column is missing.
        public func field(_ name: String) throws -> String {
            guard let value = self[name] else {
                throw RecordingError(file: file, line: 1, problem: "missing column '\(name)' in the header")
            }
            return value
        }

        /// The integer in column `name`, or nil when the field is empty.
        /// - Throws: ``MotionCore/RecordingError`` naming file, line, column and the bad value.
        public func integer(_ name: String) throws -> Int? {
            let text = try field(name)
            if text.isEmpty { return nil }
            guard let v = Int(text) else { throw error(name, "\(JSONValue.quoted(text)) is not an integer") }
            return v
        }

        /// The integer in column `name`, which must not be empty.
        /// - Throws: ``MotionCore/RecordingError`` naming file, line, column and the problem.
        public func requiredInteger(_ name: String) throws -> Int {
            guard let v = try integer(name) else { throw error(name, "empty, expected an integer") }
            return v
        }

        private func error(_ column: String, _ problem: String) -> RecordingError {
            RecordingError(file: file, line: line, column: (columns.firstIndex(of: column) ?? 0) + 1, columnName: column, problem: problem)
        }
    }

    /// The manifest file.
    public let file: String
    /// The column names, in order (the first is `path`).
    public let columns: [String]
    /// The rows, in file order (blank lines skipped).
    public let entries: [Entry]

    /// Reads `directory/manifest.csv`.
    /// - Throws: `SystemError` when it cannot be read; ``MotionCore/RecordingError`` naming the line
    ///   (and column) of a header without `path` first, a row with the wrong number of fields, or
    ///   an empty path.
    public init(directory: String) throws {
        let file = directory + "/manifest.csv"
        let lines = try TextFile.lines(file)
        guard let headerLine = lines.first else { throw RecordingError(file: file, line: nil, problem: "empty file: expected a header line starting with 'path'") }
        let columns = headerLine.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard columns.first == "path" else {
            throw RecordingError(file: file, line: 1, column: 1, problem: "expected the first column to be 'path', found \(JSONValue.quoted(String(columns[0].prefix(60))))")
        }
        var entries: [Entry] = []
        for (i, text) in lines.enumerated().dropFirst() where !text.isEmpty {
            let fields = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == columns.count else {
                throw RecordingError(file: file, line: i + 1, problem: "expected \(columns.count) fields (\(columns.joined(separator: ","))), found \(fields.count)")
            }
            guard !fields[0].isEmpty else { throw RecordingError(file: file, line: i + 1, column: 1, columnName: "path", problem: "empty path") }
            entries.append(Entry(file: file, line: i + 1, columns: columns, fields: fields))
        }
        self.file = file
        self.columns = columns
        self.entries = entries
    }
}
