import Foundation
@testable import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// A person at rest (sitting or standing, the device in the hand) is `still`, not `unknown` or
/// `vehicle`: slow motion of 0.2-0.5 m/s² (std of |a|) is a body's, broadband vibration a road's
/// (``ActivityFeatures/vibrationShare``).
struct ActivityPersonAtRestTests {
    /// 100 grid points of |a| = 9.81 + `f(t)`, the features' vibration share.
    static func share(_ f: (Double) -> Double) -> Double {
        let n = ActivityClassifierConfiguration.windowPoints
        let m = (0..<n).map { 9.81 + f(Double($0) * 0.04) }
        let mean = m.reduce(0, +) / Double(n)
        let motion = (m.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(n)).squareRoot()
        return m.withUnsafeBufferPointer { ActivityFeatures.vibrationShare($0.baseAddress!, n: n, motion: motion) }
    }

    @Test func slowSwayHasALowVibrationShareAndNoiseAHighOne() {
        var g = SplitMix64(seed: 5)
        let noise = (0..<100).map { _ in Double.random(in: -1...1, using: &g) }
        let white = Self.share { noise[Int(($0 / 0.04).rounded())] }
        #expect(white > 0.85 && white < 1.1, "white noise: \(white)")
        let sway = Self.share { 0.4 * sin(2 * .pi * 0.6 * $0) + 0.2 * sin(2 * .pi * 1.1 * $0 + 1) }
        #expect(sway < 0.3, "sway below 1.2 Hz: \(sway)")
        #expect(Self.share { _ in 0 } == 0, "no motion")
    }

    /// 60 s at 50 Hz of a device held by a person at rest: a tilted attitude, sway at 0.2-1.5 Hz
    /// on all axes (std of |a| about `level`), a posture shift every 7 s, the sensor's noise.
    static func atRest(level: Double, seed: UInt64 = 3) -> [Sample] {
        var g = SplitMix64(seed: seed)
        return (0..<3000).map { i in
            let t = Double(i) / 50
            var s = 2 * level * (sin(2 * .pi * 0.27 * t) + 0.6 * sin(2 * .pi * 0.7 * t + 2) + 0.4 * sin(2 * .pi * 1.4 * t + 4))
            let phase = t.truncatingRemainder(dividingBy: 7)
            if phase < 1 { s += 3 * level * sin(2 * .pi * phase) }
            let n = { Double.random(in: -0.03...0.03, using: &g) }
            return Sample(timestamp: Int64((t * 1e9).rounded()), accel: Vector3(1.5 + 0.6 * s + n(), -2 + 0.5 * s + n(), 9.4 + 0.6 * s + n()))
        }
    }

    @Test(arguments: [0.2, 0.35, 0.5])
    func aPersonAtRestIsStill(level: Double) throws {
        let samples = Self.atRest(level: level)
        let norms = samples.map(\.accel.magnitude)
        let mean = norms.reduce(0, +) / Double(norms.count)
        let std = (norms.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(norms.count)).squareRoot()
        #expect(std > 0.7 * level && std < 1.4 * level, "std of |a| \(std) for level \(level)")
        let timeline = try ActivityStreams.timeline(samples)
        let still = ActivityStreams.fraction(timeline, .still, from: 4, to: 60)
        #expect(still > 0.95, "level \(level): still \(still), \(timeline.segments.map { "\($0.label)" })")
        // Without the person-at-rest rule (the rest threshold down to the device's), it is not.
        var strict = ActivityClassifierConfiguration()
        strict.restMotion = strict.stillMotion
        let before = try ActivityStreams.timeline(samples, configuration: strict)
        #expect(ActivityStreams.fraction(before, .still, from: 4, to: 60) < 0.5)
    }

    /// A ride's broadband vibration at the same level stays a vehicle.
    @Test func aRideIsNotAPersonAtRest() throws {
        let timeline = try ActivityStreams.timeline(ActivityStreams.ride(seconds: 90))
        #expect(ActivityStreams.fraction(timeline, .vehicle, from: 30, to: 90) > 0.95, "\(timeline.segments.map { "\($0.label)" })")
    }
}
