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
    /// Standard deviation of |a| smoothed by [1 2 1]/4 on the 25 Hz grid (m/s²): the motion
    /// without the sensor's white noise above about 6 Hz (what the `still` rule reads, so a
    /// noisier sensor at rest is still as a quieter one is).
    public var calmMotion: Double
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
    /// Gait periodicity of the window's last ``shortPoints`` (2.4 s) alone, the same measure at
    /// lags 0.24-1.6 s: a short walk (a few strides between a chair and a turn) repeats there
    /// while the whole window, holding the standing up or the turn, does not.
    public var shortPeriodicity: Double
    /// Standard deviation of the vertical acceleration over the last ``shortPoints`` (m/s²).
    public var shortVertical: Double
    /// Bias-removed rotation rate, rms (rad/s), or nil without a gyroscope.
    public var rotation: Double?
    /// Rotational rhythm (0...1) over the window's last ``shortPoints`` (2.4 s), or nil without a
    /// gyroscope: the periodicity (the same measure as ``periodicity``) of the angular rate along
    /// its principal axis there. An arm swinging at the wrist, a thigh in a trouser pocket, turn
    /// back and forth once a stride even when the vertical bounce of an uneven walker repeats
    /// poorly.
    public var shortRotationPeriodicity: Double?
    /// Bias-removed rotation rate over the last ``shortPoints``, rms (rad/s), or nil without a gyroscope.
    public var shortRotation: Double?
    /// Vibration share (0 to about 1.4): the standard deviation of |a| minus its centred
    /// ``vibrationPoints``-point (0.52 s) moving mean, over the standard deviation of |a|: how much
    /// of the motion lies above about 2 Hz. A road and an engine shake the sensor at every
    /// frequency the grid holds (white noise gives about 1); a body at rest (sway, posture shifts,
    /// a hand holding the device) moves it slowly. 0 when |a| does not vary.
    public var vibrationShare: Double

    /// Creates a feature set.
    public init(gravity: Double, vertical: Double, horizontal: Double, motion: Double, calmMotion: Double? = nil, floor: Double, tilt: Double,
                periodicity: Double, periodSeconds: Double, shortPeriodicity: Double = 0, shortVertical: Double = 0, rotation: Double?,
                vibrationShare: Double = 1, shortRotationPeriodicity: Double? = nil, shortRotation: Double? = nil) {
        self.gravity = gravity
        self.vertical = vertical
        self.horizontal = horizontal
        self.motion = motion
        self.calmMotion = calmMotion ?? motion
        self.floor = floor
        self.tilt = tilt
        self.periodicity = periodicity
        self.periodSeconds = periodSeconds
        self.shortPeriodicity = shortPeriodicity
        self.shortVertical = shortVertical
        self.rotation = rotation
        self.vibrationShare = vibrationShare
        self.shortRotationPeriodicity = shortRotationPeriodicity
        self.shortRotation = shortRotation
    }

    /// Shortest autocorrelation lag, grid points (0.24 s: 250 steps/min).
    static let minLag = 6
    /// Longest autocorrelation lag, grid points (1.6 s: a slow stride).
    static let maxLag = 40
    /// How far the autocorrelation must have fallen before a peak for the peak to count.
    static let peakDip = 0.3
    /// The short window of ``shortPeriodicity``, grid points (2.4 s).
    public static let shortPoints = 60
    /// The moving mean of ``vibrationShare``, grid points (0.52 s: its first null at 1.9 Hz).
    public static let vibrationPoints = 13

    /// ``vibrationShare`` of `m[0..<n]` whose standard deviation is `motion`: the residual of a
    /// centred moving mean of ``vibrationPoints`` over the points where it is whole.
    /// - Complexity: O(n), no allocation.
    static func vibrationShare(_ m: UnsafePointer<Double>, n: Int, motion: Double) -> Double {
        let k = vibrationPoints, half = vibrationPoints / 2
        guard motion > 1e-9, n > k else { return 0 }
        var window = 0.0
        for i in 0..<k { window += m[i] }
        var s = 0.0, s2 = 0.0
        let count = n - 2 * half
        for i in half..<(n - half) {
            let r = m[i] - window / Double(k)
            s += r; s2 += r * r
            if i + half + 1 < n { window += m[i + half + 1] - m[i - half] }
        }
        let mean = s / Double(count)
        return (Swift.max(0, s2 / Double(count) - mean * mean)).squareRoot() / motion
    }

    /// The periodicity of `v[0..<n]` (mean 0 not required: the mean is removed; when `smoothed`,
    /// filtered by [1 2 1]/4 first): the highest autocorrelation peak at lags `minLag...maxLag` reached by first falling at least `peakDip`
    /// below it (a smooth, slow motion decays without such a dip: not a rhythm), with its lag and
    /// the standard deviation of `v` (unsmoothed); `w` is scratch of at least `n` values.
    /// - Complexity: O(n × maxLag), no allocation; one multiply-add per lag and point.
    static func periodicity(_ v: UnsafePointer<Double>, n: Int, maxLag: Int, smoothed: Bool,
                            scratch w: UnsafeMutablePointer<Double>) -> (value: Double, lag: Int, std: Double) {
        var mean = 0.0
        for i in 0..<n { mean += v[i] }
        mean /= Double(n)
        var vv = 0.0, raw = 0.0
        for i in 0..<n {
            let a = v[Swift.max(0, i - 1)], b = v[i], c = v[Swift.min(n - 1, i + 1)]
            w[i] = (smoothed ? 0.25 * (a + 2 * b + c) : b) - mean
            raw += (b - mean) * (b - mean)
        }
        for i in 0..<n { vv += w[i] * w[i] }
        var best = 0.0, bestLag = minLag
        if vv > 1e-12 {
            var lowest = 1.0, previous = 1.0, rising = false
            // The energies of the two overlapping parts, updated per lag (one term leaves each);
            // the products in four independent sums (the loop is bound by the adds' latency).
            var e0 = vv, e1 = vv
            for lag in 1...(maxLag + 1) {
                e0 -= w[n - lag] * w[n - lag]
                e1 -= w[lag - 1] * w[lag - 1]
                let count = n - lag
                let shifted = w + lag
                var c0 = 0.0, c1 = 0.0, c2 = 0.0, c3 = 0.0
                var i = 0
                while i + 4 <= count {
                    c0 += w[i] * shifted[i]
                    c1 += w[i + 1] * shifted[i + 1]
                    c2 += w[i + 2] * shifted[i + 2]
                    c3 += w[i + 3] * shifted[i + 3]
                    i += 4
                }
                while i < count {
                    c0 += w[i] * shifted[i]
                    i += 1
                }
                let c = (c0 + c1) + (c2 + c3)
                let d = (Swift.max(0, e0) * Swift.max(0, e1)).squareRoot()
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
        return (best, bestLag, (raw / Double(n)).squareRoot())
    }

    /// The bias-removed angular rate of points `0..<n` of `gx, gy, gz` projected on its principal
    /// axis (the dominant eigenvector of its 3 × 3 covariance, by power iteration from a fixed
    /// start: deterministic), written to `out`; returns the rms of the bias-removed rate (rad/s).
    /// - Complexity: O(n), no allocation.
    static func principalRotation(_ gx: UnsafePointer<Double>, _ gy: UnsafePointer<Double>, _ gz: UnsafePointer<Double>,
                                  n: Int, into out: UnsafeMutablePointer<Double>) -> Double {
        let count = Double(n)
        var sx = 0.0, sy = 0.0, sz = 0.0
        for i in 0..<n { sx += gx[i]; sy += gy[i]; sz += gz[i] }
        sx /= count; sy /= count; sz /= count
        var cxx = 0.0, cyy = 0.0, czz = 0.0, cxy = 0.0, cxz = 0.0, cyz = 0.0
        for i in 0..<n {
            let x = gx[i] - sx, y = gy[i] - sy, z = gz[i] - sz
            cxx += x * x; cyy += y * y; czz += z * z; cxy += x * y; cxz += x * z; cyz += y * z
        }
        var (ex, ey, ez) = (0.577, 0.578, 0.579)
        for _ in 0..<24 {
            let nx = cxx * ex + cxy * ey + cxz * ez
            let ny = cxy * ex + cyy * ey + cyz * ez
            let nz = cxz * ex + cyz * ey + czz * ez
            let l = (nx * nx + ny * ny + nz * nz).squareRoot()
            guard l > 1e-12 else { break }
            (ex, ey, ez) = (nx / l, ny / l, nz / l)
        }
        for i in 0..<n { out[i] = (gx[i] - sx) * ex + (gy[i] - sy) * ey + (gz[i] - sz) * ez }
        return ((cxx + cyy + czz) / count).squareRoot()
    }

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
        var mm = 0.0, calm = 0.0
        for i in 0..<n {
            let d = m[i] - mean
            mm += d * d
            let c = 0.25 * (m[Swift.max(0, i - 1)] + 2 * m[i] + m[Swift.min(n - 1, i + 1)]) - mean
            calm += c * c
        }
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
        let motion = (mm / count).squareRoot()
        let share = vibrationShare(UnsafePointer(m), n: n, motion: motion)
        // Periodicity of the vertical component over the whole window and over its last 2.4 s
        // (the scratch `m` is free again: |a| is no longer needed).
        // The short window's signal is smoothed by [1 2 1]/4 on the 25 Hz grid (gain 0.5 at
        // 6.25 Hz, 0 at 12.5 Hz): the rhythm of a few strides, not the jitter of each impact, makes
        // its periodicity. (The whole window's is not: smoothing a road's random vibration makes
        // its autocorrelation look rhythmic, and rides would lose their `vehicle` evidence.)
        let whole = periodicity(UnsafePointer(v), n: n, maxLag: maxLag, smoothed: false, scratch: m)
        let shortN = Swift.min(n, shortPoints)
        let short = periodicity(UnsafePointer(v + (n - shortN)), n: shortN, maxLag: Swift.min(maxLag, shortN - minLag - 1), smoothed: true, scratch: m)
        var rotation: Double?, shortRotation: Double?, shortRotationPeriodicity: Double?
        if hasGyro {
            // The rotational rhythm of the last 2.4 s (`v` is free: the vertical is no longer needed).
            let start = n - shortN
            shortRotation = principalRotation(gx + start, gy + start, gz + start, n: shortN, into: v)
            shortRotationPeriodicity = periodicity(UnsafePointer(v), n: shortN, maxLag: Swift.min(maxLag, shortN - minLag - 1), smoothed: false, scratch: m).value
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
                                motion: motion, calmMotion: (calm / count).squareRoot(), floor: floor, tilt: tilt, periodicity: whole.value,
                                periodSeconds: Double(whole.lag) * Double(ActivityClassifierConfiguration.gridPeriod) / 1e9,
                                shortPeriodicity: short.value, shortVertical: short.std, rotation: rotation, vibrationShare: share,
                                shortRotationPeriodicity: shortRotationPeriodicity, shortRotation: shortRotation)
    }
}
