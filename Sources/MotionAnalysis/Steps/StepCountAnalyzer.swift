import MotionCore

/// ``StepCounter`` as an analyzer of the pipeline: it counts the steps of every delivery, keeps
/// every step's time for the result, and announces each delivery's new steps as events (so the
/// pipeline measures how late each step became visible, confirmation hold included).
public struct StepCountAnalyzer: BatchAnalyzer {
    private var counter: StepCounter
    private var steps: [Int64] = []

    /// Creates the analyzer.
    /// - Throws: ``StepCounterError/invalidConfiguration(_:)``.
    public init(configuration: StepCounterConfiguration = StepCounterConfiguration()) throws(StepCounterError) {
        counter = try StepCounter(configuration: configuration)
    }

    /// `steps`.
    public var name: String { "steps" }

    /// Counts the delivery's steps.
    /// - Throws: ``StepCounterError`` (a ``SampleError``: it names the sample); nothing is consumed then.
    /// - Complexity: O(batch count); allocates only for the steps counted.
    public mutating func consume(_ batch: SampleBatch, context: AnalysisContext) throws(StepCounterError) -> StepEvents {
        let before = steps.count
        try counter.process(batch, into: &steps)
        return StepEvents(times: steps.count == before ? [] : Array(steps[before...]))
    }

    /// The counter holds nothing that the end of the stream would decide.
    public mutating func finish(context: AnalysisContext) -> StepEvents { StepEvents(times: []) }

    /// Every step counted so far.
    public var result: StepSummary { StepSummary(timestamps: steps) }

    /// Steps counted so far (the live count).
    public var count: Int { counter.count }
}
