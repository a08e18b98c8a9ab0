import MotionCore

/// Replays a recorded stream through MotionCore's ``Batcher`` at one delivery policy and
/// measures what the model predicts: deliveries and the delay between each sample and its
/// delivery. A state machine over the samples: no I/O, no clock.
public struct DeliveryReplay: Sendable {
    /// The policy replayed.
    public let policy: DeliveryPolicy
    private var batcher: Batcher
    /// Deliveries so far.
    public private(set) var deliveries = 0
    /// Samples delivered so far.
    public private(set) var samples = 0
    /// Largest delivery − timestamp so far (ns).
    public private(set) var worstDelayNs: Int64 = 0
    private var delaySumNs: Double = 0

    /// Creates a replay.
    public init(policy: DeliveryPolicy) {
        self.policy = policy
        self.batcher = Batcher(policy: policy)
    }

    /// Feeds one sample; returns the batch its arrival completes, if any (already accounted).
    ///
    /// - Complexity: amortised O(1) per sample.
    public mutating func push(_ sample: Sample) -> SampleBatch? {
        guard let b = batcher.push(sample) else { return nil }
        account(b)
        return b
    }

    /// Ends the stream: returns the last partial batch, if any (already accounted).
    public mutating func finish() -> SampleBatch? {
        guard let b = batcher.finish() else { return nil }
        account(b)
        return b
    }

    private mutating func account(_ b: SampleBatch) {
        deliveries += 1
        for s in b.samples {
            let d = b.deliveredAt.saturatingSubtracting(s.timestamp)
            worstDelayNs = max(worstDelayNs, d)
            delaySumNs += Double(d)
            samples += 1
        }
    }

    /// Mean delay between a sample and its delivery (s); 0 before any delivery.
    public var meanDelayS: Double { samples == 0 ? 0 : delaySumNs / Double(samples) / 1e9 }
    /// Worst delay between a sample and its delivery (s).
    public var worstDelayS: Double { Double(worstDelayNs) / 1e9 }
}
