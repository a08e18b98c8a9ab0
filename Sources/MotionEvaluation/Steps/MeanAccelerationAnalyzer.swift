import MotionAnalysis
import MotionCore

/// The mean acceleration vector of a stream (gravity plus the average motion), summed in sample
/// order so that it is the same number whatever the batching.
public struct MeanAccelerationAnalyzer: BatchAnalyzer {
    private var mean = MeanAcceleration()

    /// Creates the analyzer.
    public init() {}

    /// `mean_accel`.
    public var name: String { "mean_accel" }

    /// Adds the delivery's accelerations.
    public mutating func consume(_ batch: SampleBatch, context: AnalysisContext) -> NoOutput {
        for s in batch.samples { mean.add(s.accel) }
        return NoOutput()
    }

    /// The sum so far.
    public var result: MeanAcceleration { mean }
}

/// The sum and count of a stream's accelerations, and their mean.
public struct MeanAcceleration: AnalysisResult {
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

    /// The mean, nil before the first sample.
    public var mean: Vector3? {
        guard count > 0 else { return nil }
        let n = Double(count)
        return Vector3(sum.x / n, sum.y / n, sum.z / n)
    }

    /// True before the first sample.
    public var isEmpty: Bool { count == 0 }
}
