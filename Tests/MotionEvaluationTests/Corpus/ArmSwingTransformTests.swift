import Foundation
import MotionCore
import Testing
@testable import MotionEvaluation

/// The arm swing transform does what it says on a synthetic wrist walk whose parts are known:
/// gravity tilted away from every axis, the bounce along it at the step frequency, the swing
/// across it at the stride frequency (and, where asked, a stride component along it). Every
/// figure is measured against the true gravity direction, not the transform's own estimate.
struct ArmSwingTransformTests {
    /// Gravity's true direction: tilted away from every sensor axis.
    static let up: Vector3 = { let v = Vector3(0.35, -0.25, 0.9); let n = v.magnitude; return Vector3(v.x / n, v.y / n, v.z / n) }()
    /// Two horizontal directions (orthogonal to ``up`` and to each other).
    static let across: Vector3 = { let c = cross(up, Vector3(1, 0, 0)); let n = c.magnitude; return Vector3(c.x / n, c.y / n, c.z / n) }()
    static let along: Vector3 = cross(up, across)

    static func cross(_ a: Vector3, _ b: Vector3) -> Vector3 { Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x) }
    static func dot(_ a: Vector3, _ b: Vector3) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }

    /// 60 s at `rateHz`: 9.81 m/s² along ``up``, a bounce of `bounce` m/s² at `step` Hz along it, a
    /// swing of 3 and 1 m/s² at `step / 2` Hz across it, and `vertical` m/s² at `step / 2` Hz along it.
    static func walk(rateHz: Double, step: Double = 2, bounce: Double = 1.5, vertical: Double = 0) -> [Sample] {
        let n = Int(60 * rateHz)
        return (0..<n).map { i in
            let t = Double(i) / rateHz
            let v = 9.81 + bounce * sin(2 * .pi * step * t) + vertical * sin(2 * .pi * step / 2 * t + 0.7)
            let s1 = 3 * sin(2 * .pi * step / 2 * t), s2 = 1 * sin(2 * .pi * step / 2 * t + 1)
            return Sample(timestamp: 1_000_000_000 + Int64((t * 1e9).rounded()),
                          accel: Vector3(v * up.x + s1 * across.x + s2 * along.x, v * up.y + s1 * across.y + s2 * along.y,
                                         v * up.z + s1 * across.z + s2 * along.z))
        }
    }

    /// The samples from 5 s to 55 s (the filters' and the moving mean's edges left out).
    static func middle(_ s: [Sample]) -> ArraySlice<Sample> {
        let t0 = s[0].timestamp
        return s.filter { $0.timestamp - t0 >= 5_000_000_000 && $0.timestamp - t0 < 55_000_000_000 }[...]
    }

    /// RMS of the acceleration across the true gravity direction.
    static func horizontalRMS(_ s: [Sample]) -> Double {
        let m = middle(s)
        let sum = m.map { a -> Double in let p = dot(a.accel, up); let h = Vector3(a.accel.x - p * up.x, a.accel.y - p * up.y, a.accel.z - p * up.z); return dot(h, h) }
        return (sum.reduce(0, +) / Double(m.count)).squareRoot()
    }

    /// Amplitude of the component along the true gravity direction at `frequency` Hz (a whole
    /// number of cycles in 50 s for every frequency used).
    static func verticalAmplitude(_ s: [Sample], at frequency: Double) -> Double {
        let m = middle(s)
        var c = 0.0, q = 0.0
        for a in m {
            let t = Double(a.timestamp) / 1e9, v = dot(a.accel, up)
            c += v * cos(2 * .pi * frequency * t); q += v * sin(2 * .pi * frequency * t)
        }
        return 2 * (c * c + q * q).squareRoot() / Double(m.count)
    }

    @Test(arguments: [12.5, 50.0])
    func removingTheSwingKeepsTheBounce(rateHz: Double) {
        let walk = Self.walk(rateHz: rateHz)
        let out = ArmSwingTransform(swing: ArmSwingTransform.removed).apply(to: walk)
        #expect(out.count == walk.count && zip(out, walk).allSatisfy { $0.timestamp == $1.timestamp })
        let before = Self.horizontalRMS(walk), after = Self.horizontalRMS(out)
        #expect(after <= 0.1 * before, "horizontal rms \(before) -> \(after)")
        let bounce = Self.verticalAmplitude(out, at: 2)
        #expect(abs(bounce - 1.5) <= 0.05 * 1.5, "bounce \(bounce) m/s² for 1.5")
    }

    @Test(arguments: [12.5, 50.0])
    func reducingTheSwingHalvesIt(rateHz: Double) {
        let walk = Self.walk(rateHz: rateHz)
        let out = ArmSwingTransform(swing: ArmSwingTransform.reduced).apply(to: walk)
        let ratio = Self.horizontalRMS(out) / Self.horizontalRMS(walk)
        #expect(ratio >= 0.45 && ratio <= 0.55, "horizontal rms ratio \(ratio)")
        let bounce = Self.verticalAmplitude(out, at: 2)
        #expect(abs(bounce - 1.5) <= 0.05 * 1.5, "bounce \(bounce) m/s² for 1.5")
    }

    /// A stride component along gravity (one step stronger than the next) goes with the swing;
    /// the bounce stays, also at the folder's slowest wrist cadence (1.32 Hz, 79 steps/min: 95 %).
    @Test(arguments: [(1.6, 0.0), (1.6, 0.5), (1.32, 0.0), (1.8, 0.0)])
    func theVerticalStrideBandScalesWithTheSwing(step: Double, swing: Double) {
        let walk = Self.walk(rateHz: 12.5, step: step, vertical: 1)
        let out = ArmSwingTransform(swing: swing).apply(to: walk)
        let stride = Self.verticalAmplitude(out, at: step / 2) / Self.verticalAmplitude(walk, at: step / 2)
        #expect(abs(stride - swing) <= 0.1, "stride component x\(stride) for k = \(swing)")
        let bounce = Self.verticalAmplitude(out, at: step) / Self.verticalAmplitude(walk, at: step)
        #expect(bounce >= 0.94 && bounce <= 1.05, "bounce x\(bounce) at \(step) Hz")
    }

    /// The amplitude response at `frequency` of the gravity estimate (two passes of a mean over
    /// the 2·⌊rate⌋ + 1 samples within ±1 s; Dirichlet kernel squared): what of a vertical
    /// sinusoid stays in gravity, and so in the output.
    static func gravityLeak(_ frequency: Double, rateHz: Double) -> Double {
        let n = Double(2 * Int(rateHz * ArmSwingTransform.gravityBoxSeconds) + 1), x = Double.pi * frequency / rateHz
        let d = sin(n * x) / (n * sin(x))
        return d * d
    }

    /// The stride band's measured effect is its documented gain (beside the gravity estimate's
    /// leak), and both are what the type's documentation says at the folder's cadences (12.5 Hz,
    /// the Bangle.js rate).
    @Test(arguments: [0.66, 0.8, 0.96, 1.32, 1.6])
    func theStrideBandRemovesWhatItsGainSays(frequency: Double) {
        let rate = 12.5, n = Int(60 * rate)
        let samples = (0..<n).map { i in
            let t = Double(i) / rate, v = 9.81 + sin(2 * .pi * frequency * t)
            return Sample(timestamp: Int64((t * 1e9).rounded()), accel: Vector3(v * Self.up.x, v * Self.up.y, v * Self.up.z))
        }
        let kept = Self.verticalAmplitude(ArmSwingTransform(swing: 0).apply(to: samples), at: frequency)
        let gain = ArmSwingTransform.strideBandGain(frequency, rateHz: rate), leak = Self.gravityLeak(frequency, rateHz: rate)
        #expect(abs(kept - (leak + (1 - gain) * (1 - leak))) <= 0.01, "kept \(kept), gain \(gain), leak \(leak) at \(frequency) Hz")
        #expect(ArmSwingTransform.strideBandGain(1.32, rateHz: rate) < 0.05)
        #expect(ArmSwingTransform.strideBandGain(0.96, rateHz: rate) > 0.9)
        for r in [12.5, 50] { #expect(stride(from: 0.5, through: 3, by: 0.01).allSatisfy { Self.gravityLeak($0, rateHz: r) <= 0.05 }) }
    }

    /// A device turned back and forth without moving (a wrist rotating at the stride frequency,
    /// ±25° about a horizontal axis, nothing else) reads |a| = g throughout. Taking the turn out
    /// of the horizontal must not make it read less: a sensor that does not turn and does not
    /// move reads g too. (Without the rotation's share given back to the vertical, k = 0 made
    /// dips of g(1 − cos 25°) = 0.9 m/s² at twice the turning frequency, the step frequency.)
    @Test(arguments: [0.0, 0.5])
    func aTurningDeviceAtRestKeepsItsMagnitude(swing: Double) {
        let rate = 12.5, n = Int(60 * rate), amplitude = 25 * Double.pi / 180
        let samples = (0..<n).map { i -> Sample in
            let t = Double(i) / rate, theta = amplitude * sin(2 * .pi * 0.8 * t)
            let v = 9.81 * cos(theta), a = 9.81 * sin(theta)
            return Sample(timestamp: Int64((t * 1e9).rounded()),
                          accel: Vector3(v * Self.up.x + a * Self.across.x, v * Self.up.y + a * Self.across.y, v * Self.up.z + a * Self.across.z))
        }
        let out = ArmSwingTransform(swing: swing).apply(to: samples)
        let worst = Self.middle(out).map { abs($0.accel.magnitude - 9.81) }.max() ?? .infinity
        #expect(worst < 0.01, "|a| off g by up to \(worst) m/s² for k = \(swing)")
        // The turn itself still scales with k.
        let ratio = Self.horizontalRMS(out) / Self.horizontalRMS(samples)
        #expect(abs(ratio - swing) <= 0.05, "horizontal rms ratio \(ratio) for k = \(swing)")
    }

    @Test func fullSwingIsTheIdentity() {
        let walk = Self.walk(rateHz: 25, vertical: 0.8)
        let out = ArmSwingTransform(swing: 1).apply(to: walk)
        #expect(out.count == walk.count)
        let worst = zip(out, walk).map { max(abs($0.accel.x - $1.accel.x), abs($0.accel.y - $1.accel.y), abs($0.accel.z - $1.accel.z)) }.max() ?? 0
        #expect(worst < 1e-12, "largest change \(worst) m/s²")
        #expect(zip(out, walk).allSatisfy { $0.timestamp == $1.timestamp && $0.gyro == $1.gyro })
    }

    @Test func emptyAndSingleSampleRecordingsPassThrough() {
        #expect(ArmSwingTransform(swing: 0).apply(to: []).isEmpty)
        let one = [Sample(timestamp: 5, accel: Vector3(1, 2, 9))]
        #expect(ArmSwingTransform(swing: 0).apply(to: one) == one)
    }

    @Test func theResultIsDeterministicAndFinite() {
        let walk = Self.walk(rateHz: 12.5, vertical: 0.5)
        let a = ArmSwingTransform(swing: 0.5).apply(to: walk), b = ArmSwingTransform(swing: 0.5).apply(to: walk)
        #expect(a == b)
        #expect(a.allSatisfy { $0.accel.isFinite })
        // A recording of zero acceleration (no gravity direction) stays finite: all of it is horizontal.
        let zero = (0..<100).map { Sample(timestamp: Int64($0) * 80_000_000, accel: .zero) }
        #expect(ArmSwingTransform(swing: 0).apply(to: zero).allSatisfy { $0.accel == .zero })
    }
}
