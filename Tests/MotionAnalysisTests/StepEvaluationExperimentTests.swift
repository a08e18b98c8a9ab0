import MotionAnalysis
@testable import MotionCLI
import MotionCore
import Testing

/// The experiment options of `motionbatch eval steps` (`--param`, `--sweep`, `--sensitivity`,
/// `--amplitude-scale`), which produce the robustness figures in docs/step-counter.md.
struct StepEvaluationExperimentTests {
    @Test func everyParameterNameCanBeReadAndSetBack() throws {
        let defaults = StepCounterConfiguration()
        for name in StepCounterConfiguration.parameterNames {
            let value = try #require(defaults.value(of: name), "value(of: \(name)) is nil")
            var c = StepCounterConfiguration()
            try c.set("\(name)=\(value)")
            #expect(c == defaults, "\(name)=\(value) does not round-trip")
        }
        #expect(defaults.value(of: "noSuchThing") == nil)
    }

    @Test func sweepsAreParsedAndBadOnesRejected() throws {
        let (name, values) = try EvalCommand.parseSweep("minPeriodicity=0.8,0.9")
        #expect(name == "minPeriodicity" && values == [0.8, 0.9])
        for bad in ["minPeriodicity", "minPeriodicity=", "minPeriodicity=0.8,x", "bogus=1"] {
            #expect(throws: CLIError.self) { try EvalCommand.parseSweep(bad) }
        }
    }

    @Test func sensitivityScalesEachKeyParameterAndOneMinusPeriodicity() {
        let sweeps = EvalCommand.sensitivitySweeps(StepCounterConfiguration())
        let amplitude = sweeps.first { $0.0 == "minAmplitude" }!.1
        #expect(amplitude == [1.19, 1.36, 2.04, 2.21])
        let periodicity = sweeps.first { $0.0 == "minPeriodicity" }!.1
        #expect(periodicity == [0.895, 0.88, 0.82, 0.805])
    }

    @Test func amplitudeScaleKeepsTheMeanAndScalesTheMotion() {
        var samples: [Sample] = []
        for i in 0..<100 {
            let z: Double = i % 4 == 0 ? 11.81 : 9.81 - 2.0 / 3
            samples.append(Sample(timestamp: Int64(i) * 10_000_000, accel: Vector3(Double(i % 2), 0, z)))
        }
        let scaled = StepDatasetEvaluation.scaled(samples, by: 0.5)
        func mean(_ s: [Sample]) -> Vector3 {
            let n = Double(s.count)
            return Vector3(s.map(\.accel.x).reduce(0, +) / n, s.map(\.accel.y).reduce(0, +) / n, s.map(\.accel.z).reduce(0, +) / n)
        }
        let m0 = mean(samples), m1 = mean(scaled)
        #expect(abs(m0.x - m1.x) < 1e-12 && abs(m0.z - m1.z) < 1e-12)
        for (a, b) in zip(samples, scaled) {
            #expect(a.timestamp == b.timestamp)
            #expect(abs((b.accel.z - m0.z) - 0.5 * (a.accel.z - m0.z)) < 1e-12)
        }
        #expect(StepDatasetEvaluation.scaled(samples, by: 1) == samples)
    }
}
