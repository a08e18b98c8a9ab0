import MotionAnalysis
@testable import MotionCLI
import MotionCore
import Testing
import MotionTestSupport

/// Properties and accuracy on the real recordings of ../shared/datasets.
// Skipped when the datasets folder is absent (a fresh clone without ../shared/datasets).
@Suite(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
struct StepCounterDatasetTests {
    /// Runs the counter with the given batch boundaries (cut points) and returns every step.
    static func run(_ samples: [Sample], cuts: [Int]) throws -> [Int64] {
        var counter = try StepCounter()
        var steps: [Int64] = []
        var start = 0
        for end in cuts + [samples.count] where end > start {
            try counter.process(SampleBatch(samples: Array(samples[start..<end]), deliveredAt: samples[end - 1].timestamp), into: &steps)
            start = end
        }
        #expect(counter.count == steps.count)
        return steps
    }

    static func same(_ a: [Int64], _ b: [Int64]) -> Bool { a == b }

    /// Where two step lists first differ (a short message instead of two long arrays).
    static func difference(_ a: [Int64], _ b: [Int64]) -> String {
        let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        return "\(a.count) vs \(b.count) steps, first difference at step \(i)"
    }

    static func fixedCuts(_ n: Int, size: Int) -> [Int] { Array(stride(from: size, to: n, by: size)) }

    @Test(arguments: [
        "steps/oxford/Pixel_Jamie_Hard_FrontPocket_1.csv",
        "steps/oxford/Samsung_Dario_Hard_Purse_1.csv",
        "steps/bangle/100_4.csv",
        "steps/bangle/150_2.csv",
        "steps/bangle/0_HughB-drive-36min-0.csv",
    ])
    func identicalOutputForEveryBatchSizeAndSplit(path: String) throws {
        let samples = try Recording.read(path: stepDatasetsRoot + "/" + path).samples
        let reference = try Self.run(samples, cuts: [])   // the whole file in one batch
        #expect(reference.count > 0 || path.contains("drive"))
        for size in [1, 2, 3, 7, 13, 64, 97, 1000, 4093] {
            let steps = try Self.run(samples, cuts: Self.fixedCuts(samples.count, size: size))
            #expect(Self.same(steps, reference), "batch size \(size): \(Self.difference(steps, reference))")
        }
        var g = SplitMix64(seed: 0x5EED)
        for trial in 0..<5 {
            var cuts: [Int] = []
            var i = 0
            while true {
                i += Int.random(in: 1...(trial.isMultiple(of: 2) ? 50 : 3000), using: &g)
                if i >= samples.count { break }
                cuts.append(i)
            }
            let steps = try Self.run(samples, cuts: cuts)
            #expect(Self.same(steps, reference), "random split \(trial) (\(cuts.count + 1) batches): \(Self.difference(steps, reference))")
        }
    }

    @Test func accuracyTargetsOnPhoneAndWristWalks() throws {
        typealias T = StepDatasetEvaluation.Target
        let results = try StepDatasetEvaluation(directory: stepDatasetsRoot).run()
        let oxford = try #require(results.first { $0.set == .oxford })
        let bangle = try #require(results.first { $0.set == .bangleWalks })
        #expect(oxford.files.count == 48)
        #expect(oxford.mape <= T.oxfordMAPE)
        #expect(oxford.maxAbsErrorPercent <= T.oxfordMaxError)
        #expect((oxford.precision ?? 0) >= T.oxfordPrecisionRecall)
        #expect((oxford.recall ?? 0) >= T.oxfordPrecisionRecall)
        #expect(bangle.files.count >= 10)
        #expect(bangle.mape <= T.bangleMAPE)
        #expect(bangle.maxAbsErrorPercent <= T.bangleMaxError)
        for r in results {
            #expect(r.maxLatencySeconds <= T.latencySeconds, "\(r.set): a step was emitted \(r.maxLatencySeconds) s after it happened")
        }
    }

    @Test func falseStepsOnNonWalkingRecordings() throws {
        let results = try StepDatasetEvaluation(directory: stepDatasetsRoot).run()
        let nonWalking = try #require(results.first { $0.set == .nonWalking })
        #expect(nonWalking.hours > 2)
        // Still and zero-step recordings must stay at exactly zero.
        for f in nonWalking.files where f.activity == "still" || f.activity == "no-walking" {
            #expect(f.counted == 0, "\(f.path): \(f.counted) steps")
        }
        // Target: <= 10 false steps per hour over the whole set (steps counted beyond the manifest truth).
        #expect(nonWalking.falseStepsPerHour <= StepDatasetEvaluation.Target.falseStepsPerHour)
    }

    /// Which targets of issue 4 a set of results misses (empty = all met), judged as
    /// `eval steps --check` judges them.
    static func missedTargets(_ results: [StepDatasetEvaluation.SetResult]) -> [String] {
        EvalCommand.verdicts(results).filter { !$0.met }.map { "\($0.set).\($0.name) \($0.value)" }
    }

    /// Robustness: the strong-swing threshold no longer decides the result (before the
    /// periodicity gate only 1.7–1.8 m/s² met every target).
    @Test(arguments: [1.3, 2.2, 3.0])
    func targetsHoldForAWideRangeOfSwingThresholds(minAmplitude: Double) throws {
        var c = StepCounterConfiguration()
        c.minAmplitude = minAmplitude
        let missed = Self.missedTargets(try StepDatasetEvaluation(directory: stepDatasetsRoot, configuration: c).run())
        #expect(missed.isEmpty, "minAmplitude \(minAmplitude): \(missed)")
    }

    /// Robustness: gentler walkers (every recording's motion scaled down to 70 %) still meet every
    /// target (the counter without the gate loses whole walks there).
    @Test func targetsHoldForGentlerMotion() throws {
        let missed = Self.missedTargets(try StepDatasetEvaluation(directory: stepDatasetsRoot, amplitudeScale: 0.7).run())
        #expect(missed.isEmpty, "\(missed)")
    }
}
