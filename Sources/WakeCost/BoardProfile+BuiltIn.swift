/// The built-in board profiles. Each figure is written as the arithmetic on its source values;
/// docs/wake-cost.md gives the source of every value and marks the estimates.
extension BoardProfile {
    /// Raspberry Pi boards are specified at a 5.1 V supply (Raspberry Pi documentation, "Power supply").
    static let piSupplyV = 5.1
    /// A 10 000 mAh, 3.7 V USB power bank (an assumed, common battery for a Pi).
    static let powerBankMAh = 10_000.0
    static let powerBankV = 3.7
    /// Boost conversion 3.7 V → 5 V: 85 % (estimate, see docs).
    static let powerBankEfficiency = 0.85

    /// Raspberry Pi Zero 2 W: 350 mA typical bare-board current (Raspberry Pi documentation);
    /// one busy core adds 137.5 mA (estimate from the Pi 3 B stress/idle figures, same SoC family).
    public static let rpiZero2W = BoardProfile(
        name: "rpi-zero-2w", description: "Raspberry Pi Zero 2 W (BCM2710A1, 4x Cortex-A53 1 GHz)",
        idlePowerW: 0.350 * piSupplyV, activePowerW: (0.350 + (0.85 - 0.30) / 4) * piSupplyV,
        deviceDeliveryS: 100e-6, schedulerWakeupS: 10e-6, userspaceReturnS: 60e-6, perSampleS: 4e-6,
        batteryMAh: powerBankMAh, batteryV: powerBankV, converterEfficiency: powerBankEfficiency)

    /// Raspberry Pi 4 B: idle 0.6 A, four-core stress 1.2 A (Raspberry Pi documentation's
    /// measured table); one busy core adds a quarter of the stress increment.
    public static let rpi4B = BoardProfile(
        name: "rpi-4b", description: "Raspberry Pi 4 Model B (BCM2711, 4x Cortex-A72 1.5 GHz)",
        idlePowerW: 0.6 * piSupplyV, activePowerW: (0.6 + (1.2 - 0.6) / 4) * piSupplyV,
        deviceDeliveryS: 50e-6, schedulerWakeupS: 5e-6, userspaceReturnS: 30e-6, perSampleS: 2e-6,
        batteryMAh: powerBankMAh, batteryV: powerBankV, converterEfficiency: powerBankEfficiency)

    /// Raspberry Pi 5: 800 mA typical bare-board current (Raspberry Pi documentation, quoted);
    /// one busy core adds 250 mA (estimate).
    public static let rpi5 = BoardProfile(
        name: "rpi-5", description: "Raspberry Pi 5 (BCM2712, 4x Cortex-A76 2.4 GHz)",
        idlePowerW: 0.8 * piSupplyV, activePowerW: (0.8 + 0.25) * piSupplyV,
        deviceDeliveryS: 30e-6, schedulerWakeupS: 3e-6, userspaceReturnS: 15e-6, perSampleS: 1e-6,
        batteryMAh: powerBankMAh, batteryV: powerBankV, converterEfficiency: powerBankEfficiency)

    /// BeagleBone Black: 280 mA kernel idling with display blank, 430 mA loading a web page
    /// (BeagleBone Black SRM, Table 4, mA at 5 V); device delivery = AM335x `mpu_gate` idle
    /// state entry 40 µs + exit 90 µs (am335x-boneblack device tree).
    public static let beagleBoneBlack = BoardProfile(
        name: "beaglebone-black", description: "BeagleBone Black (AM3358, 1x Cortex-A8 1 GHz)",
        idlePowerW: 0.280 * 5.0, activePowerW: 0.430 * 5.0,
        deviceDeliveryS: (40 + 90) * 1e-6, schedulerWakeupS: 10e-6, userspaceReturnS: 60e-6, perSampleS: 4e-6,
        batteryMAh: powerBankMAh, batteryV: powerBankV, converterEfficiency: powerBankEfficiency)

    /// A phone-class SoC (Google Pixel 2 "walleye" power_profile.xml): suspended 6.815 mA;
    /// awake with one little core busy adds cpu.idle 0.386 + cpu.active 17.757 +
    /// cluster0 6.478 mA + the core itself (10 mA, estimate); battery 2700 mAh at 3.85 V
    /// (nominal voltage an estimate). Waking the application processor from suspend takes
    /// milliseconds (2 ms, estimate).
    public static let phone = BoardProfile(
        name: "phone", description: "Phone-class SoC in suspend between deliveries (Pixel 2 power profile)",
        idlePowerW: 6.815e-3 * 3.85, activePowerW: (6.815 + 0.386 + 17.757 + 6.478 + 10) * 1e-3 * 3.85,
        deviceDeliveryS: 2e-3, schedulerWakeupS: 4e-6, userspaceReturnS: 20e-6, perSampleS: 1e-6,
        batteryMAh: 2700, batteryV: 3.85, converterEfficiency: 1)

    /// Every built-in profile, in the order reports list them.
    public static let builtIn: [BoardProfile] = [rpiZero2W, rpi4B, rpi5, beagleBoneBlack, phone]

    /// The built-in profile called `name` (case-insensitive, as chip names), if any.
    public static func builtIn(named name: String) -> BoardProfile? {
        builtIn.first { $0.name.lowercased() == name.lowercased() }
    }
}
