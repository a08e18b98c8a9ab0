import MotionCore

/// An error from the wake-cost model: a bad profile or capture file, or inputs the model
/// cannot use. The message names the file and the key (or argument) and says what is wrong.
public struct WakeCostError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file the bad value came from (`<built-in>` or `<argument>` when not from a file).
    public var file: String
    /// The JSON key or parameter name at fault, if one is.
    public var key: String?
    /// What is wrong, in words.
    public var problem: String
    /// Where in the file (line and column of the value or key), when the problem is in a file.
    public var position: TextPosition?

    /// Creates an error.
    public init(file: String, key: String? = nil, problem: String, position: TextPosition? = nil) {
        self.file = file
        self.key = key
        self.problem = problem
        self.position = position
    }

    /// `FILE:LINE:COLUMN: key 'k': problem` (without the position when there is none).
    public var description: String {
        let place = position.map { "\(file):\($0)" } ?? file
        if let key { return "\(place): key '\(DiagnosticText.escaped(key.utf8))': \(problem)" }
        return "\(place): \(problem)"
    }
}
