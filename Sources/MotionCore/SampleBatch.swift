/// The samples delivered to the CPU by one wake-up: a contiguous, time-ordered run of scans.
///
/// A batch is what a hardware FIFO (or a replay) hands over at once. Analysis code
/// consumes batches and must produce the same results whatever the batch size.
public struct SampleBatch: Sendable, Equatable {
    /// The scans, oldest first.
    public var samples: [Sample]
    /// When the batch was delivered, in nanoseconds on the samples' clock.
    /// For a replay this is the modelled delivery instant (see ``Batcher``).
    public var deliveredAt: Int64

    /// Creates a batch.
    public init(samples: [Sample], deliveredAt: Int64) {
        self.samples = samples
        self.deliveredAt = deliveredAt
    }

    /// Number of scans in the batch.
    @inlinable
    public var count: Int { samples.count }
}
