/// The last ``capacity`` values of the step counter's band-passed 25 Hz signal, stored inline (no
/// allocation), and the scale-free periodicity measure computed from them.
///
/// Periodicity is the normalised autocorrelation
/// `r(L) = Σ x[m]·x[m−L] / √(Σ x[m]² · Σ x[m−L]²)` over the pairs that lie in the window of the last
/// `window` values. It is 1 for a signal that repeats exactly every `L` grid points and does not
/// depend on the signal's amplitude, so a gentle walker and a vigorous one score alike, while
/// jolts in a vehicle or desk work, whose peaks happen to be spaced evenly for a few beats, score low.
struct StepSignalHistory: Sendable {
    /// Number of values kept (5.12 s at 25 Hz).
    static let capacity = 128
    private var values = InlineArray<128, Double>(repeating: 0)
    /// Values pushed since the last reset.
    private(set) var count = 0

    /// Appends the newest value.
    /// - Complexity: O(1).
    @inline(__always)
    mutating func push(_ x: Double) {
        values[count & (Self.capacity - 1)] = x
        count &+= 1
    }

    /// Forgets every value.
    mutating func reset() { count = 0 }

    /// The value pushed `ago` values before the newest (0 = newest); requires `ago < min(count, capacity)`.
    @inline(__always)
    func value(ago: Int) -> Double { values[(count - 1 - ago) & (Self.capacity - 1)] }

    /// Normalised autocorrelation at lag `lag` over the newest `window` values (0 when there are
    /// fewer than 8 pairs or no energy).
    /// - Complexity: O(window).
    func autocorrelation(lag: Int, window: Int) -> Double {
        let w = Swift.min(window, Swift.min(count, Self.capacity))
        let pairs = w - lag
        guard lag > 0, pairs >= 8 else { return 0 }
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for i in 0..<pairs {
            let a = value(ago: i)
            let b = value(ago: i + lag)
            sab += a * b; saa += a * a; sbb += b * b
        }
        let d = (saa * sbb).squareRoot()
        return d > 0 ? sab / d : 0
    }

    /// The highest normalised autocorrelation at the lags within ±`tolerance` (a fraction) of
    /// `period` grid points and of twice `period` (one stride: an arm swing or a dominant leg
    /// repeats every two steps), over the newest `window` values.
    /// - Complexity: O(window × period × tolerance).
    func periodicity(period: Double, tolerance: Double, window: Int) -> Double {
        var best = 0.0
        for multiple in 1...2 {
            let centre = period * Double(multiple)
            let lo = Swift.max(1, Int((centre * (1 - tolerance)).rounded(.down)))
            let hi = Int((centre * (1 + tolerance)).rounded(.up))
            if lo > hi { continue }
            for lag in lo...hi { best = Swift.max(best, autocorrelation(lag: lag, window: window)) }
        }
        return best
    }
}
