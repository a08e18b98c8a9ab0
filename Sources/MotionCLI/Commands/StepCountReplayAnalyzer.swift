import MotionAnalysis
import MotionCore
import WakeCost

/// MotionAnalysis's ``StepCounter`` as a replay analysis for `motionbatch wakes RECORDING`:
/// each counted step is an event, so the replay reports how long after the step it became
/// visible (delivery time − step time, which includes the counter's own confirmation hold).
struct StepCountReplayAnalyzer: ReplayAnalyzer {
    private var counter: StepCounter
    private var steps: [Int64] = []

    /// Creates the analyser with the default step-counter configuration.
    init() throws {
        counter = try StepCounter()
    }

    var name: String { "steps" }

    mutating func consume(_ batch: SampleBatch) throws -> [Int64] {
        steps.removeAll(keepingCapacity: true)
        try counter.process(batch, into: &steps)
        return steps
    }

    mutating func finish() -> [Int64] { [] }

    var summary: [(String, String)] { [("count", String(counter.count))] }
}
