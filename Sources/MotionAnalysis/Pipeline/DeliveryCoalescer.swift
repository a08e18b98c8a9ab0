import MotionCore

/// Joins small deliveries into larger ones before they reach an ``AnalysisPipeline``, so that a
/// source delivering one sample at a time (a capture at `--batch 1`) does not pay the pipeline's
/// per-delivery cost (every analyzer called, outputs boxed and handed on) for every sample.
///
/// The pipeline's results never depend on how a stream is split into deliveries (tested for every
/// analyzer by `BatchInvarianceTests`), so joining deliveries changes no result; it only delays
/// what the analyzers decide by at most ``maxSamples`` samples or ``maxDelayNanoseconds`` of
/// delivery time. Use it only where nothing reads the analysis between deliveries (the capture
/// reports its live analysis when it ends); a replay measuring when events become visible must feed
/// the pipeline directly.
///
/// A pure value: the instants are the deliveries' own (``MotionCore/SampleBatch/deliveredAt``),
/// never a clock.
///
/// ```swift
/// var coalescer = DeliveryCoalescer()
/// if let joined = coalescer.add(batch) { try pipeline.consume(joined) }   // for every delivery
/// if let rest = coalescer.flush() { try pipeline.consume(rest) }          // at the end
/// ```
public struct DeliveryCoalescer: Sendable {
    /// A joined delivery is handed on once it holds this many samples.
    public let maxSamples: Int
    /// ... or once this much delivery time has passed since its first part was delivered (ns).
    public let maxDelayNanoseconds: Int64
    /// Samples held, oldest first.
    private var pending: [Sample] = []
    /// The array the last joined delivery was handed on in: taken back for the next one (its
    /// storage reused, no allocation, once the pipeline let go of that delivery).
    private var spare: [Sample] = []
    /// When the first and the last held parts were delivered.
    private var firstDeliveredAt: Int64 = 0
    private var lastDeliveredAt: Int64 = 0

    /// Creates a coalescer.
    /// - Parameters:
    ///   - maxSamples: samples per joined delivery at most (>= 1; 1 hands every delivery on as it is).
    ///   - maxDelayNanoseconds: delivery time a sample may be held at most (>= 0).
    public init(maxSamples: Int = 32, maxDelayNanoseconds: Int64 = 250_000_000) {
        precondition(maxSamples >= 1 && maxDelayNanoseconds >= 0, "maxSamples >= 1, maxDelayNanoseconds >= 0")
        self.maxSamples = maxSamples
        self.maxDelayNanoseconds = maxDelayNanoseconds
    }

    /// Samples held and not yet handed on.
    public var heldSamples: Int { pending.count }

    /// Takes one delivery.
    /// - Returns: the delivery to analyse now (the held samples followed by `batch`'s, delivered at
    ///   `batch.deliveredAt`), or nil while the joined delivery is still small and recent. A
    ///   delivery that is large enough by itself, with nothing held, is returned as it is.
    public mutating func add(_ batch: SampleBatch) -> SampleBatch? {
        if pending.isEmpty {
            if batch.samples.isEmpty { return nil }
            if batch.count >= maxSamples { return batch }
            firstDeliveredAt = batch.deliveredAt
            if pending.capacity < maxSamples { pending.reserveCapacity(maxSamples) }
        }
        pending.append(contentsOf: batch.samples)
        lastDeliveredAt = batch.deliveredAt
        // An overflowing span (instants far apart on a strange clock) counts as expired.
        let (held, overflow) = batch.deliveredAt.subtractingReportingOverflow(firstDeliveredAt)
        guard pending.count >= maxSamples || overflow || held >= maxDelayNanoseconds else { return nil }
        return take(deliveredAt: batch.deliveredAt)
    }

    /// Hands on what is held (at the end of the stream), delivered at the last part's instant.
    /// - Returns: nil when nothing is held.
    public mutating func flush() -> SampleBatch? {
        pending.isEmpty ? nil : take(deliveredAt: lastDeliveredAt)
    }

    private mutating func take(deliveredAt: Int64) -> SampleBatch {
        let joined = SampleBatch(samples: pending, deliveredAt: deliveredAt)
        swap(&pending, &spare)
        pending.removeAll(keepingCapacity: true)
        return joined
    }
}
