import MotionCore

extension StreamStatistics: AnalysisResult {
    /// True before the first sample.
    public var isEmpty: Bool { sampleCount == 0 }
}
