import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI

/// `wakes RECORDING`'s recommendation can be trusted: only rates the recording holds are swept
/// unless asked, a rate not replayed says so, an unreachable `--max-delay` is named with the
/// smallest achievable delay, and the chips come from `--chips`, the recording's device, or all.
struct WakesRecommendationTests {
    static let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path

    static func json(_ args: [String]) throws -> [String: Any] {
        let r = runCLI(["wakes"] + args + ["--json"])
        #expect(r.code == 0, "\(r.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    }

    static func recommendation(_ o: [String: Any]) throws -> [String: Any] {
        try #require(o["recommendation"] as? [String: Any])
    }

    /// The smallest delay the analyses reach over every replayed setting: per setting the later
    /// of the worst step and the worst activity visibility, as the replay measured them.
    static func smallestAchievable(_ o: [String: Any]) throws -> Double {
        let results = try #require((o["replay"] as? [String: Any])?["results"] as? [[String: Any]])
        let delays = results.map { r -> Double in
            let steps = (r["step_visibility_s"] as? [String: Any])?["max"] as? Double
            let activity = (r["activity_visibility_s"] as? [String: Any])?["max"] as? Double
            return max(steps ?? 0, activity ?? 0)
        }
        return try #require(delays.min())
    }

    @Test func onlyRatesTheRecordingHoldsAreSweptByDefault() throws {
        let o = try Self.json([Self.walk, "--board", "phone", "--chips", "LSM6DSO"])
        let rates = Set(try #require(o["configurations"] as? [[String: Any]]).compactMap { $0["rate_hz"] as? Double })
        #expect(rates == [12.5, 25, 50], "the recording is 50 Hz: \(rates)")
        let chosen = try #require(try Self.recommendation(o)["chosen"] as? [String: Any])
        #expect(chosen["replayed"] as? Bool == true)
    }

    @Test func aRateAboveTheRecordingsSaysItWasNotReplayed() throws {
        let args = [Self.walk, "--board", "phone", "--chips", "LSM6DSO", "--rates", "100"]
        let chosen = try #require(try Self.recommendation(Self.json(args))["chosen"] as? [String: Any])
        #expect(chosen["rate_hz"] as? Double == 100 && chosen["replayed"] as? Bool == false)
        #expect(chosen["replayed_rate_hz"] as? Double == 50)
        let text = runCLI(["wakes"] + args).out.replacingOccurrences(of: "\n    ", with: " ")
        #expect(text.contains("Not replayed at 100 Hz: the recording is 50.0 Hz"), "\(text)")
    }

    @Test func maxDelayBelowWhatTheAnalysesNeedIsNamed() throws {
        let base = [Self.walk, "--board", "phone", "--chips", "LSM6DSO"]
        let smallest = try Self.smallestAchievable(Self.json(base))
        // Below it: nothing is recommended and the smallest achievable delay is named.
        let below = String(smallest * 0.6)
        let r = try Self.recommendation(Self.json(base + ["--max-delay", below]))
        #expect(r["chosen"] is NSNull)
        #expect(r["max_delay_unreachable"] as? Bool == true)
        let s = try #require(r["smallest_achievable_delay"] as? [String: Any])
        #expect(abs((s["delay_s"] as? Double ?? 0) - smallest) < 1e-9)
        let text = runCLI(["wakes"] + base + ["--max-delay", below]).out.replacingOccurrences(of: "\n    ", with: " ")
        #expect(text.contains("is below what the analyses need at any latency: the smallest achievable delay is"), "\(text)")
        // At it: a setting is recommended and the limit is reachable.
        let at = try Self.recommendation(Self.json(base + ["--max-delay", String(smallest + 0.001)]))
        #expect(at["chosen"] is [String: Any] && at["max_delay_unreachable"] as? Bool == false)
    }

    @Test func chipsFromTheOptionTheRecordingOrAll() throws {
        let given = try Self.recommendation(Self.json([Self.walk, "--chips", "LSM6DSO"]))
        #expect((given["chips_from"] as? String)?.hasSuffix("from --chips") == true)
        let all = try Self.recommendation(Self.json([Self.walk]))
        #expect((all["chips_from"] as? String)?.hasPrefix("all 14 built-in chips") == true, "\(String(describing: all["chips_from"]))")
        // A recording whose header names its IIO device: that chip alone is judged.
        let dir = try wakesTempDir()
        let text = try String(contentsOfFile: Self.walk, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix("# device:") ? "# device: lsm6dso_accel" : String($0) }
        let file = dir.appendingPathComponent("lsm6dso.csv")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let o = try Self.json([file.path])
        #expect((try Self.recommendation(o)["chips_from"] as? String)?.hasPrefix("LSM6DSO, from the recording's device lsm6dso_accel") == true)
        #expect((o["chips"] as? [[String: Any]])?.count == 1)
        #expect(WakesCommand.chip(forDevice: "accel_3d")?.name == "HID-hub" && WakesCommand.chip(forDevice: "lsm6ds3_accel")?.name == "LSM6DS3")
        #expect(WakesCommand.chip(forDevice: "ads1015") == nil)
    }

    @Test func chipsFromTheDevicesDetectedOnTheMachine() throws {
        let none = ParsedArguments(commandPath: ["motionbatch", "wakes"], values: [:], flags: [], positionals: [:])
        let (chips, source) = try WakesCommand.chipSelection(none, detectedDevices: ["accel_3d", "lsm6dso_gyro", "ads1015"])
        #expect(chips.map(\.name) == ["HID-hub", "LSM6DSO"])
        #expect(source.hasSuffix("detected on this machine (--chips to judge others)") && source.contains("LSM6DSO (lsm6dso_gyro)"), "\(source)")
        // The recording's device comes first, --chips before both.
        #expect(try WakesCommand.chipSelection(none, recordingDevice: "bmi323_accel", detectedDevices: ["accel_3d"]).0.map(\.name) == ["BMI323"])
        let given = ParsedArguments(commandPath: ["motionbatch", "wakes"], values: ["chips": ["LIS3DH"]], flags: [], positionals: [:])
        #expect(try WakesCommand.chipSelection(given, recordingDevice: "bmi323_accel", detectedDevices: ["accel_3d"]).0.map(\.name) == ["LIS3DH"])
        #expect(try WakesCommand.chipSelection(none, detectedDevices: ["ads1015"]).0.count == 14)
    }

    @Test func supportedRatesOfARecording() {
        #expect(WakesCommand.supportedRates([12.5, 25, 50, 100, 200], recordingRateHz: 50) == [12.5, 25, 50])
        #expect(WakesCommand.supportedRates([12.5, 25, 50, 100, 200], recordingRateHz: 49.98) == [12.5, 25, 50])
        #expect(WakesCommand.supportedRates([12.5, 25, 50], recordingRateHz: 10) == [10])
    }
}
