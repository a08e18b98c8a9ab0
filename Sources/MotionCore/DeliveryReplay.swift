/// A recorded stream delivered as a live device would deliver it: MotionCore's ``Batcher`` at one
/// ``DeliveryPolicy``, plus what the deliveries cost the application: how many there were, the
/// largest, and the delay between each sample and its delivery. A state machine over the samples:
/// no I/O, no clock (time comes from the sample timestamps).
public struct DeliveryReplay: Sendable {
    /// The policy replayed.
    public let policy: DeliveryPolicy
    private var batcher: Batcher
    /// Deliveries (wake-ups) so far.
    public private(set) var deliveries = 0
    /// Samples delivered so far.
    public private(set) var samples = 0
    /// Most samples in one delivery so far.
    public private(set) var largestDelivery = 0
    /// Largest delivery − timestamp so far (ns).
    public private(set) var worstDelayNs: Int64 = 0
    private var delaySumNs: Double = 0

    /// Creates a replay.
    /// - Precondition: the policy is valid for ``Batcher``.
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
        largestDelivery = max(largestDelivery, b.count)
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
