/// Groups a time-ordered stream of samples into deliveries according to a ``DeliveryPolicy``,
/// as a sensor FIFO would. A state machine: it does no I/O and reads no clock; time comes
/// from the samples' timestamps.
///
/// With `.latency(L)`, a batch opens at its first sample `t0` and is delivered at `t0 + L`:
/// every sample with timestamp `< t0 + L` belongs to it. With `.samples(N)` a batch is
/// delivered when it holds `N` samples, at the last sample's timestamp.
/// Call ``finish()`` at the end of the stream to flush what is pending. Timestamps within
/// ±``InputLimits/timestampLimit`` (``ReplaySession`` and the reader refuse others) keep every
/// time difference in range; time arithmetic also saturates at the limits of `Int64`, so that no
/// timestamp or latency traps (a delivery time beyond `Int64.max` is `Int64.max`).
public struct Batcher: Sendable {
    /// The grouping rule.
    public let policy: DeliveryPolicy
    private var pending: [Sample] = []
    private var openedAt: Int64 = 0

    /// Creates a batcher.
    /// - Precondition: a `.samples` count of at least 1 and a non-negative latency.
    public init(policy: DeliveryPolicy) {
        switch policy {
        case .samples(let n): precondition(n >= 1, "batch size must be >= 1")
        case .latency(let ns): precondition(ns >= 0, "latency must be >= 0")
        }
        self.policy = policy
    }

    /// Feeds one sample; returns the batch that its arrival completes, if any.
    ///
    /// - Complexity: amortised O(1).
    public mutating func push(_ sample: Sample) -> SampleBatch? {
        switch policy {
        case .samples(let n):
            pending.append(sample)
            if pending.count >= n { return take(deliveredAt: sample.timestamp) }
            return nil
        case .latency(let ns):
            var out: SampleBatch?
            if !pending.isEmpty, sample.timestamp >= openedAt.saturatingAdding(ns) {
                out = take(deliveredAt: openedAt.saturatingAdding(ns))
            }
            if pending.isEmpty { openedAt = sample.timestamp }
            pending.append(sample)
            if ns == 0 { out = out ?? take(deliveredAt: sample.timestamp) }
            return out
        }
    }

    /// Feeds many samples, appending every completed batch to `batches`.
    public mutating func push<S: Sequence>(contentsOf samples: S, into batches: inout [SampleBatch]) where S.Element == Sample {
        for s in samples {
            if let b = push(s) { batches.append(b) }
        }
    }

    /// Ends the stream: returns the last, partial batch if samples are pending.
    /// A latency batch is delivered at the time its latency expires; a count batch at its last sample.
    public mutating func finish() -> SampleBatch? {
        guard let last = pending.last else { return nil }
        switch policy {
        case .samples: return take(deliveredAt: last.timestamp)
        case .latency(let ns): return take(deliveredAt: openedAt.saturatingAdding(ns))
        }
    }

    private mutating func take(deliveredAt: Int64) -> SampleBatch {
        let batch = SampleBatch(samples: pending, deliveredAt: deliveredAt)
        pending.removeAll(keepingCapacity: true)
        return batch
    }
}
