/// What a capture did and what it cost: samples, losses, wake-ups at the three levels
/// (device deliveries seen as drains with data, userspace returns from waiting, scheduler
/// wake-ups as voluntary context switches) and CPU time.
public struct CaptureStatistics: Sendable {
    /// Per-device configuration and counts.
    public struct Device: Sendable {
        /// Device id.
        public var id: String
        /// Device name.
        public var name: String
        /// The plan applied.
        public var plan: CapturePlan
        /// Rate read back after configuration, Hz.
        public var actualRate: Double?
        /// `buffer/hwfifo_timeout` read back, seconds.
        public var hwfifoTimeout: Double?
        /// `buffer/watermark` read back.
        public var watermark: Int?
        /// `current_timestamp_clock` after configuration.
        public var timestampClock: String?
        /// Whether samples carried a kernel timestamp (otherwise arrival time was used).
        public var hasTimestamp: Bool
        /// Samples decoded from this device.
        public var samples = 0
        /// Refills that returned data (device deliveries as seen by the reader).
        public var drainsWithData = 0
        /// Samples lost in timestamp gaps.
        public var lostSamples = 0
        /// Gaps found.
        public var gaps = 0
        /// Samples whose bunched timestamps were respread.
        public var repairedSamples = 0
        /// Times the scale was found changed and re-read.
        public var scaleChanges = 0
        /// Samples with an axis at the end of its raw range: clipped at the sensor's full scale.
        public var clippedSamples = 0
        /// Timed waiting: batches handed over when due with fewer than the batch's samples (the
        /// producer was late; its samples come with the next batch). See ``BatchDueClock``.
        public var shortBatches = 0
        /// The full scales applied by `--range` (``CaptureRange``), read back.
        public var ranges: [CaptureRange.Applied] = []
        /// The device's stable identity (name, parent device, label), as the capture found it.
        public var identity: DeviceIdentity?

        /// Adds the counts of `earlier` (the same device before a reconnection) to these.
        mutating func addCounts(of earlier: Device) {
            samples += earlier.samples
            drainsWithData += earlier.drainsWithData
            lostSamples += earlier.lostSamples
            gaps += earlier.gaps
            repairedSamples += earlier.repairedSamples
            scaleChanges += earlier.scaleChanges
            clippedSamples += earlier.clippedSamples
            shortBatches += earlier.shortBatches
        }
    }

    /// Devices captured.
    public var devices: [Device] = []
    /// Samples delivered (merged stream).
    public var samples = 0
    /// Batches delivered (one per userspace return that produced data).
    public var batches = 0
    /// Returns from waiting (poll or blocking refill): userspace wake-ups.
    public var userspaceReturns = 0
    /// Refill calls.
    public var refills = 0
    /// Whether the reader switched itself to `SCHED_BATCH` (hardware-FIFO batching).
    public var schedBatch = false
    /// Whether the reader slept until each batch was due instead of waiting on the buffer's
    /// poll fd (per-sample devices batched by the kernel watermark; see ``IIOCapture``).
    public var timedWait = false
    /// `sched_yield` calls made to let a producer finish a partly delivered FIFO burst.
    public var yields = 0
    /// FIFO bursts the reader went back to waiting on before they were complete (the producer
    /// paused mid-burst for longer than the yields gave it): each costs one more return.
    public var splitBursts = 0
    /// Returns caused by the outside rather than by a batch: signals, and device events of the
    /// kernel's uevent socket (any device's, not only the captured ones').
    public var eventWakes = 0
    /// Process counters over the streaming phase (after buffers were enabled).
    public var counters = ProcessCounters(voluntarySwitches: 0, involuntarySwitches: 0, userCPUNanoseconds: 0, systemCPUNanoseconds: 0)
    /// Streaming time, ns (monotonic).
    public var elapsedNanoseconds: Int64 = 0
    /// Monotonic time (ns) at which the stop was decided (the wake-up that saw the signal, the
    /// deadline, the removal, ...): with the time a signal was sent it gives the stop latency.
    public var stopDecidedAt: Int64?
    /// Why the capture stopped.
    public var stopReason: CaptureStopReason = .duration

    /// Samples clipped over all devices.
    public var clippedSamples: Int { devices.reduce(0) { $0 + $1.clippedSamples } }
    /// Samples lost over all devices.
    public var lostSamples: Int { devices.reduce(0) { $0 + $1.lostSamples } }
    /// CPU time (user + system), ns.
    public var cpuNanoseconds: Int64 { counters.userCPUNanoseconds + counters.systemCPUNanoseconds }

    /// Creates empty statistics.
    public init() {}
}
