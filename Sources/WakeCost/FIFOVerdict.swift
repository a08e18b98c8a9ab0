/// Whether a chip's FIFO holds a configuration's batch, and what is lost if not.
public struct FIFOVerdict: Hashable, Sendable {
    /// The chip's name.
    public var chip: String
    /// Whole scans the FIFO holds with the configuration's sensors.
    public var capacitySamples: Int
    /// Bytes per scan (frame) with the configuration's sensors.
    public var bytesPerSample: Int
    /// Whether the FIFO is used at all: hardware buffering with a batch of more than one sample.
    public var isUsed: Bool
    /// Whether the FIFO holds everything that arrives within one latency period.
    public var fits: Bool
    /// Fraction of the FIFO one latency period fills: rate × latency / capacity (0 when unused).
    public var fillFraction: Double
    /// Seconds from an empty FIFO to full: capacity / rate (the longest latency that fits).
    public var fullAfterS: Double
    /// Seconds from an empty FIFO to full (capacity / rate); nil when it fits.
    public var overflowAfterS: Double? { fits ? nil : fullAfterS }
    /// Samples lost per hour: every latency period L brings rate × L samples, the FIFO keeps
    /// `capacity`, the rest are lost: max(0, rate − capacity / L) × 3600.
    public var lostSamplesPerHour: Double
    /// Whether the chip's FIFO size is an assumption.
    public var isAssumed: Bool
    /// Whether the chip's mainline Linux driver batches in the FIFO (see ``FIFOChip/linuxBatches``).
    public var linuxBatches: Bool

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
            chip: chip.name, capacitySamples: capacity, bytesPerSample: bps, isUsed: used, fits: fits,
            fillFraction: used ? arriving / Double(capacity) : 0,
            fullAfterS: Double(capacity) / configuration.rateHz,
            lostSamplesPerHour: fits ? 0 : max(0, configuration.rateHz - Double(capacity) / latency) * 3600,
            isAssumed: chip.isAssumed, linuxBatches: chip.linuxBatches)
    }

    /// Whether one latency period leaves at least `margin` (0 ≤ margin < 1) of the FIFO free:
    /// fill fraction ≤ 1 − margin. An unused FIFO always does.
    public func fits(margin: Double) -> Bool { !isUsed || fillFraction <= 1 - margin + 1e-12 }
}
