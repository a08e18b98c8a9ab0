import Foundation
@testable import MotionAnalysis
import MotionCore
import Testing

/// The rotational gait evidence (spsw's wrists and pockets, whose uneven walkers' vertical bounce
/// repeats poorly): with a gyroscope, the angular rate along its principal axis over the window's
/// last 2.4 s, when it repeats at a stride's period and turns at ``ActivityClassifierConfiguration/gaitRotation``
/// or more, is gait when the bounce is a walker's.
struct ActivityRotationalGaitTests {
    /// 100 grid points: an aperiodic vertical bounce of about `bounce` m/s² (uniform noise: its
    /// autocorrelation does not repeat) and an arm swing of `swing` rad/s at 0.9 Hz about a tilted
    /// axis, with a little noise on the other axes.
    static func window(bounce: Double, swing: Double, gyro: Bool = true) -> ActivityFeatures {
        let n = ActivityClassifierConfiguration.windowPoints
        var ax = [Double](repeating: 0.3, count: n), ay = [Double](repeating: 0.2, count: n), az = [Double](repeating: 9.81, count: n)
        var gx = [Double](repeating: 0, count: n), gy = gx, gz = gx
        var seed: UInt64 = 7
        func noise() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53) - 0.5
        }
        for i in 0..<n {
            let t = Double(i) * 0.04
            az[i] += bounce * 3.46 * noise()
            ax[i] += 0.3 * noise()
            let w = swing * 1.41 * sin(2 * Double.pi * 0.9 * t)
            gx[i] = 0.8 * w + 0.05 * noise()
            gy[i] = 0.6 * w + 0.05 * noise()
            gz[i] = 0.05 * noise()
        }
        let zeros = [Double](repeating: 0, count: n)
        var v = zeros, m = zeros
        return ax.withUnsafeBufferPointer { x in ay.withUnsafeBufferPointer { y in az.withUnsafeBufferPointer { z in
            gx.withUnsafeBufferPointer { rx in gy.withUnsafeBufferPointer { ry in gz.withUnsafeBufferPointer { rz in
                v.withUnsafeMutableBufferPointer { vb in m.withUnsafeMutableBufferPointer { mb in
                    ActivityFeatures.compute(n: n, ax: x.baseAddress!, ay: y.baseAddress!, az: z.baseAddress!,
                                             gx: rx.baseAddress!, gy: ry.baseAddress!, gz: rz.baseAddress!, hasGyro: gyro,
                                             v: vb.baseAddress!, m: mb.baseAddress!)
                } }
            } } }
        } } }
    }

    @Test func aSwingingArmIsARotationalRhythm() throws {
        let f = Self.window(bounce: 2, swing: 2)
        let c = ActivityClassifierConfiguration()
        #expect(f.shortPeriodicity < c.gaitPeriodicity - 0.1 && f.periodicity < c.gaitPeriodicity - 0.1, "the bounce does not repeat: \(f)")
        let rhythm = try #require(f.shortRotationPeriodicity)
        let rate = try #require(f.shortRotation)
        #expect(rhythm > 0.8, "\(f)")
        #expect(abs(rate - 2) < 0.3, "rms of the swing: \(rate)")
        #expect(ActivityEvidence(f, c).favoured == .walking)
        // Not with the rule off, not while riding.
        var off = c
        off.gaitRotation = 100
        #expect(ActivityEvidence(f, off).favoured != .walking)
        #expect(ActivityEvidence(f, c, shortGait: false).favoured != .walking)
    }

    @Test func aSlowTurnOrNoBounceIsNotGait() {
        let c = ActivityClassifierConfiguration()
        // The same rhythm at 0.3 rad/s (a hand at rest swaying): below gaitRotation.
        let slow = Self.window(bounce: 2, swing: 0.3)
        #expect((slow.shortRotationPeriodicity ?? 0) > 0.8)
        #expect(ActivityEvidence(slow, c).memberships[ActivityClass.walking.index] == 0)
        // A swinging arm without a walker's bounce (gestures while seated).
        let seated = Self.window(bounce: 0.3, swing: 2)
        #expect(ActivityEvidence(seated, c).memberships[ActivityClass.walking.index] == 0)
    }

    @Test func withoutAGyroscopeThereIsNoRotationalRhythm() {
        let f = Self.window(bounce: 2, swing: 2, gyro: false)
        #expect(f.shortRotationPeriodicity == nil && f.shortRotation == nil && f.rotation == nil)
        #expect(ActivityEvidence(f, ActivityClassifierConfiguration()).favoured != .walking)
    }
}
