extension StepSummary: AnalysisResult {
    /// True when no step was counted.
    public var isEmpty: Bool { timestamps.isEmpty }
}
