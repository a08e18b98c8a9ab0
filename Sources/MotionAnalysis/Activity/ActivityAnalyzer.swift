import MotionCore

/// ``ActivityClassifier`` as an analyzer of the pipeline: its result is the timeline of activity
/// segments; per delivery it hands the analyzers after it (the step counter) the changes it
/// announced and the vehicle decisions that became final (``ActivityUpdate``). Its events are the
/// announced changes, timed at the back-dated start of their segment, so their visibility delay
/// includes the evidence the classifier waited for.
public struct ActivityAnalyzer: BatchAnalyzer {
    private var classifier: ActivityClassifier

    /// Creates the analyzer.
    /// - Parameter gyroscope: whether the stream carries angular rate.
    /// - Throws: ``ActivityClassifierError/invalidConfiguration(_:)``.
    public init(configuration: ActivityClassifierConfiguration = ActivityClassifierConfiguration(), gyroscope: Bool = false) throws(ActivityClassifierError) {
        classifier = try ActivityClassifier(configuration: configuration, gyroscope: gyroscope)
    }

    /// `activity`.
    public var name: String { "activity" }

    /// Classifies the delivery's samples.
    /// - Throws: ``ActivityClassifierError`` (a ``SampleError``: it names the sample); nothing is consumed then.
    public mutating func consume(_ batch: SampleBatch, context: AnalysisContext) throws(ActivityClassifierError) -> ActivityUpdate {
        try classifier.process(batch)
    }

    /// Closes the segment at the interruption; the next sample restarts the analysis
    /// (``ActivityClassifier/interrupt()``).
    public mutating func interrupt(at time: Int64, context: AnalysisContext) -> ActivityUpdate { classifier.interrupt() }

    /// Closes the last segment; every decision becomes final.
    public mutating func finish(context: AnalysisContext) -> ActivityUpdate { classifier.finish() }

    /// The segments so far.
    public var result: ActivityTimeline { classifier.timeline }

    /// The current class (the live activity), nil before the first sample.
    public var current: ActivityClass? { classifier.current }

    /// The current segment's confidence (0-100), nil before the first sample. O(1).
    public var currentConfidence: Double? { classifier.currentConfidence }

    /// The classifier's state (features of the last window, windows analysed).
    public var state: ActivityClassifier { classifier }
}
