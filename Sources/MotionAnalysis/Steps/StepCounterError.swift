import MotionCore

/// Why ``StepCounter`` refused input. The counter's state is unchanged when it throws
/// (a batch is validated before any of it is consumed).
public enum StepCounterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A batch with no samples (a FIFO never delivers one; it signals a bug upstream).
    case emptyBatch
    /// A non-finite (NaN or infinite) acceleration value, or one beyond ±10⁶ m/s² (``InputLimits/acceleration``).
    case nonFiniteValue(index: Int, timestamp: Int64)
    /// A timestamp equal to or earlier than the previous sample's.
    case timestampNotIncreasing(index: Int, timestamp: Int64, previous: Int64)
    /// A timestamp beyond ±4 × 10¹⁸ ns (``InputLimits/timestampLimit``, ±126 years), where time arithmetic could overflow.
    case timestampOutOfRange(index: Int, timestamp: Int64)
    /// A configuration value out of range.
    case invalidConfiguration(String)
    /// A parameter name that ``StepCounterConfiguration/set(_:to:)`` does not know.
    case unknownParameter(String)

    /// A one-line description naming the sample (index within the batch) and the problem.
    public var description: String {
        switch self {
        case .emptyBatch:
            return SampleInputError.emptyBatch.description
        case let .nonFiniteValue(index, timestamp):
            return SampleInputError.nonFiniteValue(index: index, timestamp: timestamp, quantity: "acceleration").description
        case let .timestampNotIncreasing(index, timestamp, previous):
            return SampleInputError.timestampNotIncreasing(index: index, timestamp: timestamp, previous: previous).description
        case let .timestampOutOfRange(index, timestamp):
            return SampleInputError.timestampOutOfRange(index: index, timestamp: timestamp).description
        case let .invalidConfiguration(why):
            return "invalid step counter configuration: \(why)"
        case let .unknownParameter(name):
            return "unknown parameter '\(DiagnosticText.escaped(name.utf8))' (known: \(StepCounterConfiguration.parameterNames.joined(separator: ", ")))"
        }
    }
}
