import MotionCore

/// Reading a user's board profile from JSON.
///
/// Schema (every numeric key required, no other keys allowed):
/// `{"name": "my-board", "description": "...", "idle_power_w": 1.2, "active_power_w": 1.8,
///   "device_delivery_s": 5e-5, "scheduler_wakeup_s": 5e-6, "userspace_return_s": 3e-5,
///   "per_sample_s": 2e-6, "battery_mah": 10000, "battery_v": 3.7, "converter_efficiency": 0.85,
///   "sources": {"idle_power_w": "measured with ..."}}`
/// Values must lie within ``rules``; names and descriptions must be printable text.
extension BoardProfile {
    /// Keys a profile file may contain.
    public static let jsonKeys: Set<String> = [
        "name", "description", "sources", "idle_power_w", "active_power_w", "device_delivery_s",
        "scheduler_wakeup_s", "userspace_return_s", "per_sample_s", "battery_mah", "battery_v",
        "converter_efficiency",
    ]

    /// Parses and validates a profile from the bytes of a JSON file (at most ``JSONReader/maxBytes``).
    /// - Parameter file: the file's name, used in error messages.
    /// - Throws: ``WakeCostError`` naming the file, the line and column, and the key: malformed
    ///   JSON, an unknown or missing key, a value of the wrong type, or an impossible value (see
    ///   ``validate(file:)``).
    public static func parseJSON(_ data: [UInt8], file: String) throws(WakeCostError) -> BoardProfile {
        let object = try JSONObject.parse(data, file: file)
        try object.rejectUnknownKeys(jsonKeys)
        let name = try object.string("name") ?? String(file.split(separator: "/").last ?? Substring(file))
        let description = try object.string("description") ?? ""
        if let s = object["sources"] {
            guard case .object(let members) = s.value, members.allSatisfy({ if case .string = $0.value.value { return true } else { return false } }) else {
                throw object.error("sources", "must be an object of strings")
            }
        }
        var values: [String: Double] = [:]
        for key in numericKeys { values[key] = try object.number(key, rule: rule(for: key)) }
        let profile = BoardProfile(
            name: name, description: description,
            idlePowerW: values["idle_power_w"]!, activePowerW: values["active_power_w"]!,
            deviceDeliveryS: values["device_delivery_s"]!, schedulerWakeupS: values["scheduler_wakeup_s"]!,
            userspaceReturnS: values["userspace_return_s"]!, perSampleS: values["per_sample_s"]!,
            batteryMAh: values["battery_mah"]!, batteryV: values["battery_v"]!,
            converterEfficiency: values["converter_efficiency"]!)
        do { try profile.validate(file: file) } catch {
            var e = error
            e.position = e.key.flatMap { object[$0]?.position }
            throw e
        }
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
