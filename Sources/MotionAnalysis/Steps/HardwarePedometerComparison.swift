/// Our step count beside a hardware pedometer's (e.g. the IIO `in_steps_input` channel of a
/// BMA400), reported side by side with the difference instead of silently preferring either.
public struct HardwarePedometerComparison: Sendable, Equatable {
    /// Steps counted by ``StepCounter`` over the interval.
    public var ours: Int
    /// Steps counted by the sensor's own pedometer over the same interval.
    public var hardware: Int

    /// Creates a comparison from the two counts over the same interval.
    public init(ours: Int, hardware: Int) {
        self.ours = ours
        self.hardware = hardware
    }

    /// Creates a comparison from our count and two readings of a hardware step register taken at the
    /// start and end of the interval (the register counts since power-on). A register that went
    /// down (reset or wrapped) gives `nil`: the difference would be meaningless.
    public init?(ours: Int, hardwareStart: Int, hardwareEnd: Int) {
        guard hardwareEnd >= hardwareStart else { return nil }
        self.init(ours: ours, hardware: hardwareEnd - hardwareStart)
    }

    /// ours − hardware.
    public var difference: Int { ours - hardware }

    /// The difference relative to the hardware count, in percent (`nil` when the hardware counted 0).
    public var differencePercent: Double? {
        hardware == 0 ? nil : 100 * Double(difference) / Double(hardware)
    }

    /// A one-line report, e.g. `steps 1012 (hardware pedometer 1000, difference +12, +1.2%)`.
    public var summary: String {
        var s = "steps \(ours) (hardware pedometer \(hardware), difference \(difference >= 0 ? "+" : "")\(difference)"
        if let p = differencePercent {
            let r = (p * 10).rounded() / 10
            s += ", \(r >= 0 ? "+" : "")\(r)%"
        }
        return s + ")"
    }
}
