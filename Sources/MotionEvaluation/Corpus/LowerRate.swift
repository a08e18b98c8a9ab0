import MotionCore

/// A recording as a sensor running at a lower rate would have produced it: the samples through a
/// ``MotionCore/RateDecimator`` (the mean of each 1/rate slot: the box-car low-pass an IMU's
/// output data rate implies, so motion above the new Nyquist frequency is attenuated, not folded
/// onto the cadence). Never upsampled: only rates below the recording's own are produced.
public enum LowerRate {
    /// The rates the evaluations try (Hz), highest first; each recording at the ones below its own.
    public static let standardRates = [50.0, 25.0, 12.5]

    /// A rate counts as below a recording's own when it is at most this share of it (a 26 Hz log
    /// is not "decimated" to 25 Hz).
    public static let margin = 0.9

    /// The recording's own mean rate (Hz): samples − 1 over the span; 0 for fewer than two samples.
    public static func ownRateHz(_ samples: [Sample]) -> Double {
        guard samples.count >= 2, let a = samples.first?.timestamp, let b = samples.last?.timestamp, b > a else { return 0 }
        return Double(samples.count - 1) / (Double(b - a) / 1e9)
    }

    /// The rates of `rates` below the own rate of `samples` (by ``margin``), in the given order.
    public static func rates(below samples: [Sample], from rates: [Double] = standardRates) -> [Double] {
        let own = ownRateHz(samples)
        return rates.filter { $0 <= own * margin }
    }

    /// `samples` (time order) at `rateHz`.
    /// - Precondition: `rateHz` is finite and > 0.
    /// - Complexity: O(samples).
    public static func apply(_ samples: [Sample], rateHz: Double) -> [Sample] {
        var d = RateDecimator(rateHz: rateHz)
        var out: [Sample] = []
        out.reserveCapacity(Int(Double(samples.count) * Swift.min(1, rateHz / Swift.max(1e-9, ownRateHz(samples)))) + 2)
        for s in samples { if let m = d.push(s) { out.append(m) } }
        if let m = d.flush() { out.append(m) }
        return out
    }
}
