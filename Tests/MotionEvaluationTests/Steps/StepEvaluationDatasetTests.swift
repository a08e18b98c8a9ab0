import MotionAnalysis
import MotionEvaluation
import MotionTestSupport
import Testing

/// The step counter on the real recordings of ../shared/datasets: the in-sample figures against
/// the targets, a cross-validation on a reduced fold set (the full one runs from the release
/// binary: `motionbatch eval steps`), robustness. Skipped when the datasets folder is absent.
@Suite(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
struct StepEvaluationDatasetTests {
    /// The corpus, read and derived once for every test of the suite.
    static let corpus: StepCorpus? = try? StepCorpus.load(directory: TestPaths.datasetsRoot)

    static func loaded() throws -> StepCorpus { try #require(corpus, "the datasets folder could not be read") }

    /// Every recording counted with `c` (whole deliveries, no latency), as `--sweep` does.
    static func counted(_ c: StepCounterConfiguration = StepCounterConfiguration(), corpus: StepCorpus? = nil) throws -> [StepEvaluation.SetResult] {
        let k = try corpus ?? loaded()
        return StepEvaluation.sets(try k.recordings.map { StepEvaluation.judge($0, steps: try StepEvaluation.count($0, configuration: c), latency: 0) })
    }

    @Test func theCorpusHoldsEverySet() throws {
        let k = try Self.loaded()
        let sets = StepEvaluation.sets(k.recordings.map { StepEvaluation.judge($0, steps: [], latency: 0, matching: false) })
        #expect(sets.map(\.set) == StepEvaluation.Set.allCases)
        #expect(k.recordings.filter { $0.set == .oxford }.count == 48)
        #expect(k.recordings.filter { $0.set == .bangleWalks }.count >= 10)
        let bouts = try #require(sets.first { $0.set == .bouts })
        #expect(bouts.boutCount > 1000 && bouts.boutTruth > 10_000)
        // Sources: the three Oxford subjects and the two Bangle.js wearer groups.
        #expect(Set(k.recordings.map(\.unit)) == ["oxford:Jamie", "oxford:Carmelo", "oxford:Dario", "bangle:HughB", "bangle:numbered"])
    }

    /// The in-sample targets the counter does not meet yet: none. (The last one, the arm swing
    /// removed, is met since the transform stopped making dips of |a| out of the wrist's turns:
    /// docs/step-counter.md, "Arm swing reduced or removed".) Any miss fails the test.
    static let knownMisses: Set<String> = []

    @Test func inSampleFiguresMeetTheTargetsWithBoundedLatency() throws {
        let results = try StepEvaluation(corpus: Self.loaded()).run()
        let missed = Set(StepEvaluation.verdicts(results).filter { !$0.met }.map { "\($0.set).\($0.name)" })
        #expect(missed == Self.knownMisses, "missed: \(missed.sorted())")
        for r in results {
            #expect(r.maxLatencySeconds <= StepEvaluation.Target.latencySeconds, "\(r.set): a step was emitted \(r.maxLatencySeconds) s after it happened")
            if r.set != .nonWalking { #expect(r.maxLatencySeconds > 0, "\(r.set): latency is measured") }
        }
        // Still and zero-step recordings stay at exactly zero.
        let nonWalking = try #require(results.first { $0.set == .nonWalking })
        for f in nonWalking.files where f.activity == "still" || f.activity == "no-walking" {
            #expect(f.counted == 0, "\(f.path): \(f.counted) steps")
        }
    }

    /// The cross-validation on a reduced fold set (the three Oxford subjects and the HughB
    /// recordings, the folds where the choice moves) and a reduced grid: every held-out file is
    /// counted with its own fold's choice, never with one tuned on it.
    @Test func crossValidationHoldsOutEachUnitFromItsOwnTuning() throws {
        let k = try Self.loaded()
        let space = StepSearchSpace([.init(name: "minPeriodicity", values: [0.8, 0.9]), .init(name: "maxIntervalRatio", values: [1.4, 2.0])])
        var cv = StepCrossValidation(corpus: k, space: space)
        let held = ["oxford:Jamie", "oxford:Carmelo", "oxford:Dario", "bangle:HughB"]
        let result = try cv.run(units: held)
        #expect(result.folds.map(\.heldOut) == held)
        #expect(result.configurationsCounted == space.gridSize)
        let cvFiles = result.crossValidated.flatMap(\.files)
        #expect(cvFiles.count == k.recordings.filter { held.contains($0.unit) }.count)
        for fold in result.folds {
            #expect(space.points.contains(fold.values))
            // The held-out files were counted with the fold's configuration.
            for f in cvFiles where f.unit == fold.heldOut {
                let r = try #require(k.recordings.first { $0.path == f.path })
                // Counted through the standard pipeline: the counter alone, less what the vehicle
                // gating drops (nothing on a walk: gatingKeepsEveryStepOfTheWalks).
                let alone = try StepEvaluation.count(r, configuration: fold.configuration).count
                if r.set == .nonWalking { #expect(f.counted <= alone, "\(f.path)") } else { #expect(f.counted == alone, "\(f.path)") }
            }
        }
        // The Oxford recordings all held out: their cross-validated MAPE stays within the target.
        let oxford = try #require(result.crossValidated.first { $0.set == .oxford })
        #expect(oxford.files.count == 48)
        #expect(oxford.mape <= StepEvaluation.Target.oxfordMAPE, "cross-validated Oxford MAPE \(oxford.mape)")
    }

    /// Robustness at issue 4's targets (Oxford MAPE 3 %, Bangle walks 5 %, 10 false steps/h): the
    /// strong-swing threshold is not a knife edge.
    @Test(arguments: [2.2, 3.0])
    func issue4TargetsHoldForAWideRangeOfSwingThresholds(minAmplitude: Double) throws {
        var c = StepCounterConfiguration()
        c.minAmplitude = minAmplitude
        let r = try Self.counted(c)
        #expect(r.first { $0.set == .oxford }!.mape <= 3 && r.first { $0.set == .bangleWalks }!.mape <= 5
                && r.first { $0.set == .nonWalking }!.falseStepsPerHour <= 10, "minAmplitude \(minAmplitude)")
    }

    /// Robustness: gentler walkers (every recording's motion scaled down to 70 %) still meet
    /// issue 4's targets.
    @Test func issue4TargetsHoldForGentlerMotion() throws {
        let gentle = try StepCorpus.load(directory: TestPaths.datasetsRoot, amplitudeScale: 0.7)
        let r = try Self.counted(corpus: gentle)
        #expect(r.first { $0.set == .oxford }!.mape <= 3 && r.first { $0.set == .bangleWalks }!.mape <= 5
                && r.first { $0.set == .nonWalking }!.falseStepsPerHour <= 10)
    }

    /// A counter that misses a target is judged so (the verdicts can fail).
    @Test func aBadCounterMissesTargets() throws {
        var c = StepCounterConfiguration()
        c.minPeriodicity = 0
        c.minSwing = 0.3
        let missed = StepEvaluation.verdicts(try Self.counted(c)).filter { !$0.met }.map { "\($0.set).\($0.name)" }
        #expect(missed.contains("non_walking.false_steps_per_hour"), "\(missed)")
    }
}
