import MotionCore

/// A delivery an analyzer cannot use, whatever the analysis: empty, a value that is not finite or
/// beyond ±10⁶ (``InputLimits/sampleMagnitude``), timestamps beyond ±4 × 10¹⁸ ns
/// (``InputLimits/timestampLimit``) or that do not increase. The one description of these problems
/// (the step counter's and the activity classifier's errors carry them), and the one check.
public enum SampleInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A batch with no samples (a FIFO never delivers one; it signals a bug upstream).
    case emptyBatch
    /// A value of `quantity` (`acceleration`, `angular rate`) that is NaN, infinite or beyond ±10⁶
    /// (its square would overflow in the analyses).
    case nonFiniteValue(index: Int, timestamp: Int64, quantity: String)
    /// A timestamp equal to or earlier than the previous sample's.
    case timestampNotIncreasing(index: Int, timestamp: Int64, previous: Int64)
    /// A timestamp beyond ±4 × 10¹⁸ ns (±126 years), where time arithmetic could overflow.
    case timestampOutOfRange(index: Int, timestamp: Int64)

    /// A one-line description naming the sample (index within the batch) and the problem.
    public var description: String {
        switch self {
        case .emptyBatch:
            return "empty batch: a batch must contain at least one sample"
        case let .nonFiniteValue(index, timestamp, quantity):
            return "sample \(index) of the batch (timestamp \(timestamp) ns): \(quantity) is NaN, infinite or beyond ±1e6"
        case let .timestampNotIncreasing(index, timestamp, previous):
            let what = timestamp == previous ? "duplicated" : "going backwards"
            return "sample \(index) of the batch: timestamp \(timestamp) ns \(what) (previous \(previous) ns)"
        case let .timestampOutOfRange(index, timestamp):
            return "sample \(index) of the batch: timestamp \(timestamp) ns is out of range (allowed \(InputLimits.timestampRangeText))"
        }
    }

    /// Checks `samples`, which follow a sample at `previous` (`Int64.min` for none), before any of
    /// them is consumed: not empty, timestamps within range (checked first: the initial `previous`
    /// is `Int64.min`, so an Int64.min timestamp is out of range, not a duplicate) and increasing,
    /// acceleration (and, with `gyroscope`, angular rate) within ±``InputLimits/sampleMagnitude``.
    /// - Returns: the last sample's timestamp.
    /// - Complexity: O(samples), no allocation.
    @inline(__always)
    public static func validate(_ samples: UnsafeBufferPointer<Sample>, after previous: Int64, gyroscope: Bool) throws(SampleInputError) -> Int64 {
        if samples.isEmpty { throw .emptyBatch }
        var last = previous
        for i in samples.indices {
            let s = samples[i]
            if s.timestamp > Sample.timestampLimit || s.timestamp < -Sample.timestampLimit {
                throw .timestampOutOfRange(index: i, timestamp: s.timestamp)
            }
            if s.timestamp <= last { throw .timestampNotIncreasing(index: i, timestamp: s.timestamp, previous: last) }
            let limit = InputLimits.sampleMagnitude
            if !(s.accel.x.magnitude <= limit && s.accel.y.magnitude <= limit && s.accel.z.magnitude <= limit) {
                throw .nonFiniteValue(index: i, timestamp: s.timestamp, quantity: "acceleration")
            }
            if gyroscope && !(s.gyro.x.magnitude <= limit && s.gyro.y.magnitude <= limit && s.gyro.z.magnitude <= limit) {
                throw .nonFiniteValue(index: i, timestamp: s.timestamp, quantity: "angular rate")
            }
            last = s.timestamp
        }
        return last
    }
}

extension SampleInputError: SampleError {
    /// The offending sample's index in the batch (nil for an empty batch).
    public var sampleIndexInBatch: Int? {
        switch self {
        case .nonFiniteValue(let i, _, _), .timestampNotIncreasing(let i, _, _), .timestampOutOfRange(let i, _): return i
        case .emptyBatch: return nil
        }
    }
}
