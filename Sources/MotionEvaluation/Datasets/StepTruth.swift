import MotionCore

/// The ground-truth step times of one recording (a `.steps.csv` file beside it: header `time_s`,
/// then one time in seconds per line, on the recording's clock).
public enum StepTruth {
    /// The truth file of a recording: `walk.csv` → `walk.steps.csv`.
    public static func path(forRecording recording: String) -> String {
        (recording.hasSuffix(".csv") ? String(recording.dropLast(4)) : recording) + ".steps.csv"
    }

    /// Reads the step times of `path`, in nanoseconds.
    /// - Throws: `SystemError` when it cannot be read; ``MotionCore/RecordingError`` naming the line
    ///   of a missing header or a value that is not a finite time in seconds.
    public static func read(_ path: String) throws -> [Int64] {
        let lines = try TextFile.lines(path)
        guard lines.first == "time_s" else {
            throw RecordingError(file: path, line: 1, problem: "expected header 'time_s', found \(JSONValue.quoted(String((lines.first ?? "").prefix(60))))")
        }
        var out: [Int64] = []
        for (i, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            // Beyond 9e9 s the time no longer fits in Int64 nanoseconds.
            guard let s = Double(line), s.isFinite, s.magnitude < 9e9 else {
                throw RecordingError(file: path, line: i + 1, column: 1, columnName: "time_s", problem: "\(JSONValue.quoted(String(line.prefix(60)))) is not a time in seconds")
            }
            out.append(Int64((s * 1e9).rounded()))
        }
        return out
    }
}
