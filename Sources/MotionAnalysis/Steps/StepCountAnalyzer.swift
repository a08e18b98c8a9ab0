import MotionCore

/// ``StepCounter`` as an analyzer of the pipeline: it counts the steps of every delivery, keeps
/// every step's time for the result, and announces each delivery's new steps as events (so the
/// pipeline measures how late each step became visible, confirmation hold included).
///
/// Given the handle of an ``ActivityAnalyzer`` added before it, it counts no steps in a vehicle:
/// each step is held (``VehicleStepGate``) until the classifier's vehicle decision for its time is
/// final, then counted or dropped, so the live count never goes down.
public struct StepCountAnalyzer: BatchAnalyzer {
    private var counter: StepCounter
    private var steps: [Int64] = []
    private let activity: AnalyzerHandle<ActivityAnalyzer>?
    private var gate = VehicleStepGate()
    private var emitted: [Int64] = []

    /// Creates the analyzer.
    /// - Parameter activity: the activity classifier whose vehicle decisions gate the steps (added
    ///   to the pipeline before this analyzer), or nil to count every step.
    /// - Throws: ``StepCounterError/invalidConfiguration(_:)``.
    public init(configuration: StepCounterConfiguration = StepCounterConfiguration(),
                activity: AnalyzerHandle<ActivityAnalyzer>? = nil) throws(StepCounterError) {
        counter = try StepCounter(configuration: configuration)
        self.activity = activity
    }

    /// `steps`.
    public var name: String { "steps" }

    /// Counts the delivery's steps.
    /// - Throws: ``StepCounterError`` (a ``SampleError``: it names the sample); nothing is consumed then.
    /// - Complexity: O(batch count); allocates only for the steps counted.
    public mutating func consume(_ batch: SampleBatch, context: AnalysisContext) throws(StepCounterError) -> StepEvents {
        let before = steps.count
        if let activity {
            emitted.removeAll(keepingCapacity: true)
            try counter.process(batch, into: &emitted)
            gate.pass(emitted, context.output(of: activity), into: &steps)
        } else {
            try counter.process(batch, into: &steps)
        }
        return StepEvents(times: steps.count == before ? [] : Array(steps[before...]))
    }

    /// Steps still held for the activity decision are counted or dropped now.
    public mutating func finish(context: AnalysisContext) -> StepEvents {
        guard let activity else { return StepEvents(times: []) }
        let before = steps.count
        gate.pass([], context.output(of: activity), into: &steps)
        gate.finish(into: &steps)
        return StepEvents(times: steps.count == before ? [] : Array(steps[before...]))
    }

    /// Every step counted so far.
    public var result: StepSummary { StepSummary(timestamps: steps) }

    /// Steps counted so far (the live count: steps held for the activity decision not included).
    public var count: Int { steps.count }

    /// Steps dropped because the activity classifier said `vehicle` at their time.
    public var droppedInVehicle: Int { gate.dropped }
}
