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
        for key in object.keys where !jsonKeys.contains(key) {
            throw object.error(key, "unknown key (allowed: \(jsonKeys.sorted().joined(separator: ", ")))")
        }
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
}

/// A decoded top-level JSON object (``JSONReader``) with typed accessors whose errors name the
/// file, the key and the line and column of the value.
struct JSONObject {
    /// The file name, for errors.
    let file: String
    /// The object.
    let node: JSONNode

    /// The keys in file order.
    var keys: [String] { node.keys }
    /// The member `key`, if present.
    subscript(key: String) -> JSONNode? { node[key] }

    /// Decodes `data`, which must hold one JSON object.
    static func parse(_ data: [UInt8], file: String) throws(WakeCostError) -> JSONObject {
        let node: JSONNode
        do { node = try JSONReader.parse(data) } catch {
            throw WakeCostError(file: file, problem: "not valid JSON: \(error.problem)", position: error.position)
        }
        guard case .object = node.value else {
            throw WakeCostError(file: file, problem: "expected a JSON object at the top level, found \(node.kindName)", position: node.position)
        }
        return JSONObject(file: file, node: node)
    }

    /// An error about `key`, at its value's position (or the object's when it is missing).
    func error(_ key: String, _ problem: String) -> WakeCostError {
        WakeCostError(file: file, key: key, problem: problem, position: node[key]?.position ?? node.position)
    }

    /// A required number within `rule`.
    func number(_ key: String, rule: ValueRule? = nil) throws(WakeCostError) -> Double {
        guard let v = node[key] else { throw error(key, "missing (required number)") }
        guard case .number(let d) = v.value else { throw error(key, "must be a number, got \(v.kindName)") }
        if let rule, !rule.contains(d) { throw error(key, rule.problem(d.compactText)) }
        return d
    }

    /// An optional number within `rule` (absent or null: nil).
    func optionalNumber(_ key: String, rule: ValueRule? = nil) throws(WakeCostError) -> Double? {
        guard let v = node[key] else { return nil }
        if case .null = v.value { return nil }
        return try number(key, rule: rule)
    }

    /// A required whole number within `rule`.
    func count(_ key: String, rule: ValueRule = InputLimits.count) throws(WakeCostError) -> Int {
        let d = try number(key)
        guard d == d.rounded() else { throw error(key, "must be a whole number, got \(d.compactText)") }
        guard rule.contains(d) else { throw error(key, rule.problem(d.compactText)) }
        return Int(d)
    }

    /// An optional printable string.
    func string(_ key: String) throws(WakeCostError) -> String? {
        guard let v = node[key] else { return nil }
        guard case .string(let s) = v.value else { throw error(key, "must be a string, got \(v.kindName)") }
        guard DiagnosticText.isPrintable(s.utf8) else { throw error(key, "\(DiagnosticText.quoted(s)) contains control characters") }
        return s
    }
}
