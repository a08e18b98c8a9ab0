import Foundation
import MotionCore
import MotionTestSupport

/// Synthetic signals for the unit tests (gravity included, m/s²).
enum SyntheticMotion {
    /// Rotates gravity plus a vertical-ish acceleration `a` by an orientation that drifts slowly,
    /// so that no axis is fixed (orientation independence).
    static func rotated(_ v: Vector3, angle: Double) -> Vector3 {
        let c = cos(angle), s = sin(angle)
        // Rotate about x by angle, then about z by 0.7 * angle.
        let y1 = c * v.y - s * v.z, z1 = s * v.y + c * v.z
        let c2 = cos(0.7 * angle), s2 = sin(0.7 * angle)
        return Vector3(c2 * v.x - s2 * y1, s2 * v.x + c2 * y1, z1)
    }

    /// Walking at `stepHz` steps per second for `seconds`, sampled at `rateHz` with ±20 % timestamp
    /// jitter: a heel-strike pulse train along the (rotating) vertical plus a sway at half the step rate.
    /// `oddStepScale` scales every other step's pulse (1 = symmetric gait); `strideSway` adds a
    /// stride-rate (half the step rate) swing of that amplitude along the vertical, as an arm swing does at the wrist.
    static func walking(stepHz: Double, seconds: Double, rateHz: Double = 100, amplitude: Double = 3, oddStepScale: Double = 1, strideSway: Double = 0, seed: UInt64 = 1) -> [Sample] {
        var g = SplitMix64(seed: seed)
        var out: [Sample] = []
        let dt = 1 / rateHz
        var t = 0.0
        while t < seconds {
            let phase = (t * stepHz).truncatingRemainder(dividingBy: 1)
            // A smooth pulse per step (raised cosine over the first 40 % of the step cycle).
            let odd = Int(t * stepHz) % 2 == 1
            let pulse = (phase < 0.4 ? 0.5 * (1 - cos(2 * .pi * phase / 0.4)) : 0) * (odd ? oddStepScale : 1)
            let vertical = 9.81 + amplitude * (pulse - 0.2) + strideSway * sin(.pi * stepHz * t)
            let sway = 0.5 * sin(.pi * stepHz * t)
            let noise = Double.random(in: -0.05...0.05, using: &g)
            let v = rotated(Vector3(sway + noise, noise, vertical), angle: 0.3 * t)
            out.append(Sample(timestamp: Int64((t * 1e9).rounded()), accel: v))
            t += dt * Double.random(in: 0.8...1.2, using: &g)
        }
        return out
    }

    /// A still device: gravity only, with sensor noise.
    static func still(seconds: Double, rateHz: Double = 50, seed: UInt64 = 2) -> [Sample] {
        var g = SplitMix64(seed: seed)
        return (0..<Int(seconds * rateHz)).map { i in
            Sample(timestamp: Int64(i) * Int64(1e9 / rateHz),
                   accel: Vector3(Double.random(in: -0.03...0.03, using: &g), Double.random(in: -0.03...0.03, using: &g), 9.81))
        }
    }

    /// A device in a car: broadband engine/road vibration (8–30 Hz, ±0.8 m/s²) plus slow sway from
    /// turns and braking (0.1–0.3 Hz, ±1 m/s²), random bumps.
    static func vehicle(seconds: Double, rateHz: Double = 100, seed: UInt64 = 3) -> [Sample] {
        var g = SplitMix64(seed: seed)
        let f1 = Double.random(in: 8...30, using: &g), f2 = Double.random(in: 8...30, using: &g)
        return (0..<Int(seconds * rateHz)).map { i in
            let t = Double(i) / rateHz
            let vib = 0.4 * sin(2 * .pi * f1 * t) + 0.4 * sin(2 * .pi * f2 * t + 1) + Double.random(in: -0.3...0.3, using: &g)
            let sway = sin(2 * .pi * 0.15 * t)
            return Sample(timestamp: Int64(i) * Int64(1e9 / rateHz),
                          accel: Vector3(sway + 0.3 * vib, 0.5 * sin(2 * .pi * 0.23 * t), 9.81 + vib))
        }
    }

    /// A still device with `count` isolated jolts (a 4 m/s² knock lasting 0.1 s) 5 s apart.
    static func jolts(count: Int, rateHz: Double = 100) -> [Sample] {
        let seconds = Double(count) * 5 + 5
        return (0..<Int(seconds * rateHz)).map { i in
            let t = Double(i) / rateHz
            let sinceJolt = (t - 2.5).truncatingRemainder(dividingBy: 5)
            let k = t >= 2.5 && sinceJolt < 0.1 && Int((t - 2.5) / 5) < count ? 4.0 : 0
            return Sample(timestamp: Int64(i) * Int64(1e9 / rateHz), accel: Vector3(0, k, 9.81 + k))
        }
    }
}
