import MotionCore
import MotionTestSupport
import Testing
@testable import MotionEvaluation

/// The arm swing sets of the real corpus (../shared/datasets; skipped when absent): one recording
/// per Bangle.js wrist walk and swing factor, in its walk's source, with its truth and clock, and
/// with the swing band gone from the output as measured afresh (gravity estimated again from the
/// output itself, so the check does not reuse the transform's own split).
@Suite(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
struct ArmSwingTransformDatasetTests {
    /// RMS over the samples of the stride band (zero phase) of the horizontal motion, and RMS of
    /// the bounce above it, gravity estimated from `samples` themselves. The bounce is read as
    /// the step counter reads it, |a| − |gravity|: a turn of the wrist moves acceleration from
    /// the vertical into the horizontal without changing |a|, and is not a bounce.
    static func bands(_ samples: [Sample]) -> (horizontalSwing: Double, verticalRest: Double) {
        let g = ArmSwingTransform.gravity(samples)
        var p: [Double] = [], h: [[Double]] = [[], [], []]
        for (s, g) in zip(samples, g) {
            let n = g.magnitude, u = Vector3(g.x / n, g.y / n, g.z / n)
            let m = Vector3(s.accel.x - g.x, s.accel.y - g.y, s.accel.z - g.z)
            let v = m.x * u.x + m.y * u.y + m.z * u.z
            p.append(s.accel.magnitude - n)
            h[0].append(m.x - v * u.x); h[1].append(m.y - v * u.y); h[2].append(m.z - v * u.z)
        }
        let span = Double(samples.last!.timestamp - samples.first!.timestamp) / 1e9
        let rate = Double(samples.count - 1) / span
        let swing = h.map { ArmSwingTransform.strideComponent($0, rateHz: rate).map { $0 * $0 }.reduce(0, +) }.reduce(0, +)
        let stride = ArmSwingTransform.strideComponent(p, rateHz: rate)
        // Above the stride band: what moves slower than 0.45 Hz (the posture, the gravity
        // estimate's own lag) is taken out with the gravity estimate's triangular mean.
        let above = zip(p, stride).map { $0 - $1 }
        let times = samples.map(\.timestamp), half = Int64(ArmSwingTransform.gravityBoxSeconds * 1e9)
        let slow = ArmSwingTransform.boxMean(ArmSwingTransform.boxMean(above.map { Vector3($0, 0, 0) }, times: times, half: half), times: times, half: half)
        let rest = zip(above, slow).map { ($0 - $1.x) * ($0 - $1.x) }.reduce(0, +)
        let n = Double(samples.count)
        return ((swing / n).squareRoot(), (rest / n).squareRoot())
    }

    @Test func everyWristWalkIsTransformedAndItsSwingBandIsGone() throws {
        let k = try StepEvaluationDatasetTests.loaded()
        let walks = k.recordings.filter { $0.set == .bangleWalks }
        #expect(walks.count >= 10)
        for (set, swing) in [(StepEvaluation.Set.armSwingReduced, ArmSwingTransform.reduced), (.armSwingRemoved, ArmSwingTransform.removed)] {
            let derived = k.recordings.filter { $0.set == set }
            #expect(derived.map(\.sourcePath) == walks.map(\.path), "\(set)")
            for (d, w) in zip(derived, walks) {
                #expect(d.unit == w.unit && d.truth == w.truth && d.declaredRateHz == w.declaredRateHz, "\(d.path)")
                #expect(d.samples.map(\.timestamp) == w.samples.map(\.timestamp), "\(d.path)")
                let before = Self.bands(w.samples), after = Self.bands(d.samples)
                let swingRatio = after.horizontalSwing / before.horizontalSwing
                // The horizontal swing band scales with k (re-estimated: within 0.1 of it).
                #expect(abs(swingRatio - swing) <= 0.1, "\(d.path): horizontal swing band x\(swingRatio) for k = \(swing)")
                // The bounce above the stride band stays.
                let restRatio = after.verticalRest / before.verticalRest
                #expect(restRatio >= 0.9 && restRatio <= 1.05, "\(d.path): bounce above the stride band x\(restRatio)")
            }
        }
    }
}
