import MotionCore

/// Where samples wait between deliveries.
public enum Buffering: String, Hashable, Sendable, CaseIterable {
    /// The sensor's hardware FIFO holds samples and interrupts once per batch (`hwfifo_timeout`
    /// / watermark); the reader wakes on the first sample and drains what is there without blocking.
    case hardware
    /// The device interrupts per sample; the kernel buffer's watermark batches what userspace
    /// sees. The kernel still wakes the poll waiter on every pushed sample.
    case software
    /// The device interrupts per sample and the kernel buffer holds the samples; the reader does
    /// not wait on the buffer but sleeps on a timer until each batch is due, then drains it without
    /// blocking (MotionBatch's default reader for devices without a hardware FIFO): one scheduler
    /// wake-up per batch.
    case timed
}

/// One setting to cost: sampling rate, batching and where the batch waits.
public struct WakeConfiguration: Hashable, Sendable {
    /// Output data rate (Hz).
    public var rateHz: Double
    /// How samples are grouped: `.latency(0)` or `.samples(1)` is per-sample delivery.
    public var policy: DeliveryPolicy
    /// Hardware FIFO, software watermark, or timed draining of the kernel buffer.
    public var buffering: Buffering
    /// Enabled sensors (they set the bytes per scan in each chip's FIFO).
    public var sensors: SensorSet

    /// Creates a configuration.
    public init(rateHz: Double, policy: DeliveryPolicy, buffering: Buffering = .hardware, sensors: SensorSet = .accel) {
        self.rateHz = rateHz
        self.policy = policy
        self.buffering = buffering
        self.sensors = sensors
    }

    /// A latency configuration (`latencyS` 0 is per-sample).
    public init(rateHz: Double, latencyS: Double, buffering: Buffering = .hardware, sensors: SensorSet = .accel) {
        self.init(rateHz: rateHz, policy: .latency(seconds: latencyS), buffering: buffering, sensors: sensors)
    }

    /// The maximum report latency in seconds (for a count policy: the time to collect it).
    public var latencyS: Double {
        switch policy {
        case .latency(let ns): return Double(ns) / 1e9
        case .samples(let n): return Double(n) / rateHz
        }
    }

    /// Samples per batch on a steady stream: `n` for `.samples(n)`; for `.latency(L)` the samples
    /// with timestamps in [t0, t0 + L), i.e. ⌈rate × L⌉ (at least 1), as ``Batcher`` groups them.
    public var batchSamples: Int {
        switch policy {
        case .samples(let n): return max(1, n)
        case .latency(let ns):
            if ns <= 0 { return 1 }
            // Samples at k/rate for k = 0, 1, ... with k/rate < L: ⌈rate·L⌉, computed on integers
            // where rate·L is whole to avoid 100 × 0.1 = 10.000000000000002.
            let x = rateHz * Double(ns) / 1e9
            let r = x.rounded()
            if abs(x - r) < 1e-9 * max(1, x) { return max(1, Int(r)) }
            return max(1, Int(x.rounded(.up)))
        }
    }

    /// Whether every sample is delivered on its own.
    public var isPerSample: Bool { batchSamples == 1 }
}
