/// How a capture is configured for one device, derived from its description and the request.
/// Pure: no I/O, so every rule is unit-tested.
///
/// - Rate: the requested rate snapped to the nearest available one (ties go up); without a
///   list the requested rate is written and the actual rate read back by the reader.
/// - Batch size `N`: `latency x rate` (rounded, >= 1) or the requested sample count.
/// - Hardware FIFO with a report latency (`buffer/hwfifo_timeout`, e.g. hid-sensor): latency
///   `N / rate`; wait strategy ``WaitStrategy/pollDrain`` with kernel watermark 1 — measured:
///   a large watermark with bursty delivery wakes the waiter for every sample of the burst.
/// - Hardware FIFO driven by the buffer watermark (`hwfifo_watermark_max`, e.g. st_lsm6dsx):
///   watermark `min(N, max)`, ``WaitStrategy/pollWatermark``.
/// - No hardware FIFO: watermark `N` cuts userspace returns (not scheduler wake-ups).
/// - Kernel buffer: at least 4 batches and 2 s of samples so nothing is dropped while a batch is processed.
/// - Context timeout: twice the batch latency plus 1 s (libiio's 1 s default fails longer batches).
public struct CapturePlan: Hashable, Sendable {
    /// How the reader waits for data.
    public enum WaitStrategy: String, Hashable, Sendable {
        /// Non-blocking buffer, poll the buffer fd with kernel watermark 1, drain until `EAGAIN`.
        case pollDrain = "poll-drain"
        /// Non-blocking buffer, poll the buffer fd with kernel watermark N, drain until `EAGAIN`.
        case pollWatermark = "poll-watermark"
        /// Blocking refills of N scans (backends without a poll fd, e.g. `ip:`).
        case blockingRefill = "blocking-refill"
    }

    /// The batching asked for.
    public enum Batching: Hashable, Sendable {
        /// Deliver at most this many seconds after the oldest sample.
        case latency(seconds: Double)
        /// Deliver every N samples.
        case samples(Int)
        /// Per-sample delivery.
        case none
    }

    /// Requested rate, Hz (nil: keep the device's).
    public var requestedRate: Double?
    /// Rate to write, Hz (nil when neither requested nor readable).
    public var rate: Double?
    /// Samples per batch.
    public var batchSamples: Int
    /// Batch latency, seconds (`batchSamples / rate`), 0 when the rate is unknown.
    public var latencySeconds: Double
    /// `buffer/hwfifo_timeout` to write, seconds, when the device has it.
    public var hwfifoTimeout: Double?
    /// Wait strategy.
    public var waitStrategy: WaitStrategy
    /// Scans per refill (libiio buffer size; also the watermark libiio writes).
    public var bufferCapacity: Int
    /// The kernel watermark after configuration.
    public var kernelWatermark: Int
    /// `iio_device_set_kernel_buffers_count` value; kernel buffer length = capacity x count.
    public var kernelBuffersCount: Int
    /// `iio_context_set_timeout` value, ms.
    public var contextTimeoutMs: UInt32
    /// Samples expected per hardware-FIFO burst (for timestamp repair), nil without FIFO.
    public var expectedBurst: Int?

    /// Kernel buffer length in scans.
    public var kernelBufferScans: Int { bufferCapacity * kernelBuffersCount }

    /// The nearest value of `available` to `requested` (ties go to the higher rate); `requested` when the list is empty.
    public static func nearestRate(_ requested: Double, available: [Double]) -> Double {
        guard var best = available.first else { return requested }
        for r in available where abs(r - requested) < abs(best - requested) || (abs(r - requested) == abs(best - requested) && r > best) {
            best = r
        }
        return best
    }

    /// Plans a capture.
    /// - Parameters:
    ///   - sensor: the device's description.
    ///   - rate: requested rate, Hz, or nil to keep the current one.
    ///   - batching: latency or count.
    ///   - hasPollDescriptor: whether the backend has a buffer poll fd (local backend).
    /// - Throws: ``CapturePlanError`` when the rate is unknown and latency batching is asked.
    ///   - hardwareFIFO: use the hardware FIFO when the device has one (false: switch it off and
    ///     batch with the kernel watermark only, e.g. to measure what the FIFO saves).
    public static func make(for sensor: SensorDescription, rate requested: Double?, batching: Batching, hasPollDescriptor: Bool,
                            hardwareFIFO: Bool = true) throws(CapturePlanError) -> CapturePlan {
        if let r = requested, !(r.isFinite && r > 0) { throw .invalidRate(r) }
        let rate: Double? = requested.map { nearestRate($0, available: sensor.availableFrequencies) } ?? sensor.samplingFrequency
        let n: Int
        switch batching {
        case .none: n = 1
        case .samples(let k):
            guard k >= 1 else { throw .invalidBatch(k) }
            n = k
        case .latency(let s):
            guard s.isFinite, s >= 0 else { throw .invalidLatency(s) }
            guard let r = rate else { throw .unknownRate(device: sensor.name) }
            n = max(1, Int((s * r).rounded()))
        }
        let latency = rate.map { Double(n) / $0 } ?? 0
        var strategy: WaitStrategy
        var watermark = n
        var hwfifo: Double?
        var burst: Int?
        if !hasPollDescriptor {
            strategy = .blockingRefill
        } else if sensor.fifo.hasTimeout, !hardwareFIFO {
            hwfifo = 0
            strategy = .pollWatermark
        } else if sensor.fifo.hasTimeout {
            hwfifo = n > 1 ? latency : 0
            strategy = .pollDrain
            watermark = 1
            burst = n > 1 ? n : nil
        } else if hardwareFIFO, let max = sensor.fifo.watermarkMax, max > 1 {
            watermark = min(n, max)
            strategy = .pollWatermark
            burst = watermark > 1 ? watermark : nil
        } else {
            strategy = .pollWatermark
        }
        let twoSeconds = Int(((rate ?? 100) * 2).rounded(.up))
        let wanted = Swift.max(4 * n, twoSeconds)
        let count = Swift.max(4, (wanted + n - 1) / n)
        let timeout = UInt32(Swift.min(Double(UInt32.max / 2), (2 * latency + 1) * 1000).rounded(.up))
        return CapturePlan(
            requestedRate: requested, rate: rate, batchSamples: n, latencySeconds: latency,
            hwfifoTimeout: hwfifo, waitStrategy: strategy, bufferCapacity: n, kernelWatermark: watermark,
            kernelBuffersCount: count, contextTimeoutMs: Swift.max(2000, timeout), expectedBurst: burst)
    }
}

/// A capture request that cannot be planned.
public enum CapturePlanError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rate is not a positive number.
    case invalidRate(Double)
    /// The batch size is below 1.
    case invalidBatch(Int)
    /// The latency is negative or not finite.
    case invalidLatency(Double)
    /// Latency batching needs a rate, and the device's is unknown.
    case unknownRate(device: String)

    /// What is wrong.
    public var description: String {
        switch self {
        case .invalidRate(let r): "invalid rate \(r) Hz: expected a positive number"
        case .invalidBatch(let n): "invalid batch size \(n): expected >= 1"
        case .invalidLatency(let s): "invalid latency \(s) s: expected >= 0"
        case .unknownRate(let d): "the sampling rate of \(d) is unknown: pass --rate HZ"
        }
    }
}
