import MotionCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The "arm swing reduced or removed" robustness set of issue 23: a real wrist walk as it would
/// look from someone whose arm swings less (k = 0.5, ``reduced``) or not at all (k = 0,
/// ``removed``: a hand in a pocket, carrying a bag, pushing a pram), the body's bounce kept.
///
/// At the wrist, walking shows the body's vertical bounce at the step frequency (1.3–2 Hz in the
/// folder's wrist walks) and the arm's pendulum swing at the stride frequency (half of it,
/// 0.66–0.96 Hz there): mostly horizontal, along the forearm, with the rotation of gravity in the
/// sensor frame. The transform, per sample:
///
/// 1. **Gravity**: the acceleration's centred triangular moving mean (two passes of a ±1 s box
///    mean, ``gravityBoxSeconds``): it follows posture changes of a few seconds but leaks at most
///    5 % of anything at 0.5 Hz or faster (a box's sinc squared).
/// 2. **Split**: the motion (acceleration minus that mean) into its component along gravity's
///    direction (vertical, `p`) and the rest (horizontal, `h`).
/// 3. **Horizontal scaled by k**: the swing, the forearm's rotation of gravity and the lateral
///    sway all go with it (a wrist without swing still moves forward with the body; that
///    step-frequency part goes too, the issue asks for the bounce). The vertical gets back
///    (1 − k²) of its second-order share, |a| − |gravity| − vertical: a turn of the sensor moves
///    acceleration from the vertical into the horizontal without changing |a|, and taking the
///    horizontal away must not leave a dip of |a| where the wrist turned.
/// 4. **Vertical stride band scaled by k**: `p − (1 − k) · b`, where `b` is `p` (as step 3 left it) band-passed over
///    the stride band ``strideBand`` (Butterworth, 4th-order high-pass and 8th-order low-pass,
///    run forward and backward so that it adds no delay: gain squared, zero phase). At the
///    folder's slowest wrist cadence (79 steps/min, 1.32 Hz) k = 0 keeps 95 % of the bounce; at its
///    fastest stride (0.96 Hz) it removes 90 % of the stride component (``strideBandGain(_:rateHz:)``).
/// 5. **Recombined**: gravity + vertical + horizontal; timestamps and sample count unchanged.
///
/// With k = 1 it is the identity (to rounding); with k = 0 the output's |a| is the input's |a|
/// with the stride band of |a| − |gravity| taken out. The step counter sees |a|, which to first
/// order is gravity plus the vertical; the vertical stride band reaches it through the strides'
/// difference between left and right steps. What it cannot remove: the swing's share at the step
/// frequency along gravity (the arm's tension at the bottom of each swing), and the square of a
/// linear horizontal acceleration, which adds to |a| as a turn does, are indistinguishable from
/// the bounce in the acceleration alone (no gyroscope in the Bangle.js files), and stay.
///
/// The filters assume a steady rate (taken as the recording's mean sample interval); below
/// ``minimumRateHz`` the stride band cannot be represented and only the horizontal is scaled.
/// Deterministic; O(n) time and memory.
public struct ArmSwingTransform: Sendable {
    /// k of the "arm swing reduced" set.
    public static let reduced = 0.5
    /// k of the "arm swing removed" set.
    public static let removed = 0.0
    /// Half-width of each of the two box means that estimate gravity, seconds (the triangle spans ±2 s).
    public static let gravityBoxSeconds = 1.0
    /// The stride band attenuated in the vertical component, Hz: strides of 54–132 steps/min.
    public static let strideBand = (low: 0.45, high: 1.1)
    /// The lowest rate at which the vertical stride band is attenuated, Hz (4 times its upper edge).
    public static let minimumRateHz = 4 * strideBand.high

    /// The swing factor k in [0, 1]: 1 as recorded, 0 no swing.
    public let swing: Double

    /// A transform with swing factor `swing` (k, within [0, 1]).
    public init(swing: Double) {
        precondition(swing.isFinite && swing >= 0 && swing <= 1, "swing factor must be within [0, 1]")
        self.swing = swing
    }

    /// `samples` (time order) with the arm swing scaled by ``swing``: the same timestamps, the
    /// acceleration changed as the type describes, the gyroscope (if any) untouched.
    /// - Complexity: O(samples).
    public func apply(to samples: [Sample]) -> [Sample] {
        guard samples.count > 1 else { return samples }
        let gravity = Self.gravity(samples)
        let k = swing
        // `projection`: the motion along gravity (p); `vertical`: p with (1 − k²) of the turn's
        // share given back, |a| − |g| − p. Turning the sensor does not change |a|: tilting it by θ
        // against the gravity estimate moves g(1 − cos θ) out of p and g sin θ into the
        // horizontal, whose square gives the loss back in |a|. Scaling the horizontal by k removes
        // (1 − k²) of that square, so the same share of the loss is given back: without it a turn
        // of the wrist with no swing left would show as a dip of |a|, at the step frequency when
        // the arm swings.
        var projection = [Double](repeating: 0, count: samples.count)
        var vertical = [Double](repeating: 0, count: samples.count)
        var direction = [Vector3](repeating: .zero, count: samples.count)
        for i in samples.indices {
            let g = gravity[i], n = g.magnitude
            // No direction (zero mean acceleration): all motion counts as horizontal.
            guard n > 1e-9 else { continue }
            let u = Vector3(g.x / n, g.y / n, g.z / n)
            let a = samples[i].accel
            direction[i] = u
            let p = (a.x - g.x) * u.x + (a.y - g.y) * u.y + (a.z - g.z) * u.z
            projection[i] = p
            vertical[i] = p + (1 - k * k) * (a.magnitude - n - p)
        }
        let span = Double(samples.last!.timestamp - samples.first!.timestamp) / 1e9
        let rate = span > 0 ? Double(samples.count - 1) / span : 0
        let band = rate >= Self.minimumRateHz ? Self.strideComponent(vertical, rateHz: rate) : nil
        var out = samples
        for i in samples.indices {
            let g = gravity[i], u = direction[i], a = samples[i].accel, p = projection[i]
            let h = Vector3(a.x - g.x - p * u.x, a.y - g.y - p * u.y, a.z - g.z - p * u.z)
            let q = vertical[i] - (1 - k) * (band?[i] ?? 0)
            out[i].accel = Vector3(g.x + q * u.x + k * h.x, g.y + q * u.y + k * h.y, g.z + q * u.z + k * h.z)
        }
        return out
    }

    /// Gravity per sample: the centred box mean over ±``gravityBoxSeconds``, applied twice.
    /// - Complexity: O(samples).
    static func gravity(_ samples: [Sample]) -> [Vector3] {
        let half = Int64(gravityBoxSeconds * 1e9)
        let times = samples.map(\.timestamp)
        return boxMean(boxMean(samples.map(\.accel), times: times, half: half), times: times, half: half)
    }

    /// The mean of `values` over the samples within ±`half` ns of each one (two pointers, running sums).
    static func boxMean(_ values: [Vector3], times: [Int64], half: Int64) -> [Vector3] {
        var out = values
        var lo = 0, hi = 0
        var sx = 0.0, sy = 0.0, sz = 0.0
        for i in values.indices {
            while hi < values.count && times[hi] <= times[i] + half {
                sx += values[hi].x; sy += values[hi].y; sz += values[hi].z
                hi += 1
            }
            while times[lo] < times[i] - half {
                sx -= values[lo].x; sy -= values[lo].y; sz -= values[lo].z
                lo += 1
            }
            let n = Double(hi - lo)
            out[i] = Vector3(sx / n, sy / n, sz / n)
        }
        return out
    }

    /// The stride-band part of `signal` sampled at `rateHz`: the band-pass's sections run forward,
    /// then backward (zero phase).
    static func strideComponent(_ signal: [Double], rateHz: Double) -> [Double] {
        var x = signal
        let sections = Self.sections(rateHz: rateHz)
        for s in sections { s.run(&x) }
        x.reverse()
        for s in sections { s.run(&x) }
        x.reverse()
        return x
    }

    /// The band-pass's second-order sections at `rateHz`: a 4th-order Butterworth high-pass at the
    /// band's lower edge and an 8th-order Butterworth low-pass at its upper edge.
    static func sections(rateHz: Double) -> [Biquad] {
        // Butterworth pole quality factors: 1 / (2 cos((2m − 1)π / 2N)), m = 1 … N/2.
        func qualities(_ order: Int) -> [Double] {
            (1...(order / 2)).map { m in 1 / (2 * cos(Double(2 * m - 1) * .pi / Double(2 * order))) }
        }
        return qualities(4).map { Biquad(highPass: strideBand.low, q: $0, rateHz: rateHz) }
            + qualities(8).map { Biquad(lowPass: strideBand.high, q: $0, rateHz: rateHz) }
    }

    /// The gain (0…1) of the zero-phase stride band-pass at `frequency` Hz for a recording at
    /// `rateHz`: the share of a vertical sinusoid that k = 0 removes.
    public static func strideBandGain(_ frequency: Double, rateHz: Double) -> Double {
        let w = 2 * Double.pi * frequency / rateHz
        var gain = 1.0
        for s in sections(rateHz: rateHz) { gain *= s.magnitude(at: w) }
        return gain * gain
    }

    /// One second-order section (bilinear transform with pre-warping, "Audio EQ Cookbook"),
    /// normalised so that a0 = 1; run in transposed direct form II from a zero state.
    struct Biquad: Sendable {
        let b0: Double, b1: Double, b2: Double, a1: Double, a2: Double

        init(lowPass f: Double, q: Double, rateHz: Double) {
            let w = 2 * Double.pi * f / rateHz, c = cos(w), alpha = sin(w) / (2 * q), a0 = 1 + alpha
            b0 = (1 - c) / 2 / a0; b1 = (1 - c) / a0; b2 = b0
            a1 = -2 * c / a0; a2 = (1 - alpha) / a0
        }

        init(highPass f: Double, q: Double, rateHz: Double) {
            let w = 2 * Double.pi * f / rateHz, c = cos(w), alpha = sin(w) / (2 * q), a0 = 1 + alpha
            b0 = (1 + c) / 2 / a0; b1 = -(1 + c) / a0; b2 = b0
            a1 = -2 * c / a0; a2 = (1 - alpha) / a0
        }

        /// Filters `x` in place.
        func run(_ x: inout [Double]) {
            var s1 = 0.0, s2 = 0.0
            for i in x.indices {
                let v = x[i], y = b0 * v + s1
                s1 = b1 * v - a1 * y + s2
                s2 = b2 * v - a2 * y
                x[i] = y
            }
        }

        /// |H(e^{iw})| at `w` radians per sample.
        func magnitude(at w: Double) -> Double {
            // H = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²), z = e^{iw}.
            let nr = b0 + b1 * cos(w) + b2 * cos(2 * w), ni = -(b1 * sin(w) + b2 * sin(2 * w))
            let dr = 1 + a1 * cos(w) + a2 * cos(2 * w), di = -(a1 * sin(w) + a2 * sin(2 * w))
            return ((nr * nr + ni * ni) / (dr * dr + di * di)).squareRoot()
        }
    }
}
