import MotionCore
import MotionEvaluation
import Testing

/// How a bout recording is judged: steps inside each bout (capped at its truth), beyond it, in
/// the pauses, and matched to the true steps one to one.
struct StepEvaluationBoutTests {
    static let s: Int64 = 1_000_000_000

    /// Two bouts, 10-14 s (4 steps) and 30-35 s (5 steps), in a 40 s recording.
    static func recording() -> StepRecording {
        let truth: [Int64] = [10.5, 11.5, 12.5, 13.5, 30.5, 31.5, 32.5, 33.5, 34.5].map { Int64($0 * 1e9) }
        let samples = (0...400).map { Sample(timestamp: Int64($0) * 100_000_000, accel: Vector3(0, 0, 9.81)) }
        return StepRecording(path: "bouts/x.csv", sourcePath: "steps/oxford/x.csv", set: .bouts, activity: "bouts", unit: "oxford:X",
                             truth: 9, truthTimes: truth, bouts: [StepBout(start: 10 * s, end: 14 * s, truth: 4), StepBout(start: 30 * s, end: 35 * s, truth: 5)],
                             samples: samples)
    }

    @Test func boutCountsAreCappedAndPauseStepsCountedApart() {
        // Bout 1: all four plus a ring-down 0.3 s after its end (still inside the slack) and one
        // more 2 s later (a pause step); bout 2: three of five, one of them 0.4 s off its step.
        let steps: [Int64] = [10.5, 11.5, 12.5, 13.5, 14.3, 16.0, 30.5, 31.9, 33.5].map { Int64($0 * 1e9) }
        let r = StepEvaluation.judge(Self.recording(), steps: steps, latency: 0)
        #expect(r.bouts == [.init(truth: 4, counted: 5), .init(truth: 5, counted: 3)])
        #expect(r.boutStepsCounted == 7 && r.boutExcess == 1 && r.pauseSteps == 1)
        #expect(abs(r.pauseSeconds - 31) < 1e-9)
        let set = StepEvaluation.SetResult(set: .bouts, files: [r])
        #expect(set.boutCountRecall == 7.0 / 9)
        // One to one within 0.25 s: 10.5-13.5 and 30.5, 33.5 (31.9 is 0.4 s from 31.5 and 32.5).
        #expect(r.matching?.matched == 6 && set.boutRecall == 6.0 / 9)
        #expect(abs(set.pauseStepsPerHour - 3600.0 / 31) < 1e-9)
        // Outside the bout test there is no bout recall.
        #expect(StepEvaluation.SetResult(set: .oxford, files: [r]).boutRecall == nil)
    }

    @Test func theBoutTargetJudgesTheMatchedShare() {
        let truth = (0..<100).map { Int64(10 + $0) * Self.s / 2 }
        var r = Self.recording()
        r.truthTimes = truth
        r.bouts = [StepBout(start: 4 * Self.s, end: 60 * Self.s, truth: 100)]
        r.truth = 100
        let judged = StepEvaluation.judge(r, steps: Array(truth.dropFirst(6)), latency: 0)
        let verdict = StepEvaluation.verdicts([StepEvaluation.SetResult(set: .bouts, files: [judged])]).first { $0.name == "bout_recall" }
        #expect(verdict?.value == 0.94 && verdict?.met == false)
        let better = StepEvaluation.judge(r, steps: Array(truth.dropFirst(5)), latency: 0)
        #expect(StepEvaluation.verdicts([StepEvaluation.SetResult(set: .bouts, files: [better])]).first { $0.name == "bout_recall" }?.met == true)
    }
}
