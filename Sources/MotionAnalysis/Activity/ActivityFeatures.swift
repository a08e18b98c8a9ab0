#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The features of one analysis window (4 s of the 25 Hz grid), all independent of how the sensor
/// is oriented: gravity is estimated as the window's mean acceleration and removed, and what is
/// left is split into its component along gravity (vertical) and the rest (horizontal).
public struct ActivityFeatures: Sendable, Equatable {
    /// |mean acceleration| (m/s²): the gravity estimate's length (about 9.8 when the sensor
    /// measures gravity; much less for a linear-acceleration stream or free fall).
    public var gravity: Double
    /// Standard deviation of the vertical acceleration (m/s²).
    public var vertical: Double
    /// RMS of the horizontal acceleration (m/s²).
    public var horizontal: Double
    /// Standard deviation of |a| (m/s²): how much the sensor moves, orientation-free.
    public var motion: Double
    /// The vibration floor (m/s²): the lowest standard deviation of |a| over the window's four
    /// 1 s quarters. Near the sensor's noise when the motion pauses; stays up in a vehicle.
    public var floor: Double
    /// Attitude change (degrees): the largest angle between the mean acceleration of one of the
    /// window's four 1 s quarters and the window's mean (gravity's direction). A vehicle carries
    /// the sensor at a steady attitude; handling it, or gesturing, turns it.
    public var tilt: Double
    /// Gait periodicity (0...1): the highest peak of the normalised autocorrelation of the
    /// vertical acceleration at lags 0.24-1.6 s (a step or a stride of 37-250 steps/min), counted
    /// only when the autocorrelation first fell at least 0.3 below it (0 without such a peak).
    public var periodicity: Double
    /// The lag of that autocorrelation peak (s).
    public var periodSeconds: Double
    /// Bias-removed rotation rate, rms (rad/s), or nil without a gyroscope.
    public var rotation: Double?

    /// Creates a feature set.
    public init(gravity: Double, vertical: Double, horizontal: Double, motion: Double, floor: Double, tilt: Double,
                periodicity: Double, periodSeconds: Double, rotation: Double?) {
        self.gravity = gravity
        self.vertical = vertical
        self.horizontal = horizontal
        self.motion = motion
        self.floor = floor
        self.tilt = tilt
        self.periodicity = periodicity
        self.periodSeconds = periodSeconds
        self.rotation = rotation
    }

    /// Shortest autocorrelation lag, grid points (0.24 s: 250 steps/min).
    static let minLag = 6
    /// Longest autocorrelation lag, grid points (1.6 s: a slow stride).
    static let maxLag = 40
    /// How far the autocorrelation must have fallen before a peak for the peak to count.
    static let peakDip = 0.3

    /// Computes the features of `n` grid points of acceleration `ax, ay, az` (and angular rate
    /// `gx, gy, gz` when `hasGyro`), oldest first; `v` and `m` are scratch of at least `n` values.
    /// - Precondition: `n >= maxLag + minLag` and `n` divisible by 4.
    /// - Complexity: O(n × lags), no allocation.
    static func compute(n: Int, ax: UnsafePointer<Double>, ay: UnsafePointer<Double>, az: UnsafePointer<Double>,
                        gx: UnsafePointer<Double>, gy: UnsafePointer<Double>, gz: UnsafePointer<Double>, hasGyro: Bool,
                        v: UnsafeMutablePointer<Double>, m: UnsafeMutablePointer<Double>) -> ActivityFeatures {
        precondition(n >= maxLag + minLag + 1 && n % 4 == 0, "window too short")
        let count = Double(n)
        var mx = 0.0, my = 0.0, mz = 0.0
        for i in 0..<n { mx += ax[i]; my += ay[i]; mz += az[i] }
        mx /= count; my /= count; mz /= count
        let g = (mx * mx + my * my + mz * mz).squareRoot()
        // Unit vertical: along gravity (any fixed axis when there is no gravity to follow).
        let (ux, uy, uz) = g > 1e-9 ? (mx / g, my / g, mz / g) : (0.0, 0.0, 1.0)
        var vv = 0.0, hh = 0.0, mean = 0.0
        for i in 0..<n {
            let dx = ax[i] - mx, dy = ay[i] - my, dz = az[i] - mz
            let vert = dx * ux + dy * uy + dz * uz
            v[i] = vert
            vv += vert * vert
            let h2 = dx * dx + dy * dy + dz * dz - vert * vert
            hh += Swift.max(0, h2)
            let norm = (ax[i] * ax[i] + ay[i] * ay[i] + az[i] * az[i]).squareRoot()
            m[i] = norm
            mean += norm
        }
        mean /= count
        var mm = 0.0
        for i in 0..<n { let d = m[i] - mean; mm += d * d }
        // Vibration floor (the calmest quarter) and attitude change (the most turned quarter).
        let q = n / 4
        var floor = Double.infinity
        var cosine = 1.0
        for k in 0..<4 {
            var s = 0.0, s2 = 0.0, qx = 0.0, qy = 0.0, qz = 0.0
            for i in (k * q)..<((k + 1) * q) { s += m[i]; s2 += m[i] * m[i]; qx += ax[i]; qy += ay[i]; qz += az[i] }
            let mu = s / Double(q)
            floor = Swift.min(floor, Swift.max(0, s2 / Double(q) - mu * mu).squareRoot())
            let ql = (qx * qx + qy * qy + qz * qz).squareRoot()
            if ql > 1e-9 { cosine = Swift.min(cosine, (qx * ux + qy * uy + qz * uz) / ql) }
        }
        let tilt = acos(Swift.max(-1, Swift.min(1, cosine))) * 180 / Double.pi
        // Periodicity of the vertical component (its mean is 0 by construction): the highest
        // autocorrelation peak in the lag range that the autocorrelation reached by first falling
        // at least `peakDip` below it (a smooth, slow motion decays without such a dip: not a rhythm).
        var best = 0.0, bestLag = minLag
        if vv > 1e-12 {
            var lowest = 1.0, previous = 1.0, rising = false
            for lag in 1...(maxLag + 1) {
                var c = 0.0, e0 = 0.0, e1 = 0.0
                for i in 0..<(n - lag) {
                    let a = v[i], b = v[i + lag]
                    c += a * b; e0 += a * a; e1 += b * b
                }
                let d = (e0 * e1).squareRoot()
                let r = d > 1e-12 ? c / d : 0
                // `previous` (at lag - 1) is a peak when the curve rose to it and falls after it.
                if rising && r < previous && lag - 1 >= minLag && previous - lowest >= peakDip && previous > best {
                    best = previous
                    bestLag = lag - 1
                }
                rising = r > previous
                lowest = Swift.min(lowest, r)
                previous = r
            }
        }
        var rotation: Double?
        if hasGyro {
            var sx = 0.0, sy = 0.0, sz = 0.0
            for i in 0..<n { sx += gx[i]; sy += gy[i]; sz += gz[i] }
            sx /= count; sy /= count; sz /= count
            var r2 = 0.0
            for i in 0..<n {
                let dx = gx[i] - sx, dy = gy[i] - sy, dz = gz[i] - sz
                r2 += dx * dx + dy * dy + dz * dz
            }
            rotation = (r2 / count).squareRoot()
        }
        return ActivityFeatures(gravity: g, vertical: (vv / count).squareRoot(), horizontal: (hh / count).squareRoot(),
                                motion: (mm / count).squareRoot(), floor: floor, tilt: tilt, periodicity: best,
                                periodSeconds: Double(bestLag) * Double(ActivityClassifierConfiguration.gridPeriod) / 1e9,
                                rotation: rotation)
    }
}
