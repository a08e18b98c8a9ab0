#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    mutating func autocorrelation(lag: Int, window: Int) -> Double {
        bestCorrelation(window: window, lagRanges: (lag, lag), (1, 0))
    }

    /// The highest normalised autocorrelation at the lags within ±`tolerance` (a fraction) of
    /// `period` grid points and of twice `period` (one stride: an arm swing or a dominant leg
    /// repeats every two steps), over the newest `window` values. With `referenceWindow` > 0,
    /// each lag's correlation r over n pairs is expressed as the correlation with the same Fisher
    /// z-score over the pairs of a `referenceWindow`-long window, tanh(atanh(r)·√((n − 3)/(n_ref − 3))),
    /// so that one threshold means the same evidence for any window (lags without 8 reference
    /// pairs are skipped). With `reaching`, the search stops at the first lag whose correlation
    /// reaches it and returns that one: for a caller that only compares with a threshold the
    /// answer is the same, at a fraction of the cost.
    /// - Complexity: O(window × (1 + period × tolerance)). (`mutating` only so that the stored
    ///   values are read in place instead of copied; they are not changed.)
    mutating func periodicity(period: Double, tolerance: Double, window: Int, referenceWindow: Int = 0,
                              reaching threshold: Double = .infinity) -> Double {
        func lags(_ centre: Double) -> (Int, Int) {
            (Swift.max(1, Int((centre * (1 - tolerance)).rounded(.down))), Int((centre * (1 + tolerance)).rounded(.up)))
        }
        return bestCorrelation(window: window, lagRanges: lags(period), lags(2 * period), referenceWindow: referenceWindow, reaching: threshold)
    }

    /// The largest r(lag) for lag in either closed range (an empty range when lo > hi), or the
    /// first one reaching `threshold`; 0 when no lag has 8 pairs. The window
    /// is unwrapped once, oldest first, into stack scratch with running sums of squares, so each
    /// lag costs one multiply-add per pair.
    private mutating func bestCorrelation(window: Int, lagRanges first: (Int, Int), _ second: (Int, Int), referenceWindow: Int = 0,
                                          reaching threshold: Double = .infinity) -> Double {
        let w = Swift.max(0, Swift.min(window, Swift.min(count, Self.capacity)))
        let newest = count
        // On the stack (a temporary allocation of more than 1 KiB goes to the heap on Linux).
        var scratch = InlineArray<257, Double>(repeating: 0)  // 2 x capacity + 1
        return withUnsafeMutableBytes(of: &scratch) { raw -> Double in
            let linear = raw.baseAddress!.assumingMemoryBound(to: Double.self)
            let squares = linear + Self.capacity   // squares[i] = sum of the squares of linear[0..<i]
            withUnsafeBytes(of: &values) { raw in
                let v = raw.assumingMemoryBound(to: Double.self)
                var sum = 0.0
                squares[0] = 0
                for i in 0..<w {
                    let x = v[(newest - w + i) & (Self.capacity - 1)]
                    linear[i] = x
                    sum += x * x
                    squares[i + 1] = sum
                }
            }
            var best = -Double.infinity
            for range in 0..<2 {
                let (lo, hi) = range == 0 ? first : second
                if lo > hi { continue }
                for lag in Swift.max(1, lo)...Swift.max(1, hi) {
                    let pairs = w - lag
                    if pairs < 8 { break }
                    var sab = 0.0
                    for i in 0..<pairs { sab += linear[i] * linear[i + lag] }
                    let d = (squares[pairs] * (squares[w] - squares[lag])).squareRoot()
                    var r = d > 0 ? sab / d : 0
                    if referenceWindow > 0 && referenceWindow != w {
                        // The correlation carrying the same evidence over the reference window:
                        // equal Fisher z-score, atanh(r)·√(n − 3), with n the number of pairs.
                        let referencePairs = referenceWindow - lag
                        if referencePairs < 8 { continue }
                        let c = Swift.min(Swift.max(r, -0.999_999), 0.999_999)
                        r = tanh(atanh(c) * (Double(pairs - 3) / Double(referencePairs - 3)).squareRoot())
                    }
                    best = Swift.max(best, r)
                    if best >= threshold { return best }
                }
            }
            return best == -.infinity ? 0 : best
        }
    }
}
