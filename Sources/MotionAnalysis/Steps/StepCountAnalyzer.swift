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
    private var lastDeliveredAt: Int64 = 0
    /// The array the last output's step times were handed over in, reused for the next output
    /// (no allocation per delivery once the pipeline let go of the last one).
    private var outputTimes: [Int64] = []
    /// The silences the signal moved through, for ``InferredSteps`` (only with the classifier).
    private var motion = SilenceMotionTracker()

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
            batch.samples.withUnsafeBufferPointer { b in for s in b { motion.add(s) } }
            gate.pass(emitted, context.output(of: activity), deliveredAt: batch.deliveredAt, into: &steps)
            lastDeliveredAt = batch.deliveredAt
            noteCounted(since: before)
        } else {
            try counter.process(batch, into: &steps)
        }
        return events(since: before)
    }

    /// The counter closes the signal at the interruption and restarts after it
    /// (``StepCounter/interrupt(into:)``); the steps this decides pass the activity gate with the
    /// classifier's decisions for the interruption (it closes its segment there).
    public mutating func interrupt(at time: Int64, context: AnalysisContext) -> StepEvents {
        let before = steps.count
        if let activity {
            emitted.removeAll(keepingCapacity: true)
            counter.interrupt(into: &emitted)
            motion.closeBin()
            gate.pass(emitted, context.output(of: activity), deliveredAt: lastDeliveredAt, into: &steps)
            noteCounted(since: before)
        } else {
            counter.interrupt(into: &steps)
        }
        return events(since: before)
    }

    /// Steps still held for the activity decision are counted or dropped now.
    public mutating func finish(context: AnalysisContext) -> StepEvents {
        guard let activity else { return StepEvents(times: []) }
        let before = steps.count
        motion.closeBin()
        gate.pass([], context.output(of: activity), deliveredAt: lastDeliveredAt, into: &steps)
        gate.finish(lastDeliveredAt: lastDeliveredAt, into: &steps)
        noteCounted(since: before)
        return events(since: before)
    }

    /// Hands the steps counted since `before` to the silence tracker.
    private mutating func noteCounted(since before: Int) {
        for i in before..<steps.count { motion.counted(steps[i]) }
    }

    /// The stretches between consecutive counted steps that the signal moved through (empty
    /// without the classifier): what ``InferredSteps`` fills where the classifier says gait.
    public var movingSilences: [InferredSteps.Silence] { motion.silences }

    /// The steps counted since `before` (an index in ``steps``), in the reused ``outputTimes``.
    private mutating func events(since before: Int) -> StepEvents {
        guard steps.count != before else { return StepEvents(times: []) }
        var times: [Int64] = []
        swap(&times, &outputTimes)
        times.removeAll(keepingCapacity: true)
        times.append(contentsOf: steps[before...])
        outputTimes = times
        return StepEvents(times: times)
    }

    /// Every step counted so far.
    public var result: StepSummary { StepSummary(timestamps: steps) }

    /// Steps counted so far (the live count: steps held for the activity decision not included).
    public var count: Int { steps.count }

    /// Steps dropped because the activity classifier said `vehicle` at their time.
    public var droppedInVehicle: Int { gate.dropped }

    /// Per counted step, in the order counted: how long it was held for the activity decision
    /// (the part of its visibility delay that the vehicle gating added; empty without gating).
    /// Depends on the delivery, like the pipeline's visibility, so it is not part of ``result``.
    public var activityHold: EventVisibility { gate.holds }
}
