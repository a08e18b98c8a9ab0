/// What ``AccelerationMetricsAnalyzer`` found: the recording's minutes with samples and its 7.5-minute
/// pieces, each in time order. The same for every batching of the stream.
public struct AccelerationMetrics: Sendable, Equatable {
    /// Minutes holding at least one sample, in time order.
    public var minutes: [AccelerationMinute] = []
    /// 7.5-minute pieces holding at least one sample, in time order.
    public var pieces: [AccelerationPiece] = []

    /// Nothing yet.
    public init() {}
}

extension AccelerationMetrics: AnalysisResult {
    /// True when no sample was seen.
    public var isEmpty: Bool { minutes.isEmpty }
}
