/// Why the activity classifier refused input or parameters. Its state is unchanged when it throws
/// (a batch is validated before any of it is consumed).
public enum ActivityClassifierError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A delivery it cannot use (empty, NaN/inf, timestamps not increasing or out of range).
    case input(SampleInputError)
    /// A configuration value out of range.
    case invalidConfiguration(String)
    /// A parameter name that ``ActivityClassifierConfiguration/set(_:to:)`` does not know.
    case unknownParameter(String)

    /// A one-line description naming the sample (index within the batch) and the problem.
    public var description: String {
        switch self {
        case let .input(e):
            return e.description
        case let .invalidConfiguration(why):
            return "invalid activity classifier configuration: \(why)"
        case let .unknownParameter(name):
            return "unknown activity parameter '\(name)' (known: \(ActivityClassifierConfiguration.parameterNames.joined(separator: ", ")))"
        }
    }
}
