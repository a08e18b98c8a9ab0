/// A real capture scaled to one hour, to draw beside the model's curves: what was counted, at
/// the configuration the capture ran.
public struct MeasuredPoint: Hashable, Sendable {
    /// Where the figures come from (the capture file's name).
    public var label: String
    /// The configuration the capture ran at.
    public var configuration: WakeConfiguration
    /// Voluntary context switches of the reader, per hour.
    public var schedulerWakeupsPerHour: Double
    /// Returns to userspace, per hour.
    public var userspaceReturnsPerHour: Double
    /// Device deliveries per hour, when the capture knew them.
    public var deviceDeliveriesPerHour: Double?
    /// The reader's CPU seconds per hour.
    public var processCPUSPerHour: Double

    /// Scales `capture` (over its `duration_s`) to one hour at `configuration`.
    public init(label: String, capture: CaptureStats, configuration: WakeConfiguration) {
        let perHour = 3600 / capture.durationS
        self.label = label
        self.configuration = configuration
        self.schedulerWakeupsPerHour = Double(capture.voluntaryContextSwitches) * perHour
        self.userspaceReturnsPerHour = Double(capture.userspaceReturns) * perHour
        self.deviceDeliveriesPerHour = capture.deviceDeliveries.map { Double($0) * perHour }
        self.processCPUSPerHour = capture.cpuTimeS * perHour
    }
}
