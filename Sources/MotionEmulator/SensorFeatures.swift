/// The feature (property) state of one emulated sensor, as raw report values.
///
/// Selectors are 1-based (value = selector index + 1), matching what the kernel writes:
/// reporting state 1 = no events, 2 = all events, 3 = threshold events, 4 = wake no events,
/// 5 = wake all events, 6 = wake threshold events; power state 1 = undefined, 2 = D0 full power,
/// 3 = D1 low power, 4 = D2 standby with wake, 5 = D3 sleep with wake, 6 = D4 power off;
/// sensor state 2 = ready.
public struct SensorFeatures: Equatable, Sendable, Codable {
    /// Reporting state selector value.
    public var reportingState: UInt8
    /// Power state selector value.
    public var powerState: UInt8
    /// Sensor state selector value (read-only for the host).
    public var sensorState: UInt8
    /// Report interval in milliseconds (the kernel writes 1000 / sampling_frequency).
    public var reportIntervalMs: UInt32
    /// Report latency in milliseconds (the kernel writes buffer/hwfifo_timeout × 1000).
    public var reportLatencyMs: UInt32

    /// Creates a feature state.
    public init(reportingState: UInt8, powerState: UInt8, sensorState: UInt8, reportIntervalMs: UInt32, reportLatencyMs: UInt32) {
        self.reportingState = reportingState
        self.powerState = powerState
        self.sensorState = sensorState
        self.reportIntervalMs = reportIntervalMs
        self.reportLatencyMs = reportLatencyMs
    }

    /// The state at creation: no events, powered off, ready, the given interval, no latency.
    public static func initial(reportIntervalMs: UInt32) -> SensorFeatures {
        SensorFeatures(reportingState: 1, powerState: 6, sensorState: 2, reportIntervalMs: reportIntervalMs, reportLatencyMs: 0)
    }

    /// Whether the host asked for events (all/threshold events, with or without wake).
    public var isReporting: Bool { [2, 3, 5, 6].contains(reportingState) }
    /// Whether the sensor is powered (D0 or D1).
    public var isPowered: Bool { powerState == 2 || powerState == 3 }
    /// Whether the sensor produces samples: powered and reporting.
    public var isActive: Bool { isReporting && isPowered }
}
