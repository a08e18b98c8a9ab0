import MotionCore

/// The sum and count of a stream's accelerations, and their mean (summed in sample order, so the
/// same number whatever the batching).
public struct MeanAcceleration: Sendable, Equatable {
    /// Sum of the accelerations, m/s².
    public private(set) var sum = Vector3.zero
    /// Accelerations summed.
    public private(set) var count = 0

    /// Nothing summed.
    public init() {}

    /// Adds one acceleration.
    public mutating func add(_ a: Vector3) {
        sum = Vector3(sum.x + a.x, sum.y + a.y, sum.z + a.z)
        count += 1
    }

    /// The mean of `samples`' accelerations, nil without samples.
    public static func of<S: Sequence>(_ samples: S) -> Vector3? where S.Element == Sample {
        var m = MeanAcceleration()
        for s in samples { m.add(s.accel) }
        return m.mean
    }

    /// The mean, nil before the first sample.
    public var mean: Vector3? {
        guard count > 0 else { return nil }
        let n = Double(count)
        return Vector3(sum.x / n, sum.y / n, sum.z / n)
    }
}
