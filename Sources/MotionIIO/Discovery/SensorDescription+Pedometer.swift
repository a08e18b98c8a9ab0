extension SensorDescription {
    /// The hardware step counter to cross-check a live step count against: among `sensors`, the
    /// devices whose `in_steps_input` was readable and whose `in_steps_en` is not 0, preferring one
    /// that is also captured (the same chip saw the same motion); nil when there is none.
    /// - Complexity: O(sensors × captured).
    public static func hardwarePedometer(in sensors: [SensorDescription], capturing captured: [SensorDescription]) -> SensorDescription? {
        let usable = sensors.filter { $0.stepCounter?.steps != nil && $0.stepCounter?.enabled != false }
        return usable.first { d in captured.contains { $0.id == d.id } } ?? usable.first
    }
}
