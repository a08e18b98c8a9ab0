/// What a measured stretch of capture costs a board's battery: the reading process's CPU time and
/// the device deliveries it was woken for, per hour, priced with the board's profile (the same
/// model as ``WakeCostModel``, fed measured counts instead of predicted ones).
///
/// CPU-active seconds per hour = (process CPU s + deliveries × ``BoardProfile/deviceDeliveryS``)
/// scaled to one hour; energy above idle = that × (active − idle power); average power = idle +
/// energy / 3600; battery life = usable battery energy / average power.
public struct BatteryEstimate: Hashable, Sendable {
    /// The board's name.
    public var board: String
    /// CPU-active seconds per hour (process CPU time plus the interrupts' time).
    public var cpuActiveSPerHour: Double
    /// Energy above idle per hour (J).
    public var energyJPerHour: Double
    /// Average board power (W).
    public var averagePowerW: Double
    /// Hours from full to empty at that power.
    public var batteryLifeH: Double

    /// The estimate for `processCPUSeconds` and `deviceDeliveries` measured over `durationSeconds`
    /// on `board`; nil for a duration that is not positive or figures that are not finite.
    public static func measured(on board: BoardProfile, processCPUSeconds: Double, deviceDeliveries: Int,
                                durationSeconds: Double) -> BatteryEstimate? {
        guard durationSeconds.isFinite, durationSeconds > 0, processCPUSeconds.isFinite, processCPUSeconds >= 0, deviceDeliveries >= 0 else { return nil }
        let perHour = 3600 / durationSeconds
        let cpu = (processCPUSeconds + Double(deviceDeliveries) * board.deviceDeliveryS) * perHour
        let energy = cpu * board.activeIncrementW
        let power = board.idlePowerW + energy / 3600
        return BatteryEstimate(board: board.name, cpuActiveSPerHour: cpu, energyJPerHour: energy, averagePowerW: power,
                               batteryLifeH: board.batteryWh / power)
    }
}
