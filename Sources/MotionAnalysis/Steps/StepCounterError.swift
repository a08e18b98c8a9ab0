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
            return "empty batch: a batch must contain at least one sample"
        case let .nonFiniteValue(index, timestamp):
            return "sample \(index) of the batch (timestamp \(timestamp) ns): acceleration is NaN, infinite or beyond ±1e6 m/s^2"
        case let .timestampNotIncreasing(index, timestamp, previous):
            let what = timestamp == previous ? "duplicated" : "going backwards"
            return "sample \(index) of the batch: timestamp \(timestamp) ns \(what) (previous \(previous) ns)"
        case let .timestampOutOfRange(index, timestamp):
            return "sample \(index) of the batch: timestamp \(timestamp) ns is out of range (must be within ±4e18 ns)"
        case let .invalidConfiguration(why):
            return "invalid step counter configuration: \(why)"
        case let .unknownParameter(name):
            return "unknown parameter '\(DiagnosticText.escaped(name.utf8))' (known: \(StepCounterConfiguration.parameterNames.joined(separator: ", ")))"
        }
    }
}
