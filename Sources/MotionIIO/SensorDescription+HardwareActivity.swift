extension SensorDescription {
    /// The hardware activity recognition to report beside the classifier's: among `sensors`, the
    /// devices with a readable activity channel, preferring one that is also captured; nil when
    /// there is none.
    public static func hardwareActivity(in sensors: [SensorDescription], capturing captured: [SensorDescription]) -> SensorDescription? {
        let usable = sensors.filter { $0.activity?.channels.contains { $0.confidence != nil } == true }
        return usable.first { d in captured.contains { $0.id == d.id } } ?? usable.first
    }
}
