/// How samples are grouped into deliveries (CPU wake-ups), as in Android's sensor batching:
/// either a fixed number of samples (a FIFO watermark) or a maximum report latency.
public enum DeliveryPolicy: Hashable, Sendable {
    /// Deliver every `count` samples (watermark). `count` 1 is per-sample delivery.
    case samples(Int)
    /// Deliver when the oldest pending sample has waited `nanoseconds`
    /// (maximum report latency). Zero is per-sample delivery.
    case latency(nanoseconds: Int64)

    /// Per-sample delivery: one wake-up for every sample.
    public static let perSample = DeliveryPolicy.samples(1)

    /// A latency policy from seconds.
    /// - Precondition: `seconds` is finite and not negative.
    public static func latency(seconds: Double) -> DeliveryPolicy {
        precondition(seconds.isFinite && seconds >= 0, "latency must be finite and >= 0")
        return .latency(nanoseconds: Int64((seconds * 1e9).rounded()))
    }
}
