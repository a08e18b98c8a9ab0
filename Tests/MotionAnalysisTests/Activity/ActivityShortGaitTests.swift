import Foundation
@testable import MotionAnalysis
import MotionCore
import Testing

/// The short-gait evidence (issue 23, spsw's short walks): a window whose first 1.6 s hold a large
/// aperiodic movement (standing up) and whose last 2.4 s hold strides is gait by the periodicity of
/// those 2.4 s alone, when their vertical bounce is a walker's; not while riding, and not with a
/// seated passenger's bounce.
struct ActivityShortGaitTests {
    /// 100 grid points (4 s at 25 Hz), vertical axis z: a half-sine push of 9 m/s² over the first
    /// 1.6 s with a faster wobble on it, then 2.4 s of a 1.8 Hz step bounce of `bounce` m/s².
    static func window(bounce: Double) -> ActivityFeatures {
        let n = ActivityClassifierConfiguration.windowPoints
        var ax = [Double](repeating: 0.3, count: n), ay = [Double](repeating: 0.2, count: n), az = [Double](repeating: 9.81, count: n)
        for i in 0..<n {
            let t = Double(i) * 0.04
            if i < 40 {
                az[i] += 9 * sin(Double.pi * t / 1.6) + 2 * sin(2 * Double.pi * 0.7 * t * t)
                ax[i] += 2 * sin(Double.pi * t / 0.8)
            } else {
                az[i] += bounce * sin(2 * Double.pi * 1.8 * (t - 1.6))
                ax[i] += 0.3 * bounce * sin(2 * Double.pi * 0.9 * (t - 1.6))
            }
        }
        let zeros = [Double](repeating: 0, count: n)
        var v = zeros, m = zeros
        return ax.withUnsafeBufferPointer { x in ay.withUnsafeBufferPointer { y in az.withUnsafeBufferPointer { z in
            zeros.withUnsafeBufferPointer { g in v.withUnsafeMutableBufferPointer { vb in m.withUnsafeMutableBufferPointer { mb in
                ActivityFeatures.compute(n: n, ax: x.baseAddress!, ay: y.baseAddress!, az: z.baseAddress!,
                                         gx: g.baseAddress!, gy: g.baseAddress!, gz: g.baseAddress!, hasGyro: false,
                                         v: vb.baseAddress!, m: mb.baseAddress!)
            } } }
        } } }
    }

    @Test func theLastSecondsOfAStandUpAndWalkAreGait() {
        let f = Self.window(bounce: 3)
        let c = ActivityClassifierConfiguration()
        #expect(f.periodicity < c.gaitPeriodicity, "the whole window is not periodic: \(f)")
        #expect(f.shortPeriodicity > 0.8 && f.shortVertical > 1.5, "\(f)")
        #expect(ActivityEvidence(f, c).favoured == .walking)
        // Not while riding, and not with the rule off.
        #expect(ActivityEvidence(f, c, shortGait: false).favoured != .walking)
        var off = c
        off.shortGaitVertical = 100
        #expect(ActivityEvidence(f, off).favoured != .walking)
    }

    /// The same rhythm with a bounce below ``ActivityClassifierConfiguration/shortGaitVertical``
    /// (a road under a seated passenger) is not gait.
    @Test func aSmallBounceIsNotShortGait() {
        let f = Self.window(bounce: 0.4)
        #expect(f.shortPeriodicity > 0.8 && f.shortVertical < ActivityClassifierConfiguration().shortGaitVertical * 0.75, "\(f)")
        #expect(ActivityEvidence(f, ActivityClassifierConfiguration()).memberships[ActivityClass.walking.index] == 0)
    }
}
