import MotionCore

/// MotionCore's ``MotionCore/StreamStatistics`` as an analyzer: sample count, span, effective rate
/// and timestamp gaps of the stream (how it was delivered is ``MotionCore/DeliveryReplay``'s account).
public struct StreamStatisticsAnalyzer: BatchAnalyzer {
    private var statistics: StreamStatistics

    /// Creates the analyzer. Pass the rate the source declares, if any (it sets the nominal period
    /// gaps are judged by; otherwise the median of the first intervals does).
    public init(declaredRateHz: Double? = nil) {
        statistics = StreamStatistics(declaredRateHz: declaredRateHz)
    }

    /// `stream`.
    public var name: String { "stream" }

    /// Adds the delivery's samples.
    public mutating func consume(_ batch: SampleBatch, context: AnalysisContext) -> NoOutput {
        statistics.add(batch)
        return NoOutput()
    }

    /// Settles the nominal period if the stream was too short to estimate it earlier.
    public mutating func finish(context: AnalysisContext) -> NoOutput {
        statistics.finish()
        return NoOutput()
    }

    /// The statistics so far.
    public var result: StreamStatistics { statistics }
}
