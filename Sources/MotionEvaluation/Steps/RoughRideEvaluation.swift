import MotionAnalysis
import MotionCore

/// The rougher-vehicle check `eval steps` runs every time (issue 17: "bumps in a car must not
/// confirm a walk"): the non-walking recordings with their motion scaled by K
/// (``AmplitudeScaling``, about the recording's mean; K = 1.5 and 2: a rougher road, a stiffer
/// car), each counted by the counter alone (``StepEvaluation/count(_:configuration:directory:)``,
/// what its own vehicle rejection does) and through the standard pipeline with the activity
/// classifier's vehicle gating (``StepEvaluation/evaluate(_:configuration:directory:)``, what a
/// user gets). A figure, no target: nothing is tuned on it.
public struct RoughRideEvaluation: Sendable {
    /// One recording at one scale.
    public struct File: Sendable, Equatable {
        /// Path relative to the datasets folder.
        public var path: String
        /// Manifest activity (`vehicle`, `desk`, `still`, …).
        public var activity: String
        /// Steps beyond the manifest's truth, counter alone.
        public var counterAloneFalseSteps: Int
        /// Steps beyond the manifest's truth, with the vehicle gating.
        public var gatedFalseSteps: Int
        /// Duration, seconds.
        public var seconds: Double
    }

    /// All non-walking recordings at one scale.
    public struct Scale: Sendable, Equatable {
        /// K.
        public var scale: Double
        /// Per recording, manifest order.
        public var files: [File]
        /// Hours of recording.
        public var hours: Double { files.map(\.seconds).reduce(0, +) / 3600 }
        /// False steps per hour, counter alone.
        public var counterAlonePerHour: Double { perHour(files.map(\.counterAloneFalseSteps).reduce(0, +)) }
        /// False steps per hour, with the gating.
        public var gatedPerHour: Double { perHour(files.map(\.gatedFalseSteps).reduce(0, +)) }
        /// False steps in the `vehicle` recordings: (counter alone, gated).
        public var vehicleFalseSteps: (counterAlone: Int, gated: Int) {
            let v = files.filter { $0.activity == "vehicle" }
            return (v.map(\.counterAloneFalseSteps).reduce(0, +), v.map(\.gatedFalseSteps).reduce(0, +))
        }

        private func perHour(_ n: Int) -> Double { hours > 0 ? Double(n) / hours : 0 }
    }

    /// The scales `eval steps` reports.
    public static let standardScales = [1.5, 2.0]

    /// The target on the roughest ride (x2): false steps per hour with the vehicle gating at most
    /// ``StepEvaluation/Target/falseStepsPerHour``; nil without that scale.
    public static func verdict(_ scales: [Scale]) -> TargetVerdict? {
        scales.first { $0.scale == 2 }.map {
            TargetVerdict(set: "rough_rides", name: "gated_false_steps_per_hour_x2", value: $0.gatedPerHour,
                          target: StepEvaluation.Target.falseStepsPerHour, comparison: .atMost)
        }
    }

    /// Counts the non-walking recordings of `corpus` (taken as they are: pass a corpus loaded at
    /// scale 1) at each of `scales` with `configuration`.
    /// - Precondition: every scale is finite and > 0.
    /// - Throws: as ``StepEvaluation/evaluate(_:configuration:directory:)``.
    public static func run(_ corpus: StepCorpus, scales: [Double] = standardScales,
                           configuration: StepCounterConfiguration) throws -> [Scale] {
        let recordings = corpus.recordings.filter { $0.set == .nonWalking }
        return try scales.map { k in
            precondition(k.isFinite && k > 0, "amplitude scale must be finite and > 0")
            let files = try recordings.map { original -> File in
                var r = original
                AmplitudeScaling(mean: MeanAcceleration.of(r.samples) ?? .zero, scale: k).apply(to: &r.samples)
                let alone = try StepEvaluation.count(r, configuration: configuration, directory: corpus.directory).count
                let gated = try StepEvaluation.evaluate(r, configuration: configuration, directory: corpus.directory).counted
                return File(path: r.path, activity: r.activity, counterAloneFalseSteps: max(0, alone - r.truth),
                            gatedFalseSteps: max(0, gated - r.truth), seconds: r.durationSeconds)
            }
            return Scale(scale: k, files: files)
        }
    }
}
