/// One queued sample: its hub time and raw counts.
public struct PendingSample: Equatable, Sendable {
    /// Hub time of the sample (ns).
    public var time: Int64
    /// Raw axis counts.
    public var raw: RawVector
}

/// The state of one sensor of the virtual hub: properties, playback cursor, FIFO and counters.
public struct EmulatedSensor: Sendable {
    /// Which sensor.
    public let kind: EmulatedSensorKind
    /// Current properties as the host set them.
    public internal(set) var features: SensorFeatures
    /// Counters for the summary.
    public internal(set) var counters = SensorCounters()
    /// Every property change, in order.
    public internal(set) var history: [PropertyChange] = []
    /// Whether the recording ran out (without loop).
    public internal(set) var exhausted = false
    /// Hub time of the next sample to take (valid while active).
    var nextSampleTime: Int64 = 0
    /// Recording time (ns since its first sample) of the next sample.
    var cursor: Int64 = 0
    /// Hub time of the next FIFO flush (latency > 0 and active).
    var nextFlush: Int64?
    /// Samples waiting for the next flush.
    var fifo: SampleFIFO<PendingSample>
    /// Whether samples are being produced.
    var active = false

    init(kind: EmulatedSensorKind, features: SensorFeatures, fifoCapacity: Int, overflow: OverflowPolicy) {
        self.kind = kind
        self.features = features
        self.fifo = SampleFIFO(capacity: fifoCapacity, policy: overflow)
    }

    /// Samples currently queued in the FIFO.
    public var queued: Int { fifo.count }
    /// Interval between samples in ns.
    var interval: Int64 { Int64(features.reportIntervalMs) * 1_000_000 }
    /// Latency in ns.
    var latency: Int64 { Int64(features.reportLatencyMs) * 1_000_000 }
}
