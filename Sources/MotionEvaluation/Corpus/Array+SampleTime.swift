import MotionCore

extension Array where Element == Sample {
    /// The index of the first sample whose timestamp is at least `t` (`count` when none is), by
    /// binary search; the samples must be in time order.
    /// - Complexity: O(log count).
    func firstIndex(atOrAfter t: Int64) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid].timestamp < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
