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

// Profile JSON errors: each names the file and the key and says what is wrong.
@Test(arguments: [
    ("colour", "\"red\"", "colour", "unknown key"),
    ("idle_power_w", "-1", "idle_power_w", "greater than 0"),
    ("battery_mah", "0", "battery_mah", "greater than 0"),
    ("battery_v", "0", "battery_v", "greater than 0"),
    ("per_sample_s", "-2e-6", "per_sample_s", "not be negative"),
    ("active_power_w", "1.0", "active_power_w", "below idle_power_w"),
    ("converter_efficiency", "1.5", "converter_efficiency", "(0, 1]"),
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
        guard let e = error as? WakeCostError else { return false }
        return e.file == "boards/bad.json" && e.key == expectedKey && e.problem.contains(problem)
            && e.description.hasPrefix("boards/bad.json: key '\(expectedKey)': ")
    }
}

@Test(arguments: ["{\"idle_power_w\": NaN}", "{\"idle_power_w\": 1e999}", "[1, 2]", "{", ""])
func malformedOrNonFiniteJSONIsAnErrorNamingTheFile(text: String) {
    #expect {
        _ = try BoardProfile.parseJSON(Array(text.utf8), file: "x.json")
    } throws: { error in
        guard let e = error as? WakeCostError else { return false }
        return e.file == "x.json" && (e.key == nil || e.key == "idle_power_w") && e.description.hasPrefix("x.json: ")
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
    do { try p.validate(file: "f") } catch { #expect(error.key == key && error.problem.contains("finite")) }
}
