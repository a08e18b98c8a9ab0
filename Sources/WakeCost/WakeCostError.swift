/// An error from the wake-cost model: a bad profile or capture file, or inputs the model
/// cannot use. The message names the file and the key (or argument) and says what is wrong.
public struct WakeCostError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file the bad value came from (`<built-in>` or `<argument>` when not from a file).
    public var file: String
    /// The JSON key or parameter name at fault, if one is.
    public var key: String?
    /// What is wrong, in words.
    public var problem: String

    /// Creates an error.
    public init(file: String, key: String? = nil, problem: String) {
        self.file = file
        self.key = key
        self.problem = problem
    }

    /// `FILE: key 'k': problem`.
    public var description: String {
        if let key { return "\(file): key '\(key)': \(problem)" }
        return "\(file): \(problem)"
    }
}
