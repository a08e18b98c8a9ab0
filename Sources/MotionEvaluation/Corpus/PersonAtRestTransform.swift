import MotionCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The "person at rest" robustness set of issue 23: a real still recording (a device lying still)
/// as it looks in the hand, on the wrist or in a pocket of someone sitting or standing: slow sway of
/// the body and the hand (four incommensurate tones at 0.23-1.7 Hz, in directions that turn with
/// them) and a small posture shift every 7.3 s (a 1 s push and return, a displacement of a few
/// centimetres), added to the real samples and scaled so that the standard deviation of |a| over
/// the whole recording is ``motion`` (0.2-0.5 m/s²: what 36 stationary LSM6DSL recordings of
/// people at rest showed, issue 23). Nothing in it repeats at a gait period with a regular impact,
/// and it never leaves the recording's attitude by more than a few degrees.
///
/// Deterministic: the same samples and level give the same result.
public struct PersonAtRestTransform: Sendable {
    /// The levels of the set (std of |a|, m/s²).
    public static let standardLevels = [0.2, 0.35, 0.5]

    /// The target standard deviation of |a| (m/s²).
    public let motion: Double

    /// A transform to `motion` (0 < motion ≤ 2 m/s²).
    public init(motion: Double) {
        precondition(motion.isFinite && motion > 0 && motion <= 2, "motion must be within (0, 2] m/s²")
        self.motion = motion
    }

    /// `a + b × scale`.
    static func add(_ a: Vector3, _ b: Vector3, scale: Double = 1) -> Vector3 {
        Vector3(a.x + b.x * scale, a.y + b.y * scale, a.z + b.z * scale)
    }

    /// The added acceleration at `t` seconds, before scaling.
    /// The sway's tones: frequency (Hz), relative amplitude, phase (rad).
    static let tones: [(f: Double, a: Double, phase: Double)] = [(0.23, 1.0, 0.4), (0.61, 0.7, 2.1), (1.07, 0.5, 4.0), (1.7, 0.3, 5.3)]

    static func sway(_ t: Double) -> Vector3 {
        var v = Vector3.zero
        for (k, tone) in tones.enumerated() {
            let s = tone.a * sin(2 * .pi * tone.f * t + tone.phase)
            // A direction that turns slowly, different for each tone.
            let u = 0.05 * t + Double(k) * 1.3
            v = Self.add(v, Vector3(s * cos(u), s * sin(u) * 0.8, s * (0.6 + 0.4 * sin(0.5 * u))))
        }
        // Posture shifts: a 1 s push and return every 7.3 s.
        let phase = t.truncatingRemainder(dividingBy: 7.3)
        if phase < 1 {
            let p = 1.5 * sin(2 * .pi * phase)
            v = Self.add(v, Vector3(0.6 * p, -0.5 * p, 0.6 * p))
        }
        return v
    }

    /// Std of |a| of `samples` with the sway added at `scale`.
    static func motion(_ samples: [Sample], scale: Double, origin: Int64) -> Double {
        var sum = 0.0, sum2 = 0.0
        for s in samples {
            let a = add(s.accel, sway(Double(s.timestamp - origin) / 1e9), scale: scale)
            let m = a.magnitude
            sum += m; sum2 += m * m
        }
        let n = Double(samples.count)
        return n > 0 ? Swift.max(0, sum2 / n - (sum / n) * (sum / n)).squareRoot() : 0
    }

    /// `samples` (time order) with the sway added at the scale that gives ``motion`` (found by
    /// bisection on the measured std of |a|; the samples' own motion counts).
    /// - Complexity: O(samples × 8).
    public func apply(to samples: [Sample]) -> [Sample] {
        guard let origin = samples.first?.timestamp else { return [] }
        var lo = 0.0, hi = 1.0
        while Self.motion(samples, scale: hi, origin: origin) < motion && hi < 64 { hi *= 2 }
        for _ in 0..<8 {
            let mid = 0.5 * (lo + hi)
            if Self.motion(samples, scale: mid, origin: origin) < motion { lo = mid } else { hi = mid }
        }
        let scale = 0.5 * (lo + hi)
        return samples.map { s in
            var out = s
            out.accel = Self.add(s.accel, Self.sway(Double(s.timestamp - origin) / 1e9), scale: scale)
            return out
        }
    }
}
