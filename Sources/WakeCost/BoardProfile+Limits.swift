import MotionCore

extension BoardProfile {
    /// The accepted range of every parameter of a profile, by JSON key: the physical constants'
    /// rules, used by the profile reader and by the options that override a value
    /// (`--battery-mah`). Wide enough for any real board, narrow enough that every figure the
    /// model derives (wake-ups, CPU time, energy, battery life) stays finite and printable.
    public static let rules: [String: ValueRule] = [
        "idle_power_w": ValueRule("idle power", unit: "W", 0.001...10_000),
        "active_power_w": ValueRule("active power", unit: "W", 0.001...10_000),
        "device_delivery_s": ValueRule("CPU time per device delivery", unit: "s", 0...1),
        "scheduler_wakeup_s": ValueRule("CPU time per scheduler wake-up", unit: "s", 0...1),
        "userspace_return_s": ValueRule("CPU time per userspace return", unit: "s", 0...1),
        "per_sample_s": ValueRule("CPU time per sample", unit: "s", 0...1),
        "battery_mah": ValueRule("battery capacity", unit: "mAh", 1...10_000_000),
        "battery_v": ValueRule("battery voltage", unit: "V", 0.1...1000),
        "converter_efficiency": ValueRule("converter efficiency", unit: "", 0.01...1),
    ]

    /// The numeric keys in documentation order (the order they are checked in).
    public static let numericKeys = [
        "idle_power_w", "active_power_w", "device_delivery_s", "scheduler_wakeup_s", "userspace_return_s",
        "per_sample_s", "battery_mah", "battery_v", "converter_efficiency",
    ]

    /// The rule for the parameter `key` (one of ``jsonKeys``' numeric keys).
    public static func rule(for key: String) -> ValueRule {
        guard let rule = rules[key] else { preconditionFailure("no rule for board profile key '\(key)'") }
        return rule
    }
}
