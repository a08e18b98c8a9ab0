import MotionCore
import MotionAnalysis

/// A recording's ground-truth labels as runs on its clock: each run from its first sample's time
/// to the next run's first sample (the last run to the last sample). Unlabelled stretches are runs
/// with a nil label.
public struct LabelRuns: AnalysisResult, Sendable {
    /// One run of equal labels.
    public struct Run: Sendable, Equatable {
        /// The label, nil where unlabelled.
        public var label: String?
        /// First instant (ns).
        public var start: Int64
        /// End (ns): the next run's start, or the last sample.
        public var end: Int64
    }

    /// The runs, in time order.
    public var runs: [Run] = []

    /// No runs.
    public init(runs: [Run] = []) { self.runs = runs }

    /// True without any sample.
    public var isEmpty: Bool { runs.isEmpty }
}

/// Collects a labelled stream's ``LabelRuns`` from the labels travelling beside each delivery
/// (``MotionAnalysis/AnalysisContext/labels``), for the evaluation to compare with the classifier.
public struct LabelRunsAnalyzer: BatchAnalyzer {
    /// The runs so far (the last one ends at the latest sample).
    public private(set) var result = LabelRuns()

    /// An empty collector.
    public init() {}

    /// `labels`.
    public var name: String { "labels" }

    /// Appends the delivery's labels.
    public mutating func consume(_ batch: SampleBatch, context: AnalysisContext) -> NoOutput {
        guard let labels = context.labels, !batch.samples.isEmpty else { return NoOutput() }
        for r in labels.runs {
            let t = batch.samples[r.start].timestamp
            if let last = result.runs.last, last.label == r.label { continue }
            if !result.runs.isEmpty { result.runs[result.runs.count - 1].end = t }
            result.runs.append(LabelRuns.Run(label: r.label, start: t, end: t))
        }
        result.runs[result.runs.count - 1].end = batch.samples[batch.count - 1].timestamp
        return NoOutput()
    }
}
