/// Finds gaps in a timestamp stream and counts the samples lost in them. The kernel drops NEW
/// samples when its buffer is full and libiio does not report it, so a gap in the timestamps is
/// the only sign. An interval longer than `factor` x the period is a gap of
/// `round(interval / period) - 1` lost samples. State machine; no I/O, no clock.
public struct GapDetector: Sendable {
    /// One gap found.
    public struct Gap: Hashable, Sendable {
        /// Timestamp of the last sample before the gap, ns.
        public var after: Int64
        /// Timestamp of the first sample after the gap, ns.
        public var before: Int64
        /// Samples estimated lost.
        public var lostSamples: Int
    }

    /// Nominal period, ns.
    public let period: Int64
    /// An interval above this many periods is a gap. The capture raises it to
    /// ``burstJoinFactor`` once a stream's timestamps are repaired bursts, whose joins carry
    /// up to about a period of anchoring error.
    public var factor: Double
    /// The factor used for repaired (arrival-stamped) bursts.
    public static let burstJoinFactor = 2.5
    /// Total samples estimated lost.
    public private(set) var lostSamples = 0
    /// Number of gaps.
    public private(set) var gapCount = 0
    /// Intervals that went backwards or did not advance (clock problems), counted, not lost.
    public private(set) var nonIncreasing = 0
    private var last: Int64?

    /// Creates a detector for a nominal `period` (ns, > 0).
    public init(period: Int64, factor: Double = 1.5) {
        precondition(period > 0 && factor > 1, "period > 0 and factor > 1 required")
        self.period = period
        self.factor = factor
    }

    /// Feeds one timestamp; returns the gap it closes, if any.
    /// - Complexity: O(1).
    public mutating func push(_ timestamp: Int64) -> Gap? {
        defer { last = timestamp }
        guard let prev = last else { return nil }
        let dt = timestamp - prev
        if dt <= 0 { nonIncreasing += 1; return nil }
        guard Double(dt) > factor * Double(period) else { return nil }
        let lost = max(1, Int((Double(dt) / Double(period)).rounded()) - 1)
        lostSamples += lost
        gapCount += 1
        return Gap(after: prev, before: timestamp, lostSamples: lost)
    }
}
