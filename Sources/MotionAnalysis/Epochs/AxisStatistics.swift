/// Count, mean, sum of squared deviations, minimum and maximum of one axis over a stretch of
/// samples, kept so that two stretches merge exactly (Chan et al.'s pairwise update), for the
/// standard deviation and range of a 60-minute non-wear window built from 7.5-minute pieces.
///
/// Samples are added as offsets from the stretch's first value (a shifted sum), so a long
/// stretch near 1 g loses no precision to cancellation.
public struct AxisStatistics: Sendable, Equatable {
    /// Samples added.
    public private(set) var count = 0
    /// The first value (the shift of the sums).
    private var reference = 0.0
    private var sum = 0.0
    private var sumOfSquares = 0.0
    /// The smallest value, +inf while empty.
    public private(set) var minimum = Double.infinity
    /// The largest value, -inf while empty.
    public private(set) var maximum = -Double.infinity

    /// An empty stretch.
    public init() {}

    /// Adds one value.
    public mutating func add(_ value: Double) {
        if count == 0 { reference = value }
        let d = value - reference
        sum += d
        sumOfSquares += d * d
        count += 1
        if value < minimum { minimum = value }
        if value > maximum { maximum = value }
    }

    /// The mean (0 while empty).
    public var mean: Double { count == 0 ? 0 : reference + sum / Double(count) }

    /// The sum of squared deviations from the mean.
    public var squaredDeviations: Double {
        count == 0 ? 0 : max(0, sumOfSquares - sum * sum / Double(count))
    }

    /// The stretch of `self` followed by `other`, exactly as if every value had been added to one.
    public func merged(with other: AxisStatistics) -> AxisStatistics {
        guard other.count > 0 else { return self }
        guard count > 0 else { return other }
        let n = Double(count + other.count)
        let delta = other.mean - mean
        let m2 = squaredDeviations + other.squaredDeviations + delta * delta * Double(count) * Double(other.count) / n
        var out = AxisStatistics()
        out.count = count + other.count
        out.reference = mean + delta * Double(other.count) / n
        out.sum = 0
        out.sumOfSquares = m2
        out.minimum = Swift.min(minimum, other.minimum)
        out.maximum = Swift.max(maximum, other.maximum)
        return out
    }

    /// The sample standard deviation (n − 1; 0 below two values).
    public var standardDeviation: Double {
        count < 2 ? 0 : (squaredDeviations / Double(count - 1)).squareRoot()
    }

    /// The range, maximum − minimum (0 while empty).
    public var range: Double { count == 0 ? 0 : maximum - minimum }
}
