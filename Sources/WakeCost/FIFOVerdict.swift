/// Whether a chip's FIFO holds a configuration's batch, and what is lost if not.
public struct FIFOVerdict: Hashable, Sendable {
    /// The chip's name.
    public var chip: String
    /// Whole scans the FIFO holds with the configuration's sensors.
    public var capacitySamples: Int
    /// Bytes per scan with the configuration's sensors.
    public var bytesPerSample: Int
    /// Whether the FIFO holds everything that arrives within one latency period.
    public var fits: Bool
    /// Seconds from an empty FIFO to full (capacity / rate); nil when it fits.
    public var overflowAfterS: Double?
    /// Samples lost per hour: every latency period L brings rate × L samples, the FIFO keeps
    /// `capacity`, the rest are lost: max(0, rate − capacity / L) × 3600.
    public var lostSamplesPerHour: Double
    /// Whether the chip's FIFO size is an assumption.
    public var isAssumed: Bool

    /// The verdict for `chip` at `configuration`. The FIFO is only used with hardware buffering
    /// and a latency above zero; otherwise it trivially fits.
    ///
    /// Overflow is predicted exactly when rate × latency × bytes-per-sample exceeds the FIFO's
    /// whole-scan bytes (capacity × bytes-per-sample).
    public static func evaluate(_ chip: FIFOChip, _ configuration: WakeConfiguration) -> FIFOVerdict {
        let bps = chip.bytesPerScan(configuration.sensors)
        let capacity = chip.capacity(configuration.sensors)
        let latency = configuration.latencyS
        let used = configuration.buffering == .hardware && !configuration.isPerSample && latency > 0
        let arriving = configuration.rateHz * latency
        let fits = !used || arriving * Double(bps) <= Double(capacity * bps)
        return FIFOVerdict(
            chip: chip.name, capacitySamples: capacity, bytesPerSample: bps, fits: fits,
            overflowAfterS: fits ? nil : Double(capacity) / configuration.rateHz,
            lostSamplesPerHour: fits ? 0 : max(0, configuration.rateHz - Double(capacity) / latency) * 3600,
            isAssumed: chip.isAssumed)
    }
}
