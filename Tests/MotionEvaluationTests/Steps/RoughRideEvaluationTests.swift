import MotionAnalysis
@testable import MotionEvaluation
import MotionTestSupport
import Testing

/// The rough-ride check: the non-walking recordings, scaled, counted alone and gated.
struct RoughRideEvaluationTests {
    /// A vehicle rocking with step-like pulses too small to count becomes a false walk once its
    /// motion is scaled up; the still recording stays at 0; only non-walking recordings are used.
    @Test func scalingTheMotionTurnsGentleRockingIntoFalseSteps() throws {
        let dir = try SyntheticDatasets.write(vehicleRocks: true, rockSize: 0.3)
        let corpus = try StepCorpus.load(directory: dir)
        let rides = try RoughRideEvaluation.run(corpus, scales: [1, 10], configuration: StepCounterConfiguration())
        #expect(rides.map(\.scale) == [1, 10])
        for r in rides { #expect(r.files.map(\.activity).sorted() == ["still", "vehicle"]) }
        #expect(rides[0].counterAlonePerHour == 0 && rides[0].gatedPerHour == 0)
        let drive = try #require(rides[1].files.first { $0.activity == "vehicle" })
        #expect(drive.counterAloneFalseSteps > 50, "100 rocking pulses of 3 m/s²: \(drive.counterAloneFalseSteps)")
        #expect(rides[1].vehicleFalseSteps.counterAlone == drive.counterAloneFalseSteps)
        #expect(rides[1].files.first { $0.activity == "still" }?.counterAloneFalseSteps == 0)
        #expect(rides[1].counterAlonePerHour > 1000 && rides[1].gatedPerHour.isFinite)
    }
}
