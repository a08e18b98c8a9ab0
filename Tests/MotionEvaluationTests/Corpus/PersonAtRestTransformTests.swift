import Foundation
import MotionCore
import Testing
@testable import MotionEvaluation

/// The "person at rest" transform does what it says: the std of |a| at the level asked, the
/// attitude kept within a few degrees, time and sample count untouched, deterministic.
struct PersonAtRestTransformTests {
    /// A still device: gravity on z with ±0.02 m/s² of deterministic "noise", 26 Hz for 60 s.
    static let still: [Sample] = (0..<1560).map { i in
        let n = 0.02 * sin(Double(i) * 12.9898)
        return Sample(timestamp: Int64(i) * 38_461_538, accel: Vector3(n, -n, 9.81 + n))
    }

    static func motion(_ s: [Sample]) -> (std: Double, mean: Vector3) {
        let m = s.map(\.accel.magnitude)
        let mu = m.reduce(0, +) / Double(m.count)
        let sd = (m.map { ($0 - mu) * ($0 - mu) }.reduce(0, +) / Double(m.count)).squareRoot()
        let n = Double(s.count)
        return (sd, Vector3(s.map(\.accel.x).reduce(0, +) / n, s.map(\.accel.y).reduce(0, +) / n, s.map(\.accel.z).reduce(0, +) / n))
    }

    @Test(arguments: PersonAtRestTransform.standardLevels)
    func theMotionIsTheLevelAskedAndTheAttitudeStays(level: Double) {
        let out = PersonAtRestTransform(motion: level).apply(to: Self.still)
        #expect(out.count == Self.still.count && zip(out, Self.still).allSatisfy { $0.timestamp == $1.timestamp })
        let (sd, mean) = Self.motion(out)
        #expect(abs(sd - level) < 0.02 * level + 0.005, "std of |a| \(sd) for level \(level)")
        // The mean attitude stays within 5 degrees of gravity on z.
        let angle = acos(mean.z / mean.magnitude) * 180 / .pi
        #expect(angle < 5, "\(angle) degrees")
        #expect(out.allSatisfy { $0.accel.x.isFinite && $0.accel.y.isFinite && $0.accel.z.isFinite })
        #expect(PersonAtRestTransform(motion: level).apply(to: Self.still) == out, "deterministic")
    }

    @Test func anEmptyRecordingStaysEmpty() {
        #expect(PersonAtRestTransform(motion: 0.3).apply(to: []).isEmpty)
    }
}
