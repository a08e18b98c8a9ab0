/// Running facts about a sample stream: count, span, effective rate and timestamp gaps. A state
/// machine fed batch by batch; its value depends only on the samples, never on how they were split
/// into batches (how they were delivered is ``DeliveryReplay``'s account), so two statistics of
/// the same stream are equal whatever the batching.
///
/// Gaps are intervals longer than `gapFactor` × the nominal period. The nominal period is the
/// declared sampling period when known, otherwise the median of the first
/// ``calibrationIntervals`` intervals of the stream (decided by sample order, so batch size
/// cannot change it).
public struct StreamStatistics: Sendable, Equatable {
    /// How many intervals the nominal period is estimated from when no rate is declared.
    public static let calibrationIntervals = 255
    /// An interval longer than this many nominal periods is a gap.
    public let gapFactor: Double

    /// Samples seen.
    public private(set) var sampleCount = 0
    /// Timestamp of the first sample (ns), if any.
    public private(set) var firstTimestamp: Int64?
    /// Timestamp of the last sample (ns), if any.
    public private(set) var lastTimestamp: Int64?
    /// Number of gaps found.
    public private(set) var gapCount = 0
    /// Longest gap (ns), 0 when none.
    public private(set) var longestGap: Int64 = 0
    /// Samples estimated missing in gaps: round(interval / period) − 1 summed over gaps.
    public private(set) var estimatedMissingSamples: Int64 = 0
    /// The nominal period (ns) once known.
    public private(set) var nominalPeriod: Int64?

    private var pendingIntervals: [Int64] = []

    /// Creates an accumulator. Pass `declaredRateHz` when the source states its rate.
    public init(declaredRateHz: Double? = nil, gapFactor: Double = 2.0) {
        precondition(gapFactor > 1, "gapFactor must be > 1")
        self.gapFactor = gapFactor
        // A rate outside InputLimits.rate (the reader refuses such headers) is ignored.
        if let r = declaredRateHz, InputLimits.rate.contains(r) { nominalPeriod = max(1, Int64((1e9 / r).rounded())) }
    }

    /// Adds the samples of one delivered batch.
    /// - Complexity: O(n) in the batch's samples.
    public mutating func add(_ batch: SampleBatch) {
        for s in batch.samples { add(timestamp: s.timestamp) }
    }

    private mutating func add(timestamp t: Int64) {
        sampleCount += 1
        if firstTimestamp == nil { firstTimestamp = t }
        if let last = lastTimestamp {
            let dt = t.saturatingSubtracting(last)
            if nominalPeriod != nil {
                account(dt)
            } else {
                pendingIntervals.append(dt)
                if pendingIntervals.count >= Self.calibrationIntervals { settlePeriod() }
            }
        }
        lastTimestamp = t
    }

    private mutating func settlePeriod() {
        let sorted = pendingIntervals.sorted()
        nominalPeriod = max(1, sorted[sorted.count / 2])
        let pending = pendingIntervals
        pendingIntervals.removeAll()
        for dt in pending { account(dt) }
    }

    private mutating func account(_ dt: Int64) {
        guard let p = nominalPeriod, Double(dt) > gapFactor * Double(p) else { return }
        gapCount += 1
        longestGap = max(longestGap, dt)
        estimatedMissingSamples += max(0, Int64((Double(dt) / Double(p)).rounded()) - 1)
    }

    /// Ends the stream: settles the nominal period from what was seen if still unknown.
    public mutating func finish() {
        if nominalPeriod == nil, !pendingIntervals.isEmpty { settlePeriod() }
    }

    /// Span from first to last sample, in seconds (0 for fewer than two samples).
    public var durationSeconds: Double {
        guard let a = firstTimestamp, let b = lastTimestamp else { return 0 }
        return Double(b - a) / 1e9
    }

    /// Samples per second over the span, (n − 1) / duration; nil for fewer than two samples.
    public var effectiveRateHz: Double? {
        let d = durationSeconds
        return sampleCount >= 2 && d > 0 ? Double(sampleCount - 1) / d : nil
    }
}
