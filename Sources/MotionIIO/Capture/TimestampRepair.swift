import MotionCore

/// Repairs the timestamps of hardware-FIFO bursts stamped on arrival. When a sensor hub hands
/// over a burst, drivers that stamp on arrival give all its samples nearly the same time. This
/// state machine groups samples into runs (arrivals closer than ``joinGap``), and spreads a
/// bunched run (mean spacing under a quarter period) by the sampling period, anchored at the
/// run's last stamp (the burst's end, the best-known instant): `t[i] = t_end - (k-1-i) x period`.
/// Runs spaced by about the period (per-sample delivery, or hub timestamps) pass through unchanged.
///
/// Measured on the emulated hub: the reader, woken by a burst's first sample, can preempt the
/// hub for several milliseconds, so one burst may arrive as 1 sample, a pause of ~8 ms, then the
/// rest. With a FIFO (`expectedBurst` > 1) runs therefore join across pauses up to a quarter of
/// the batch latency; without one, only across a quarter period.
///
/// A burst may also be drained in several pieces, so the run at the end of a drain is held back
/// until it is closed: at the end of a drain when it is not bunched or holds at least
/// ``expectedBurst`` samples, when a later sample arrives after ``joinGap``, or at ``finish()``.
/// Output stays strictly increasing: a repaired run that would start at or before the previous
/// output is compressed evenly between it and the anchor (counted in ``compressedRuns``).
/// No I/O, no clock.
public struct TimestampRepair: Sendable {
    /// Nominal sampling period, ns.
    public let period: Int64
    /// Samples in a full FIFO burst (rate x latency), or nil when unknown; a drain that leaves
    /// a held run of at least this size releases it.
    public let expectedBurst: Int?
    /// Arrivals closer than this (ns) belong to the same run.
    public let joinGap: Int64
    /// Runs whose stamps were respread.
    public private(set) var repairedRuns = 0
    /// Samples whose stamps were changed.
    public private(set) var repairedSamples = 0
    /// Runs that had to be compressed to keep time increasing.
    public private(set) var compressedRuns = 0

    private var held: [Sample] = []
    private var lastOutput: Int64?
    /// The array the last ``push(_:)`` returned, reused by the next one (no allocation per drain
    /// once the capture has delivered those samples and let go of them).
    private var output: [Sample] = []

    /// Creates a repairer for the nominal `period` (ns, > 0).
    public init(period: Int64, expectedBurst: Int? = nil) {
        precondition(period > 0, "period must be > 0")
        self.period = period
        self.expectedBurst = expectedBurst
        if let n = expectedBurst, n > 1 {
            joinGap = max(period / 4, Int64(n) * period / 4)
        } else {
            joinGap = period / 4
        }
    }

    private var bunchLimit: Int64 { period / 4 }

    /// Whether the held run is a bunch: at least 2 samples with mean spacing under a quarter period.
    private var heldIsBunched: Bool {
        guard held.count >= 2 else { return false }
        return held[held.count - 1].timestamp - held[0].timestamp < Int64(held.count - 1) * bunchLimit
    }

    /// Feeds the samples of one drain (in arrival order); returns the samples whose timestamps
    /// are final, in order.
    /// - Complexity: O(n) amortised.
    public mutating func push(_ samples: [Sample]) -> [Sample] {
        // Per-sample delivery (no burst expected, nothing held, one sample): the sample is its
        // own run and passes through unchanged; no array is built (the batch-1 hot path).
        if held.isEmpty, samples.count == 1, (expectedBurst ?? 0) <= 1 {
            lastOutput = samples[0].timestamp
            return samples
        }
        var out: [Sample] = []
        swap(&out, &output)
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(samples.count + held.count)
        for s in samples {
            if let last = held.last, s.timestamp - last.timestamp >= joinGap {
                release(into: &out)
            }
            held.append(s)
        }
        if let n = expectedBurst, n > 1, held.count < n, mayBeBurstInProgress {} else {
            release(into: &out)
        }
        output = out
        return out
    }

    /// Whether the held run could be a burst still arriving: bunched, or a lone sample that
    /// follows a pause longer than a period and a half (samples spaced by the period, as with
    /// hub timestamps, are never held).
    private var mayBeBurstInProgress: Bool {
        guard let first = held.first else { return false }
        if held.count >= 2 { return heldIsBunched }
        guard let prev = lastOutput else { return true }
        return first.timestamp - prev > period + period / 2
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
        if heldIsBunched {
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
