import Foundation
import MotionCore

/// Reading a user's board profile from JSON.
///
/// Schema (every numeric key required, no other keys allowed):
/// `{"name": "my-board", "description": "...", "idle_power_w": 1.2, "active_power_w": 1.8,
///   "device_delivery_s": 5e-5, "scheduler_wakeup_s": 5e-6, "userspace_return_s": 3e-5,
///   "per_sample_s": 2e-6, "battery_mah": 10000, "battery_v": 3.7, "converter_efficiency": 0.85,
///   "sources": {"idle_power_w": "measured with ..."}}`
extension BoardProfile {
    /// Keys a profile file may contain.
    public static let jsonKeys: Set<String> = [
        "name", "description", "sources", "idle_power_w", "active_power_w", "device_delivery_s",
        "scheduler_wakeup_s", "userspace_return_s", "per_sample_s", "battery_mah", "battery_v",
        "converter_efficiency",
    ]

    /// Parses and validates a profile from the bytes of a JSON file.
    /// - Parameter file: the file's name, used in error messages.
    /// - Throws: ``WakeCostError`` naming the file and key: malformed JSON, an unknown or missing
    ///   key, a value of the wrong type, or an impossible value (see ``validate(file:)``).
    public static func parseJSON(_ data: [UInt8], file: String) throws(WakeCostError) -> BoardProfile {
        let object = try JSONObject.parse(data, file: file)
        try object.rejectUnknownKeys(jsonKeys, file: file)
        let name = try object.string("name", file: file) ?? (file as NSString).lastPathComponent
        let description = try object.string("description", file: file) ?? ""
        if let s = object["sources"], !((s as? [String: Any])?.values.allSatisfy { $0 is String } ?? false) {
            throw WakeCostError(file: file, key: "sources", problem: "must be an object of strings")
        }
        let profile = BoardProfile(
            name: name, description: description,
            idlePowerW: try object.number("idle_power_w", file: file),
            activePowerW: try object.number("active_power_w", file: file),
            deviceDeliveryS: try object.number("device_delivery_s", file: file),
            schedulerWakeupS: try object.number("scheduler_wakeup_s", file: file),
            userspaceReturnS: try object.number("userspace_return_s", file: file),
            perSampleS: try object.number("per_sample_s", file: file),
            batteryMAh: try object.number("battery_mah", file: file),
            batteryV: try object.number("battery_v", file: file),
            converterEfficiency: try object.number("converter_efficiency", file: file))
        try profile.validate(file: file)
        return profile
    }

    /// The profile as a JSON file `parseJSON` reads back: `name`, `description`, every numeric
    /// key, and `sources` (key → where the value comes from), one key per line.
    public func json(sources: [(String, String)]) -> String {
        var members: [(String, JSONValue)] = [("name", .string(name)), ("description", .string(description))]
        for (k, v) in parameters { members.append((k, .number(v))) }
        members.append(("sources", .object(sources.map { ($0.0, .string($0.1)) })))
        return JSONValue.object(members).serialized(pretty: true) + "\n"
    }
}
