import MotionCore

/// A recording prepared for playback at any rate: times relative to the first sample and
/// linear interpolation between neighbouring samples (exact at the recorded instants).
public struct SampleSource: Sendable {
    /// Sample times in nanoseconds since the first sample (strictly increasing, first is 0).
    public let times: [Int64]
    /// The samples, in order.
    public let samples: [Sample]
    /// Whether the recording carries gyroscope data.
    public let hasGyro: Bool
    /// The median spacing of the recording in nanoseconds (its native sample interval).
    public let nativeInterval: Int64
    /// Length of one loop in nanoseconds: last time + native interval.
    public var period: Int64 { (times.last ?? 0).saturatingAdding(nativeInterval) }
    /// Time of the last sample (ns since the first).
    public var lastTime: Int64 { times.last ?? 0 }

    /// Problems that make a recording unplayable.
    public struct Problem: Error, CustomStringConvertible, Equatable, Sendable {
        public var description: String
    }

    /// Prepares `samples` (timestamps strictly increasing, as ``RecordingReader`` guarantees).
    /// - Throws: ``Problem`` when there are fewer than 2 samples or timestamps do not increase.
    /// - Complexity: O(n log n) (median of the spacings).
    public init(samples: [Sample], hasGyro: Bool) throws(Problem) {
        guard samples.count >= 2 else { throw Problem(description: "the recording needs at least 2 samples, it has \(samples.count)") }
        let t0 = samples[0].timestamp
        var times: [Int64] = []
        times.reserveCapacity(samples.count)
        var gaps: [Int64] = []
        gaps.reserveCapacity(samples.count - 1)
        for (i, s) in samples.enumerated() {
            let t = s.timestamp - t0
            if i > 0 {
                guard t > times[i - 1] else { throw Problem(description: "sample \(i + 1): timestamp does not increase") }
                gaps.append(t - times[i - 1])
            }
            times.append(t)
        }
        gaps.sort()
        self.times = times
        self.samples = samples
        self.hasGyro = hasGyro
        self.nativeInterval = gaps[gaps.count / 2]
    }

    /// The native rate in Hz.
    public var nativeRate: Double { 1e9 / Double(nativeInterval) }

    /// The value of `kind` at recording time `t` (ns since the first sample, clamped to the
    /// recording), linearly interpolated.
    /// - Complexity: O(log n).
    public func value(_ kind: EmulatedSensorKind, at t: Int64) -> Vector3 {
        if t <= 0 { return kind.value(of: samples[0]) }
        if t >= lastTime { return kind.value(of: samples[samples.count - 1]) }
        // Last index with times[i] <= t.
        var lo = 0, hi = times.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if times[mid] <= t { lo = mid } else { hi = mid - 1 }
        }
        let a = kind.value(of: samples[lo])
        if times[lo] == t { return a }
        let b = kind.value(of: samples[lo + 1])
        let f = Double(t - times[lo]) / Double(times[lo + 1] - times[lo])
        return Vector3(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f)
    }
}
