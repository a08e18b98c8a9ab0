/// Why the activity classifier refused input. Its state is unchanged when it throws (a batch is
/// validated before any of it is consumed).
public enum ActivityClassifierError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A batch with no samples.
    case emptyBatch
    /// A non-finite (NaN or infinite) acceleration or angular-rate value.
    case nonFiniteValue(index: Int, timestamp: Int64)
    /// A timestamp equal to or earlier than the previous sample's.
    case timestampNotIncreasing(index: Int, timestamp: Int64, previous: Int64)
    /// A timestamp beyond ±2⁶² ns (±146 years), where time arithmetic could overflow.
    case timestampOutOfRange(index: Int, timestamp: Int64)
    /// A configuration value out of range.
    case invalidConfiguration(String)
    /// A parameter name that ``ActivityClassifierConfiguration/set(_:to:)`` does not know.
    case unknownParameter(String)

    /// A one-line description naming the sample (index within the batch) and the problem.
    public var description: String {
        switch self {
        case .emptyBatch:
            return "empty batch: a batch must contain at least one sample"
        case let .nonFiniteValue(index, timestamp):
            return "sample \(index) of the batch (timestamp \(timestamp) ns): acceleration or angular rate is NaN or infinite"
        case let .timestampNotIncreasing(index, timestamp, previous):
            let what = timestamp == previous ? "duplicated" : "going backwards"
            return "sample \(index) of the batch: timestamp \(timestamp) ns \(what) (previous \(previous) ns)"
        case let .timestampOutOfRange(index, timestamp):
            return "sample \(index) of the batch: timestamp \(timestamp) ns is out of range (must be within ±2^62 ns)"
        case let .invalidConfiguration(why):
            return "invalid activity classifier configuration: \(why)"
        case let .unknownParameter(name):
            return "unknown activity parameter '\(name)' (known: \(ActivityClassifierConfiguration.parameterNames.joined(separator: ", ")))"
        }
    }
}
