/// The power and CPU-time figures of one board, every one explicit. The sources of the built-in
/// values are listed in docs/wake-cost.md; estimates are marked there.
///
/// Times are CPU-active seconds per event; powers are watts at the board's supply input.
public struct BoardProfile: Hashable, Sendable {
    /// Short name (`rpi-4b`), used in reports.
    public var name: String
    /// Human-readable description.
    public var description: String
    /// Board power with the CPU idle (W).
    public var idlePowerW: Double
    /// Board power with one CPU core busy handling our work (W).
    public var activePowerW: Double
    /// CPU time out of idle per device delivery: the interrupt, its handler and the idle-state
    /// exit and re-entry (s).
    public var deviceDeliveryS: Double
    /// CPU time of a scheduler wake-up of the reading task that does *not* return to userspace
    /// (the task is woken, finds the watermark not reached and sleeps again) (s).
    public var schedulerWakeupS: Double
    /// CPU time of a wake-up that returns from poll/read into our code and back: the context
    /// switch, the system-call return and the read loop's fixed cost (s).
    public var userspaceReturnS: Double
    /// CPU time to transfer, convert and analyse one sample (s).
    public var perSampleS: Double
    /// Battery capacity (mAh).
    public var batteryMAh: Double
    /// Battery nominal voltage (V).
    public var batteryV: Double
    /// Fraction of the battery's energy that reaches the board (DC-DC conversion), in (0, 1].
    public var converterEfficiency: Double

    /// Creates a profile. Call ``validate(file:)`` before using values from outside.
    public init(name: String, description: String = "", idlePowerW: Double, activePowerW: Double,
                deviceDeliveryS: Double, schedulerWakeupS: Double, userspaceReturnS: Double,
                perSampleS: Double, batteryMAh: Double, batteryV: Double, converterEfficiency: Double = 1) {
        self.name = name
        self.description = description
        self.idlePowerW = idlePowerW
        self.activePowerW = activePowerW
        self.deviceDeliveryS = deviceDeliveryS
        self.schedulerWakeupS = schedulerWakeupS
        self.userspaceReturnS = userspaceReturnS
        self.perSampleS = perSampleS
        self.batteryMAh = batteryMAh
        self.batteryV = batteryV
        self.converterEfficiency = converterEfficiency
    }

    /// Extra power while a core is busy (W).
    public var activeIncrementW: Double { activePowerW - idlePowerW }

    /// Energy above idle of one full wake-up from idle that returns to userspace (J):
    /// (active − idle) × (device delivery + userspace return).
    public var wakeupEnergyJ: Double { activeIncrementW * (deviceDeliveryS + userspaceReturnS) }

    /// Usable battery energy at the board (Wh).
    public var batteryWh: Double { batteryMAh / 1000 * batteryV * converterEfficiency }

    /// The numeric parameters with their JSON keys, in documentation order.
    public var parameters: [(key: String, value: Double)] {
        [
            ("idle_power_w", idlePowerW), ("active_power_w", activePowerW),
            ("device_delivery_s", deviceDeliveryS), ("scheduler_wakeup_s", schedulerWakeupS),
            ("userspace_return_s", userspaceReturnS), ("per_sample_s", perSampleS),
            ("battery_mah", batteryMAh), ("battery_v", batteryV),
            ("converter_efficiency", converterEfficiency),
        ]
    }

    /// Checks that every value is possible: within its rule (``rules``: finite, positive powers,
    /// battery capacity and voltage, times not negative and at most 1 s per event, efficiency in
    /// 0.01...1), and active power not below idle.
    /// - Throws: ``WakeCostError`` naming `file` and the first bad key.
    public func validate(file: String) throws(WakeCostError) {
        for (key, v) in parameters {
            let rule = Self.rule(for: key)
            guard rule.contains(v) else { throw WakeCostError(file: file, key: key, problem: rule.problem(v.compactText)) }
        }
        guard activePowerW >= idlePowerW else {
            throw WakeCostError(file: file, key: "active_power_w", problem: "must not be below idle_power_w (\(idlePowerW.compactText)), got \(activePowerW.compactText)")
        }
    }
}
