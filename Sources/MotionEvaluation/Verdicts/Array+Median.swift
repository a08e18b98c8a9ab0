extension Array where Element == Double {
    /// The median (the mean of the two middle values for an even count); nil when empty.
    /// - Complexity: O(n log n) (a sorted copy).
    var median: Double? {
        guard !isEmpty else { return nil }
        let s = sorted()
        let n = s.count
        return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2])
    }
}
