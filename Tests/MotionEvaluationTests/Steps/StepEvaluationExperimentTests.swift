import Foundation
import MotionAnalysis
import MotionCore
import MotionEvaluation
import MotionTestSupport
import Testing

/// The experiment options of `eval steps` (`--sensitivity`, `--amplitude-scale`), which produce
/// the robustness figures in docs/step-counter.md, and the verdicts.
struct StepEvaluationExperimentTests {
    @Test func sensitivityScalesEachKeyParameterAndOneMinusPeriodicity() {
        let sweeps = StepEvaluation.sensitivitySweeps(StepCounterConfiguration())
        #expect(sweeps.map(\.name) == StepEvaluation.sensitivityParameters)
        let amplitude = sweeps.first { $0.name == "minAmplitude" }!.values
        #expect(amplitude == [1.19, 1.36, 2.04, 2.21])
        let periodicity = sweeps.first { $0.name == "minPeriodicity" }!.values
        #expect(periodicity == [0.895, 0.88, 0.82, 0.805])
    }

    /// Samples whose x alternates 0/1 and whose z is gravity plus a pulse every 4th sample.
    static func pulses() -> [Sample] {
        (0..<100).map { i in
            let z: Double = i % 4 == 0 ? 11.81 : 9.81 - 2.0 / 3
            return Sample(timestamp: Int64(i) * 10_000_000, accel: Vector3(Double(i % 2), 0, z))
        }
    }

    static func mean(_ s: [Sample]) -> Vector3 {
        let n = Double(s.count)
        return Vector3(s.map(\.accel.x).reduce(0, +) / n, s.map(\.accel.y).reduce(0, +) / n, s.map(\.accel.z).reduce(0, +) / n)
    }

    @Test func amplitudeScaleKeepsTheMeanAndScalesTheMotion() throws {
        let samples = Self.pulses()
        let scaling = AmplitudeScaling(mean: try #require(MeanAcceleration.of(samples)), scale: 0.5)
        let m0 = Self.mean(samples)
        #expect(abs(scaling.mean.x - m0.x) < 1e-12 && abs(scaling.mean.z - m0.z) < 1e-12)
        var scaled = samples
        scaling.apply(to: &scaled)
        let m1 = Self.mean(scaled)
        #expect(abs(m0.x - m1.x) < 1e-12 && abs(m0.z - m1.z) < 1e-12)
        for (a, b) in zip(samples, scaled) {
            #expect(a.timestamp == b.timestamp)
            #expect(abs((b.accel.z - m0.z) - 0.5 * (a.accel.z - m0.z)) < 1e-12)
        }
        var unscaled = samples
        AmplitudeScaling(mean: m0, scale: 1).apply(to: &unscaled)
        #expect(unscaled == samples)
    }

    @Test(arguments: [
        (TargetVerdict.Comparison.atMost, 2.9, true), (.atMost, 3.0, true), (.atMost, 3.1, false), (.atMost, .nan, false),
        (.atLeast, 3.1, true), (.atLeast, 3.0, true), (.atLeast, 2.9, false), (.atLeast, .nan, false),
    ])
    func verdictsCompareTheWayTheyAreStated(comparison: TargetVerdict.Comparison, value: Double, met: Bool) {
        #expect(TargetVerdict(set: "s", name: "n", value: value, target: 3, comparison: comparison).met == met)
    }
}
