import MotionCore

/// What an analyzer is told about a delivery besides its samples: the per-sample labels when the
/// source has them, where the delivery starts in the stream, and what the analyzers that run before
/// it produced for the same delivery.
public struct AnalysisContext {
    /// The delivery's per-sample labels (one per sample), or nil when the source has none.
    public let labels: SampleLabels?
    /// Index in the stream of the delivery's first sample (0 for the first sample ever delivered).
    public let firstSampleIndex: Int
    /// Outputs by position; those before `available` are this delivery's.
    private let outputs: [any AnalysisOutput]
    /// The position of the analyzer being run: it may read the outputs of those before it.
    private let available: Int

    init(labels: SampleLabels?, firstSampleIndex: Int, outputs: [any AnalysisOutput], available: Int) {
        self.labels = labels
        self.firstSampleIndex = firstSampleIndex
        self.outputs = outputs
        self.available = available
    }

    /// The output that the analyzer at `handle` produced for this delivery (or for the end of the
    /// stream, during ``BatchAnalyzer/finish(context:)``).
    /// - Precondition: that analyzer was added to the pipeline before the one asking.
    public func output<A: BatchAnalyzer>(of handle: AnalyzerHandle<A>) -> A.Output {
        precondition(handle.index < available, "an analyzer can only read the outputs of analyzers added before it")
        guard let output = outputs[handle.index].unwrapped(as: A.Output.self) else {
            preconditionFailure("analyzer handle \(handle.index) does not belong to this pipeline (it holds \(type(of: outputs[handle.index])))")
        }
        return output
    }
}
