import Foundation

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
        for key in object.keys.sorted() where !jsonKeys.contains(key) {
            throw WakeCostError(file: file, key: key, problem: "unknown key (allowed: \(jsonKeys.sorted().joined(separator: ", ")))")
        }
        let name = try object.string("name", file: file) ?? (file as NSString).lastPathComponent
        let description = try object.string("description", file: file) ?? ""
        if let s = object["sources"], !(s is [String: Any]) {
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
}

/// A decoded top-level JSON object with typed, error-naming accessors (wraps Foundation's
/// `JSONSerialization`).
struct JSONObject {
    let storage: [String: Any]

    var keys: Dictionary<String, Any>.Keys { storage.keys }
    subscript(key: String) -> Any? { storage[key] }

    /// Decodes `data`, which must hold one JSON object.
    static func parse(_ data: [UInt8], file: String) throws(WakeCostError) -> JSONObject {
        let any: Any
        do {
            any = try JSONSerialization.jsonObject(with: Data(data), options: [])
        } catch {
            throw WakeCostError(file: file, problem: "not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? error))")
        }
        guard let dict = any as? [String: Any] else {
            throw WakeCostError(file: file, problem: "expected a JSON object at the top level")
        }
        return JSONObject(storage: dict)
    }

    /// A required number (not a boolean, not a string).
    func number(_ key: String, file: String) throws(WakeCostError) -> Double {
        guard let v = storage[key] else { throw WakeCostError(file: file, key: key, problem: "missing (required number)") }
        guard let n = v as? NSNumber, !JSONObject.isBool(n) else {
            throw WakeCostError(file: file, key: key, problem: "must be a number, got \(JSONObject.describe(v))")
        }
        let d = n.doubleValue
        guard d.isFinite else { throw WakeCostError(file: file, key: key, problem: "must be a finite number") }
        return d
    }

    /// An optional number.
    func optionalNumber(_ key: String, file: String) throws(WakeCostError) -> Double? {
        guard storage[key] != nil, !(storage[key] is NSNull) else { return nil }
        return try number(key, file: file)
    }

    /// An optional string.
    func string(_ key: String, file: String) throws(WakeCostError) -> String? {
        guard let v = storage[key] else { return nil }
        guard let s = v as? String else { throw WakeCostError(file: file, key: key, problem: "must be a string, got \(JSONObject.describe(v))") }
        return s
    }

    static func isBool(_ n: NSNumber) -> Bool {
        let type = String(cString: n.objCType)
        return type == "c" || type == "B"
    }

    static func describe(_ v: Any) -> String {
        switch v {
        case is String: return "a string"
        case is NSNull: return "null"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        case let n as NSNumber where isBool(n): return "a boolean"
        default: return "\(v)"
        }
    }
}
