/// What a sensor running at a lower rate would have produced from a recorded stream: the first
/// sample in each 1/rate slot of time from the stream's first sample
/// (slot = ⌊(t − t₀) / 1 s · rate⌋). A state machine fed one sample at a time; no I/O, no clock.
/// For rates below the stream's own: at or above it, slot boundaries computed in floating point
/// can fall between samples and drop some, so such rates are replayed as the stream is.
public struct RateDecimator: Sendable {
    /// The rate produced, Hz.
    public let rateHz: Double
    private var origin: Int64?
    private var slot = Int64.min

    /// Creates a decimator.
    /// - Precondition: `rateHz` is finite and positive.
    public init(rateHz: Double) {
        precondition(rateHz.isFinite && rateHz > 0, "rate must be finite and > 0")
        self.rateHz = rateHz
    }

    /// Whether `sample` is kept: the first of its slot. Samples must come in time order.
    /// - Complexity: O(1).
    public mutating func keeps(_ sample: Sample) -> Bool {
        let t0 = origin ?? sample.timestamp
        origin = t0
        let k = Int64((Double(sample.timestamp - t0) / 1e9 * rateHz).rounded(.down))
        guard k != slot else { return false }
        slot = k
        return true
    }
}
