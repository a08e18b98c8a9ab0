/// A capture's measured figures beside the model's prediction for the same configuration and
/// number of samples, with the differences.
public struct MeasuredComparison: Hashable, Sendable {
    /// One compared quantity.
    public struct Row: Hashable, Sendable {
        /// Name with unit (`userspace_returns`).
        public var quantity: String
        /// Measured value (nil when the capture did not measure it).
        public var measured: Double?
        /// Model prediction.
        public var predicted: Double
        /// measured − predicted.
        public var difference: Double? { measured.map { $0 - predicted } }
        /// (measured − predicted) / predicted × 100, nil when predicted is 0 or nothing measured.
        public var differencePercent: Double? {
            guard let m = measured, predicted != 0 else { return nil }
            return (m - predicted) / predicted * 100
        }
    }

    /// The configuration the capture was taken at.
    public var configuration: WakeConfiguration
    /// The rows: device deliveries, scheduler wake-ups, userspace returns, process CPU seconds.
    public var rows: [Row]

    /// Compares `capture` with the model for `configuration` on `board`, over the capture's samples.
    public static func compare(_ capture: CaptureStats, configuration: WakeConfiguration, board: BoardProfile) -> MeasuredComparison {
        let counts = WakeCounts.predicted(samples: capture.samples, configuration: configuration)
        return MeasuredComparison(configuration: configuration, rows: [
            Row(quantity: "device_deliveries", measured: capture.deviceDeliveries.map(Double.init), predicted: Double(counts.deviceDeliveries)),
            Row(quantity: "scheduler_wakeups", measured: Double(capture.voluntaryContextSwitches), predicted: Double(counts.schedulerWakeups)),
            Row(quantity: "userspace_returns", measured: Double(capture.userspaceReturns), predicted: Double(counts.userspaceReturns)),
            Row(quantity: "cpu_time_s", measured: capture.cpuTimeS, predicted: counts.processCPUSeconds(on: board)),
        ])
    }
}
