/// What one emulated sensor did, for the summary.
public struct SensorCounters: Equatable, Sendable, Codable {
    /// Samples taken from the recording (resampled at the requested interval).
    public var samplesGenerated = 0
    /// Samples sent to the kernel as input reports.
    public var samplesSent = 0
    /// Samples dropped because the FIFO was full (by the overflow policy).
    public var samplesDropped = 0
    /// Samples still queued when the sensor was switched off (discarded).
    public var samplesDiscarded = 0
    /// Deliveries: one per sample without latency, one per FIFO flush with latency.
    public var bursts = 0
    /// The largest number of samples delivered in one burst.
    public var maxBurst = 0
    /// GET_REPORT requests answered (feature and input).
    public var getReports = 0
    /// SET_REPORT requests answered.
    public var setReports = 0
    /// Times the recording restarted (with loop).
    public var loops = 0
    /// Hub time (ns) of each delivery, the first ``burstTimesLimit`` of them: lets a test count
    /// the deliveries made while a reader held the buffer (the hub keeps delivering after the
    /// reader released it, until the kernel powers the sensor down or the emulator stops).
    public var burstTimes: [Int64] = []
    /// How many delivery times are kept.
    public static let burstTimesLimit = 100_000

    /// Counts one delivery at hub time `time`.
    public mutating func noteBurst(at time: Int64) {
        bursts += 1
        if burstTimes.count < Self.burstTimesLimit { burstTimes.append(time) }
    }

    /// Creates zeroed counters.
    public init() {}
}

/// One change of a sensor property requested by the host.
public struct PropertyChange: Equatable, Sendable, Codable {
    /// Hub time of the request, ns (same clock as the events).
    public var time: Int64
    /// Property: `reporting_state`, `power_state`, `report_interval_ms` or `report_latency_ms`.
    public var property: String
    /// New raw value.
    public var value: UInt32
}
