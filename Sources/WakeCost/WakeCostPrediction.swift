import MotionCore

/// What one configuration costs on one board, per hour of steady sampling.
public struct WakeCostPrediction: Hashable, Sendable {
    /// The configuration costed.
    public var configuration: WakeConfiguration
    /// The board's name.
    public var board: String
    /// Wake-up counts for one hour.
    public var perHour: WakeCounts
    /// CPU-active seconds per hour (all levels, including interrupt time).
    public var cpuActiveSPerHour: Double
    /// Energy above idle per hour (J).
    public var energyJPerHour: Double
    /// Average board power (W): idle + energy above idle / 3600.
    public var averagePowerW: Double
    /// Battery used per hour (%).
    public var batteryPercentPerHour: Double
    /// Hours from full to empty.
    public var batteryLifeH: Double
    /// Worst time from a sample's arrival to its processing (s): the batching wait plus the
    /// wake-up and processing of a full batch.
    public var worstLatencyS: Double
    /// FIFO verdict for each chip.
    public var fifo: [FIFOVerdict]
}

/// The wake-cost model: pure functions from a board, configurations and chips to predictions.
/// No I/O, no clock.
public enum WakeCostModel {
    /// Predicts one hour of `configuration` on `board`, with FIFO verdicts for `chips`.
    ///
    /// Samples per hour N = round(rate × 3600); counts from ``WakeCounts/predicted(samples:configuration:)``;
    /// energy above idle = CPU-active s × (active − idle power).
    ///
    /// - Precondition: a finite rate above zero (callers validate user input first).
    /// - Complexity: O(chips).
    public static func predict(_ configuration: WakeConfiguration, board: BoardProfile, chips: [FIFOChip] = FIFOChip.builtIn) -> WakeCostPrediction {
        precondition(configuration.rateHz.isFinite && configuration.rateHz > 0, "rate must be finite and > 0")
        let n = Int((configuration.rateHz * 3600).rounded())
        let counts = WakeCounts.predicted(samples: n, configuration: configuration)
        let cpu = counts.cpuActiveSeconds(on: board)
        let energy = cpu * board.activeIncrementW
        let power = board.idlePowerW + energy / 3600
        let life = board.batteryWh / power
        let b = configuration.batchSamples
        let wait: Double
        if b == 1 {
            wait = 0
        } else {
            switch (configuration.buffering, configuration.policy) {
            case (.hardware, .latency): wait = configuration.latencyS
            // The timed reader wakes half a period after the batch's last sample, rounded up to
            // poll's millisecond (see MotionIIO's BatchDueClock).
            case (.timed, _): wait = (Double(b) - 0.5) / configuration.rateHz + 0.001
            default: wait = Double(b - 1) / configuration.rateHz
            }
        }
        let handling = board.deviceDeliveryS + board.userspaceReturnS + Double(b) * board.perSampleS
        return WakeCostPrediction(
            configuration: configuration, board: board.name, perHour: counts,
            cpuActiveSPerHour: cpu, energyJPerHour: energy, averagePowerW: power,
            batteryPercentPerHour: 100 / life, batteryLifeH: life,
            worstLatencyS: wait + handling,
            fifo: chips.map { FIFOVerdict.evaluate($0, configuration) })
    }

    /// Predictions for every rate × latency pair, rates outer, latencies inner.
    public static func sweep(rates: [Double], latencies: [Double], buffering: Buffering, sensors: SensorSet,
                             board: BoardProfile, chips: [FIFOChip] = FIFOChip.builtIn) -> [WakeCostPrediction] {
        rates.flatMap { r in
            latencies.map { l in
                predict(WakeConfiguration(rateHz: r, latencyS: l, buffering: buffering, sensors: sensors), board: board, chips: chips)
            }
        }
    }
}
