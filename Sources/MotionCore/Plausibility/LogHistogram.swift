/// Counts of positive values in logarithmic bins (sixteen per octave, from 2^-40 to 2^40; smaller
/// values, zero included, in the first bin, larger ones in the last), for quantiles of a stream
/// in constant memory and O(1) per value: the one statistic ``PlausibilityCheck`` keeps of each
/// stream. A quantile is exact to within one bin (about 4.4 % of the value).
public struct LogHistogram: Sendable, Equatable {
    /// Bins per octave.
    static let binsPerOctave = 16
    /// Octaves below and above 1.
    static let octaves = 40

    /// Values counted.
    public private(set) var count = 0
    /// The largest value counted (0 before any).
    public private(set) var maximum = 0.0
    private var bins = [Int](repeating: 0, count: 2 * octaves * binsPerOctave)

    /// An empty histogram.
    public init() {}

    /// Counts `value` (a NaN or a negative value counts as 0).
    /// - Complexity: O(1).
    @inline(__always)
    public mutating func add(_ value: Double) {
        count += 1
        if value > maximum { maximum = value }
        bins[Self.bin(value)] += 1
    }

    @inline(__always)
    static func bin(_ value: Double) -> Int {
        guard value > 0, value.isFinite else { return value == .infinity ? 2 * octaves * binsPerOctave - 1 : 0 }
        let bits = value.bitPattern
        let exponent = Int((bits >> 52) & 0x7FF) - 1023
        if exponent < -octaves { return 0 }
        if exponent >= octaves { return 2 * octaves * binsPerOctave - 1 }
        return (exponent + octaves) * binsPerOctave + Int((bits >> 48) & 15)
    }

    /// The centre of bin `index` (the middle of its sixteenth of the octave).
    static func centre(_ index: Int) -> Double {
        let exponent = index / binsPerOctave - octaves
        let part = Double(index % binsPerOctave)
        return Double(sign: .plus, exponent: exponent, significand: 1 + (part + 0.5) / Double(binsPerOctave))
    }

    /// The value below which a fraction `q` (0...1) of the counted values lie, to within a bin;
    /// nil when nothing was counted.
    public func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = min(count - 1, max(0, Int((Double(count - 1) * q).rounded(.down))))
        var seen = 0
        for (i, n) in bins.enumerated() where n > 0 {
            seen += n
            if seen > rank { return min(Self.centre(i), maximum) }
        }
        return maximum
    }

    /// The median (``quantile(_:)`` at 0.5).
    public var median: Double? { quantile(0.5) }
}
