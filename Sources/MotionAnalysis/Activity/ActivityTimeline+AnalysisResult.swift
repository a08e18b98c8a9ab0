extension ActivityTimeline: AnalysisResult {
    /// True when no segment was found (no sample was consumed).
    public var isEmpty: Bool { segments.isEmpty }
}
