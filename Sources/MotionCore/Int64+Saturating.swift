extension Int64 {
    /// `self + other`, or `Int64.max` / `Int64.min` where that overflows: time arithmetic
    /// (timestamps plus latencies, delivery minus sample time) that never traps.
    @inlinable
    public func saturatingAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, or `Int64.max` / `Int64.min` where that overflows.
    @inlinable
    public func saturatingSubtracting(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
