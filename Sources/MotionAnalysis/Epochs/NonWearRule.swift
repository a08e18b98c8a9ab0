/// GGIR's non-wear rule (van Hees et al. 2011, 2013; GGIR's `nonwear_approach = "2013"`): the
/// recording is cut into 15-minute blocks; a block is **non-wear** when the window of `window`
/// minutes centred on it (60 by default) has, on at least `axes` of the three axes, a standard
/// deviation below `standardDeviation` (13 mg) and a range below `range` (50 mg): a device lying
/// still, with only its noise. A window is built from the 7.5-minute pieces of
/// ``AccelerationMetrics`` (exactly: pieces merge without loss); at the recording's edges it holds
/// what data there is. Blocks without samples are neither wear nor non-wear.
public struct NonWearRule: Sendable, Equatable {
    /// One block, ns (15 min).
    public static let blockNs: Int64 = 900_000_000_000

    /// Standard deviation criterion, g (0.013).
    public var standardDeviation = 0.013
    /// Range criterion, g (0.050).
    public var range = 0.050
    /// Axes that must meet both criteria (2 of 3).
    public var axes = 2
    /// Window length in minutes, a multiple of 15 (60).
    public var windowMinutes = 60

    /// GGIR's published values.
    public init() {}

    /// Why a parameter is out of range, nil when all are valid.
    public var invalidReason: String? {
        if !(standardDeviation > 0 && standardDeviation <= 1) { return "the standard deviation criterion must be above 0 and at most 1 g (1000 mg)" }
        if !(range > 0 && range <= 16) { return "the range criterion must be above 0 and at most 16 g" }
        if !(1...3).contains(axes) { return "the axes must be 1, 2 or 3" }
        if windowMinutes < 15 || windowMinutes > 24 * 60 || windowMinutes % 15 != 0 { return "the window must be a multiple of 15 minutes from 15 to 1440" }
        return nil
    }

    /// The indices of the non-wear 15-minute blocks (block `b` starts at `b × 15 min` on the
    /// recording's clock), in increasing order.
    /// - Complexity: O(pieces × window pieces).
    public func nonWearBlocks(_ metrics: AccelerationMetrics) -> [Int64] {
        let pieces = metrics.pieces
        guard !pieces.isEmpty else { return [] }
        // A window of k blocks centred on block b spans pieces [2b - (k-1), 2b + 2 + (k-1)).
        let side = Int64(windowMinutes / 15 - 1)
        var blocks: [Int64] = []
        var last: Int64?
        for piece in pieces {
            let block = AccelerationMetricsAnalyzer.floorDiv(piece.index, 2)
            if block == last { continue }
            last = block
            let from = 2 * block - side, to = 2 * block + 2 + side
            var lo = AccelerationMetricsAnalyzer.lowerBound(pieces.count) { pieces[$0].index < from }
            var window = [AxisStatistics](repeating: AxisStatistics(), count: 3)
            while lo < pieces.count && pieces[lo].index < to {
                for a in 0..<3 { window[a] = window[a].merged(with: pieces[lo].axes[a]) }
                lo += 1
            }
            let still = window.filter { $0.count >= 2 && $0.standardDeviation < standardDeviation && $0.range < range }.count
            if still >= axes { blocks.append(block) }
        }
        return blocks
    }
}
