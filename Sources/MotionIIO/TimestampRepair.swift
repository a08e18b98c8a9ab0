import MotionCore

/// Repairs the timestamps of hardware-FIFO bursts stamped on arrival. When a sensor hub hands
/// over a burst, drivers that stamp on arrival give all its samples nearly the same time. This
/// state machine finds such bunched runs (consecutive stamps closer than a quarter period),
/// and spreads each by the sampling period, anchored at the run's last stamp (the burst's
/// end, the best-known instant): `t[i] = t_end - (k-1-i) x period`. Samples already spaced by
/// about the period (per-sample delivery, or hub timestamps) pass through unchanged.
///
/// A burst may be drained in several pieces; a trailing bunched run is therefore held back
/// until it is closed (a non-bunched sample follows, it reaches ``expectedBurst`` samples, or
/// ``finish()``). Output stays strictly increasing: a repaired run that would start at or
/// before the previous output is compressed evenly between it and the anchor (counted in
/// ``compressedRuns``). No I/O, no clock.
public struct TimestampRepair: Sendable {
    /// Nominal sampling period, ns.
    public let period: Int64
    /// Samples in a full FIFO burst (rate x latency), or nil when unknown; a held run of this
    /// size is released at once.
    public let expectedBurst: Int?
    /// Runs whose stamps were respread.
    public private(set) var repairedRuns = 0
    /// Samples whose stamps were changed.
    public private(set) var repairedSamples = 0
    /// Runs that had to be compressed to keep time increasing.
    public private(set) var compressedRuns = 0

    private var held: [Sample] = []
    private var lastOutput: Int64?

    /// Creates a repairer for the nominal `period` (ns, > 0).
    public init(period: Int64, expectedBurst: Int? = nil) {
        precondition(period > 0, "period must be > 0")
        self.period = period
        self.expectedBurst = expectedBurst
    }

    private var bunchLimit: Int64 { period / 4 }

    /// Feeds the samples of one drain (in arrival order); returns the samples whose timestamps
    /// are final, in order.
    /// - Complexity: O(n).
    public mutating func push(_ samples: [Sample]) -> [Sample] {
        var out: [Sample] = []
        out.reserveCapacity(samples.count + held.count)
        for s in samples {
            if let last = held.last, s.timestamp - last.timestamp >= bunchLimit {
                release(into: &out)
            }
            held.append(s)
            if let n = expectedBurst, n > 1, held.count >= n { release(into: &out) }
        }
        // A lone trailing sample cannot be a burst yet, but may start one: hold it only if
        // bursts are expected; otherwise release everything now.
        if expectedBurst == nil || expectedBurst! <= 1 { release(into: &out) }
        return out
    }

    /// Releases whatever is held (end of capture).
    public mutating func finish() -> [Sample] {
        var out: [Sample] = []
        release(into: &out)
        return out
    }

    /// Emits the held run, respread when bunched.
    private mutating func release(into out: inout [Sample]) {
        guard !held.isEmpty else { return }
        defer { held.removeAll(keepingCapacity: true) }
        let k = held.count
        let end = held[k - 1].timestamp
        if k >= 2, end - held[0].timestamp < Int64(k - 1) * bunchLimit {
            var start = end - Int64(k - 1) * period
            var step = period
            if let prev = lastOutput, start <= prev {
                // Not enough room since the previous sample: spread evenly up to the anchor.
                compressedRuns += 1
                step = max(1, (end - prev) / Int64(k))
                start = end - Int64(k - 1) * step
            }
            repairedRuns += 1
            for i in 0..<k {
                var s = held[i]
                let t = start + Int64(i) * step
                if s.timestamp != t { repairedSamples += 1 }
                s.timestamp = t
                out.append(s)
            }
        } else {
            out.append(contentsOf: held)
        }
        lastOutput = out.last?.timestamp ?? lastOutput
    }
}
