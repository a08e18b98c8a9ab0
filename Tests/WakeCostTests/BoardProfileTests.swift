import Testing
import MotionCore
@testable import WakeCost

let validProfileJSON = """
{"name": "my-board", "description": "test", "idle_power_w": 1.2, "active_power_w": 1.8,
 "device_delivery_s": 5e-5, "scheduler_wakeup_s": 5e-6, "userspace_return_s": 3e-5, "per_sample_s": 2e-6,
 "battery_mah": 10000, "battery_v": 3.7, "converter_efficiency": 0.85, "sources": {"idle_power_w": "measured"}}
"""

@Test func validProfileParses() throws {
    let p = try BoardProfile.parseJSON(Array(validProfileJSON.utf8), file: "board.json")
    #expect(p.name == "my-board" && p.idlePowerW == 1.2 && p.activePowerW == 1.8 && p.deviceDeliveryS == 5e-5)
    #expect(p.schedulerWakeupS == 5e-6 && p.userspaceReturnS == 3e-5 && p.perSampleS == 2e-6)
    #expect(p.batteryMAh == 10000 && p.batteryV == 3.7 && p.converterEfficiency == 0.85)
    #expect(abs(p.batteryWh - 31.45) < 1e-9)
}

@Test(arguments: BoardProfile.builtIn)
func builtInProfilesAreValid(profile: BoardProfile) throws {
    try profile.validate(file: "<built-in>")
    #expect(profile.activePowerW > profile.idlePowerW)
}

/// Replaces `"key": value` in the valid profile (or adds/removes a key).
func profileWith(_ key: String, _ value: String?) -> String {
    var s = validProfileJSON
    if let r = s.range(of: "\"\(key)\": ") {
        let end = s[r.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" })!
        if let value { s.replaceSubrange(r.upperBound..<end, with: value) } else {
            var lineEnd = end
            if s[end] == "," { lineEnd = s.index(after: end) }
            s.removeSubrange(r.lowerBound..<lineEnd)
        }
    } else if let value {
        s = "{\"\(key)\": \(value), " + s.dropFirst()
    }
    return s
}

// Profile JSON errors: each names the file, the line and column of the value, and the key, and
// says what is wrong (a range error names the rule's limits).
@Test(arguments: [
    ("colour", "\"red\"", "colour", "unknown key"),
    ("idle_power_w", "-1", "idle_power_w", "idle power -1 is out of range (allowed 0.001...10000 W)"),
    ("battery_mah", "0", "battery_mah", "battery capacity 0 is out of range (allowed 1...10000000 mAh)"),
    ("battery_v", "0", "battery_v", "battery voltage 0 is out of range (allowed 0.1...1000 V)"),
    ("per_sample_s", "-2e-6", "per_sample_s", "out of range (allowed 0...1 s)"),
    ("active_power_w", "1.0", "active_power_w", "below idle_power_w"),
    ("converter_efficiency", "1.5", "converter_efficiency", "out of range (allowed 0.01...1)"),
    ("battery_mah", "1e308", "battery_mah", "battery capacity 1e+308 is out of range"),
    ("battery_mah", "5e-324", "battery_mah", "battery capacity 5e-324 is out of range"),
    ("device_delivery_s", "1e308", "device_delivery_s", "out of range (allowed 0...1 s)"),
    ("userspace_return_s", "\"fast\"", "userspace_return_s", "must be a number, got a string"),
    ("device_delivery_s", "true", "device_delivery_s", "must be a number, got a boolean"),
    ("battery_v", "null", "battery_v", "must be a number, got null"),
    ("scheduler_wakeup_s", nil, "scheduler_wakeup_s", "missing"),
    ("name", "3", "name", "must be a string"),
])
func profileErrorsNameFileAndKey(key: String, value: String?, expectedKey: String, problem: String) {
    let text = profileWith(key, value)
    #expect {
        _ = try BoardProfile.parseJSON(Array(text.utf8), file: "boards/bad.json")
    } throws: { error in
        guard let e = error as? WakeCostError, let position = e.position else { return false }
        // The position points at the value (or, for a missing key, at the object).
        let line = text.split(separator: "\n", omittingEmptySubsequences: false)[position.line - 1]
        let there = String(line.utf8.dropFirst(position.column - 1))!
        let pointsAtValue = value.map { there.hasPrefix($0) } ?? there.hasPrefix("{")
        return e.file == "boards/bad.json" && e.key == expectedKey && e.problem.contains(problem) && pointsAtValue
            && e.description.hasPrefix("boards/bad.json:\(position.line):\(position.column): key '\(expectedKey)': ")
    }
}

@Test(arguments: ["{\"idle_power_w\": NaN}", "{\"idle_power_w\": 1e999}", "[1, 2]", "{", ""])
func malformedOrNonFiniteJSONIsAnErrorNamingTheFile(text: String) {
    #expect {
        _ = try BoardProfile.parseJSON(Array(text.utf8), file: "x.json")
    } throws: { error in
        guard let e = error as? WakeCostError else { return false }
        return e.file == "x.json" && (e.key == nil || e.key == "idle_power_w") && e.position?.line == 1 && e.description.hasPrefix("x.json:1:")
    }
}

@Test(arguments: [("idle_power_w", Double.nan), ("battery_mah", Double.infinity), ("per_sample_s", -Double.infinity)])
func nonFiniteValuesAreRejected(key: String, value: Double) {
    var p = BoardProfile.rpi4B
    switch key {
    case "idle_power_w": p.idlePowerW = value
    case "battery_mah": p.batteryMAh = value
    default: p.perSampleS = value
    }
    #expect(throws: WakeCostError.self) { try p.validate(file: "f") }
    do { try p.validate(file: "f") } catch { #expect(error.key == key && error.problem.contains("is out of range (allowed")) }
}
