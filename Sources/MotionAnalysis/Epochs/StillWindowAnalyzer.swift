import MotionCore

/// The first pass of auto-calibration (``AccelerationCalibration``): the per-axis means (g) of the
/// 10-second windows of the clock (aligned to multiples of 10 s) in which every axis's standard
/// deviation is below 13 mg and every mean within ±2 g (a device lying still, not clipping).
/// An interruption ends the window at hand.
///
/// - Complexity: O(1) per sample; memory O(still windows), 24 bytes each (1.5 MB for a week still).
public struct StillWindowAnalyzer: BatchAnalyzer {
    /// One window, ns.
    public static let windowNs: Int64 = 10_000_000_000
    /// Standard deviation below which an axis is still, g.
    public static let stillDeviation = 0.013

    /// The means of the still windows so far.
    public struct Means: AnalysisResult {
        /// x, y, z means in g, one per still window, in time order.
        public var values: [Vector3] = []
        /// True when no window was still.
        public var isEmpty: Bool { values.isEmpty }
    }

    private var means = Means()
    private var window: Int64?
    private var x = AxisStatistics(), y = AxisStatistics(), z = AxisStatistics()

    /// A fresh analyzer.
    public init() {}

    /// `still-windows`.
    public var name: String { "still-windows" }

    /// Adds the delivery's samples.
    public mutating func consume(_ batch: SampleBatch, context: AnalysisContext) -> NoOutput {
        let g = 1 / AccelerationMetricsAnalyzer.standardGravity
        for s in batch.samples {
            let w = AccelerationMetricsAnalyzer.floorDiv(s.timestamp, Self.windowNs)
            if w != window {
                close()
                window = w
            }
            x.add(s.accel.x * g)
            y.add(s.accel.y * g)
            z.add(s.accel.z * g)
        }
        return NoOutput()
    }

    /// Ends the window at hand.
    public mutating func interrupt(at time: Int64, context: AnalysisContext) -> NoOutput {
        close()
        return NoOutput()
    }

    /// Ends the last window.
    public mutating func finish(context: AnalysisContext) -> NoOutput {
        close()
        return NoOutput()
    }

    /// The still windows' means (the open window's only after ``finish(context:)``).
    public var result: Means { means }

    private mutating func close() {
        defer { x = AxisStatistics(); y = AxisStatistics(); z = AxisStatistics(); window = nil }
        guard x.count >= 2 else { return }
        let axes = [x, y, z]
        guard axes.allSatisfy({ $0.standardDeviation < Self.stillDeviation && abs($0.mean) < 2 }) else { return }
        means.values.append(Vector3(x.mean, y.mean, z.mean))
    }
}
