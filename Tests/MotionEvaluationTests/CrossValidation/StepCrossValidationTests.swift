import MotionAnalysis
import MotionCore
@testable import MotionEvaluation
import MotionTestSupport
import Testing

/// The cross-validation's parts: the grid, the training objective, and folds that never see
/// their held-out unit (on a synthetic datasets folder, so that they run without the real data).
struct StepCrossValidationTests {
    @Test func theGridHoldsEveryCombinationLastDimensionFastest() {
        let space = StepSearchSpace([.init(name: "minPeriodicity", values: [0.8, 0.9]), .init(name: "minSwing", values: [0.7, 0.8, 1])])
        #expect(space.gridSize == 6)
        #expect(space.points == [[0.8, 0.7], [0.8, 0.8], [0.8, 1], [0.9, 0.7], [0.9, 0.8], [0.9, 1]])
        #expect(StepSearchSpace.standard.points.count == StepSearchSpace.standard.gridSize)
        // The defaults are a point of the standard grid.
        let c = StepCounterConfiguration()
        #expect(StepSearchSpace.standard.points.contains(StepSearchSpace.standard.dimensions.map { c.value(of: $0.name)! }))
    }

    @Test func theObjectiveNormalisesByTheTargetsAndPrefersFewerMissesThenTheWorstMargin() {
        // Oxford MAPE 1.5 %, Bangle 3 %, 5 false steps in one hour, 95 of 100 bout steps: all at
        // their target exactly.
        let atTarget = StepTrainingObjective([(.oxford, 100, 60, 101, 0), (.oxford, 100, 60, 98, 0), (.bangleWalks, 100, 60, 103, 0),
                                              (.nonWalking, 0, 3600, 5, 0), (.bouts, 100, 600, 100, 95)])
        #expect(atTarget.normalised.map { ($0! * 1e9).rounded() / 1e9 } == [1, 1, 1, 1])
        #expect(atTarget.missed == 0 && abs(atTarget.worst - 1) < 1e-9 && abs(atTarget.loss - 4) < 1e-9)
        let oneMissed = StepTrainingObjective([(.oxford, 100, 60, 102, 0), (.nonWalking, 0, 3600, 0, 0)])
        #expect(oneMissed.missed == 1 && oneMissed.normalised[1] == nil && oneMissed.normalised[3] == nil)
        #expect(atTarget < oneMissed)
        // Same misses: the smaller worst figure wins even with a larger sum.
        let balanced = StepTrainingObjective([(.oxford, 1000, 60, 1012, 0), (.bangleWalks, 1000, 60, 976, 0), (.nonWalking, 0, 3600, 4, 0)])  // 0.8 each
        let lopsided = StepTrainingObjective([(.oxford, 1000, 60, 1000, 0), (.bangleWalks, 1000, 60, 1000, 0), (.nonWalking, 0, 7200, 9, 0)])  // 0, 0, 0.9
        #expect(abs(balanced.worst - 0.8) < 1e-9 && abs(lopsided.worst - 0.9) < 1e-9 && lopsided.loss < balanced.loss)
        #expect(balanced < lopsided)
    }

    static func corpus(rocking: Bool) throws -> StepCorpus {
        try StepCorpus.load(directory: SyntheticDatasets.write(vehicleRocks: rocking))
    }

    static let space = StepSearchSpace([.init(name: "minPeriodicity", values: [0.8, 0.9]), .init(name: "minSwing", values: [0.8, 1.5])])

    /// A fold's choice depends only on its training units: changing the held-out recording
    /// changes what is counted in it, not what its fold chose; and the choice is the best of the
    /// grid on the other units, recomputed here from the counts.
    @Test func aFoldNeverSeesItsHeldOutUnit() throws {
        let calm = try Self.corpus(rocking: false), rough = try Self.corpus(rocking: true)
        var a = StepCrossValidation(corpus: calm, space: Self.space), b = StepCrossValidation(corpus: rough, space: Self.space)
        let unit = "bangle:numbered"
        let ra = try a.run(units: [unit, "oxford:Alice"]), rb = try b.run(units: [unit, "oxford:Alice"])
        #expect(ra.folds[0].values == rb.folds[0].values)
        #expect(ra.crossValidated.flatMap(\.files).filter { $0.unit == unit }.map(\.counted)
                != rb.crossValidated.flatMap(\.files).filter { $0.unit == unit }.map(\.counted), "the rocking drive counts differently")
        // The fold holding out Alice chose the best point on the others.
        let fold = ra.folds[1]
        #expect(fold.heldOut == "oxford:Alice")
        func objective(_ values: [Double]) throws -> StepTrainingObjective {
            let c = try a.configuration(values)
            return StepTrainingObjective(try calm.recordings.filter { $0.unit != "oxford:Alice" }.map { r in
                let judged = StepEvaluation.judge(r, steps: try StepEvaluation.count(r, configuration: c), latency: 0)
                return (r.set, r.truth, r.durationSeconds, judged.counted, judged.matching?.matched ?? 0)
            })
        }
        let best = try Self.space.points.map { try objective($0) }.min()!
        #expect(try objective(fold.values) == best)
        // Every recording of the held-out units is evaluated once, nothing else.
        #expect(ra.crossValidated.flatMap(\.files).count == calm.recordings.filter { [unit, "oxford:Alice"].contains($0.unit) }.count)
    }
}
