import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI

/// A fresh temporary directory for one test.
func wakesTempDir() throws -> URL {
    try TestPaths.makeScratchDirectory(prefix: "wakes")
}

@Test func wakesJSONHasTheDocumentedConfigurations() throws {
    let r = runCLI(["wakes", "--rates", "25,100", "--latencies", "0,1,10", "--board", "rpi-zero-2w", "--json"])
    #expect(r.code == 0, "\(r.err)")
    let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    let cs = try #require(o["configurations"] as? [[String: Any]])
    #expect(cs.count == 6)
    #expect(cs.map { $0["rate_hz"] as? Double } == [25, 25, 25, 100, 100, 100])
    #expect(cs[3]["process_wakeups_per_hour"] as? Int == 360_000 && cs[4]["process_wakeups_per_hour"] as? Int == 3600)
    #expect((o["board"] as? [String: Any])?["name"] as? String == "rpi-zero-2w")
}

@Test func hidFIFOSizeCanBeGiven() throws {
    let r = runCLI(["wakes", "--rates", "100", "--latencies", "5", "--chips", "HID-hub", "--hid-fifo-bytes", "12000", "--json"])
    let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    let fifo = try #require((o["configurations"] as? [[String: Any]])?.first?["fifo"] as? [[String: Any]])
    // 12000 bytes / 12 bytes per accel sample = 1000 samples: 500 arrive in 5 s, so it fits.
    #expect(fifo.count == 1 && fifo[0]["capacity_samples"] as? Int == 1000 && fifo[0]["fits"] as? Bool == true && fifo[0]["assumed"] as? Bool == false)
}

@Test func batteryOverrideScalesBatteryLife() throws {
    func life(_ extra: [String]) throws -> Double {
        let r = runCLI(["wakes", "--rates", "50", "--latencies", "1", "--board", "rpi-4b", "--json"] + extra)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        return try #require((o["configurations"] as? [[String: Any]])?.first?["battery_life_h"] as? Double)
    }
    let base = try life(["--battery-mah", "10000"])
    let double = try life(["--battery-mah", "20000"])
    #expect(abs(double / base - 2) < 1e-9)
}

@Test(arguments: [
    (["wakes", "--board", "rpi-6"], Int32(64), "Unknown board 'rpi-6'"),
    (["wakes", "--rates", "0,50"], 64, "'--rates"),
    (["wakes", "--latencies", "-1"], 64, "'--latencies"),
    (["wakes", "--buffering", "magic"], 64, "'--buffering'"),
    (["wakes", "--json", "--csv"], 64, "one of"),
    (["wakes", "--chips", "LSM9"], 64, "Unknown chip 'LSM9'"),
    (["wakes", "--chips", "LSM6DS3,lsm6ds3"], 64, "given twice"),
    (["wakes", "--chips", "/nonexistent/chip.json"], 1, "/nonexistent/chip.json: no such file"),
    (["wakes", "--sensors", "gyro"], 64, "'--sensors'"),
    (["wakes", "--sensors", "accel", "--gyro"], 64, "contradicts"),
    (["wakes", "--max-delay", "-1"], 64, "'--max-delay'"),
    (["wakes", "--fifo-margin", "1"], 64, "'--fifo-margin'"),
    (["wakes", "--fifo-bytes", "3"], 64, "'--fifo-bytes'"),
    (["wakes", "--board", "/nonexistent/board.json"], 1, "/nonexistent/board.json: no such file"),
    (["calibrate", "--per-sample", "/nonexistent/a.json", "--batched", "/nonexistent/b.json"], 1, "/nonexistent/a.json: no such file"),
    (["calibrate", "--batched", "x.json"], 64, "--per-sample"),
] as [([String], Int32, String)])
func badArgumentsFailWithAClearMessage(args: [String], code: Int32, message: String) {
    let r = runCLI(args)
    #expect(r.code == code)
    #expect(r.err.contains(message), "\(r.err)")
    #expect(r.out.isEmpty)
}

@Test func badProfileFileNamesFileAndKey() throws {
    let dir = try wakesTempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("board.json")
    try Data(#"{"idle_power_w": 1, "active_power_w": 2, "device_delivery_s": 0, "scheduler_wakeup_s": 0, "userspace_return_s": 0, "per_sample_s": 0, "battery_mah": 0, "battery_v": 3.7, "converter_efficiency": 1}"#.utf8).write(to: file)
    let r = runCLI(["wakes", "--board", file.path])
    #expect(r.code == 1)
    #expect(r.err.contains("\(file.path):1:150: key 'battery_mah': battery capacity 0 is out of range (allowed 1...10000000 mAh)"), "\(r.err)")
}

@Test func calibrateAndMeasuredModeReadCaptureFiles() throws {
    let dir = try wakesTempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.json")
    try Data(#"{"samples": 1000, "userspace_returns": 1000, "voluntary_ctxt_switches": 1000, "cpu_time_s": 0.032, "duration_s": 10}"#.utf8).write(to: a)
    try Data(#"{"samples": 1000, "userspace_returns": 10, "voluntary_ctxt_switches": 10, "cpu_time_s": 0.0023, "duration_s": 10, "device_deliveries": 10}"#.utf8).write(to: b)
    let r = runCLI(["calibrate", "--per-sample", a.path, "--batched", b.path, "--json"])
    #expect(r.code == 0, "\(r.err)")
    let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    // 0.032 = 1000a + 1000b, 0.0023 = 10a + 1000b  =>  a = 30 µs, b = 2 µs.
    #expect(abs((o["per_wake_cpu_s"] as? Double ?? 0) - 3e-5) < 1e-12)
    #expect(abs((o["per_sample_cpu_s"] as? Double ?? 0) - 2e-6) < 1e-12)
    let m = runCLI(["wakes", "--measured", b.path, "--latencies", "1", "--board", "rpi-4b"])
    #expect(m.code == 0, "\(m.err)")
    #expect(m.out.contains("userspace_returns") && m.out.contains("difference"))
    let bad = runCLI(["wakes", "--measured", b.path, "--latencies", "0,1"])
    #expect(bad.code == 64)
    // The emulator's burst count can be passed in when the capture file lacks it.
    let withBursts = runCLI(["wakes", "--measured", a.path, "--latencies", "0", "--device-deliveries", "1003", "--json"])
    let rows = try #require((try JSONSerialization.jsonObject(with: Data(withBursts.out.utf8)) as? [String: Any])?["rows"] as? [[String: Any]])
    #expect(rows[0]["quantity"] as? String == "device_deliveries" && rows[0]["measured"] as? Double == 1003 && rows[0]["difference"] as? Double == 3)
}

@Test func htmlFileIsWritten() throws {
    let dir = try wakesTempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let page = dir.appendingPathComponent("r.html")
    let r = runCLI(["wakes", "--html", page.path, "--csv"])
    #expect(r.code == 0)
    #expect(r.out.hasPrefix("rate_hz,latency_s"))
    let html = try String(contentsOf: page, encoding: .utf8)
    for id in ["chart-battery", "chart-energy", "chart-wakeups", "chart-fifo"] { #expect(html.contains("<svg id=\"\(id)\""), "\(id)") }
}

/// Writes a dataset-format CSV: 100 Hz, 60 s of walking-like vertical acceleration at 1.8 steps/s.
func writeWalk(to url: URL) throws {
    var text = "time_s,accel_x,accel_y,accel_z\n"
    for i in 0..<6000 {
        let t = Double(i) / 100
        let z = 9.81 + 3 * sin(2 * Double.pi * 1.8 * t)
        text += "\(t),0.1,0.2,\(z)\n"
    }
    try Data(text.utf8).write(to: url)
}

@Test func replayGivesTheSameStepsAtEveryLatency() throws {
    let dir = try wakesTempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let rec = dir.appendingPathComponent("walk.csv")
    try writeWalk(to: rec)
    let r = runCLI(["wakes", rec.path, "--rates", "100", "--latencies", "0,0.1,1,5,10", "--json"])
    #expect(r.code == 0, "\(r.err)")
    let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    let replay = try #require(o["replay"] as? [String: Any])
    #expect(replay["identical"] as? Bool == true)
    let results = try #require(replay["results"] as? [[String: Any]])
    let steps = results.compactMap { $0["steps"] as? Int }
    #expect(steps.count == 5 && Set(steps).count == 1)
    #expect(steps[0] > 90, "60 s at 1.8 steps/s is about 108 steps, got \(steps[0])")
    // Every step becomes visible no earlier than its time and, at 10 s batches, some wait several seconds.
    let delays10 = try #require(results[4]["step_delays_s"] as? [Double])
    #expect(delays10.count == steps[0] && delays10.allSatisfy { $0 >= 0 } && delays10.max()! > 5)
    let table = runCLI(["wakes", rec.path, "--rates", "100", "--latencies", "0,1"])
    #expect(table.out.contains("100 Hz: analysis results identical across all 2 latencies"))
}

@Test func replayAtLowerRatesDecimatesAndComparesWithinEachRate() throws {
    let dir = try wakesTempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let rec = dir.appendingPathComponent("walk.csv")
    try writeWalk(to: rec)
    let r = runCLI(["wakes", rec.path, "--rates", "25,50,100,200", "--latencies", "0,1,10", "--json"])
    #expect(r.code == 0, "\(r.err)")
    let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    let results = try #require((o["replay"] as? [String: Any])?["results"] as? [[String: Any]])
    // 100 and 200 Hz both replay the 100 Hz recording as is: three rate groups of three latencies.
    #expect(results.compactMap { $0["rate_hz"] as? Double } == [25, 25, 25, 50, 50, 50, 100, 100, 100])
    #expect(results.compactMap { $0["samples"] as? Int } == [1500, 1500, 1500, 3000, 3000, 3000, 6000, 6000, 6000])
    #expect((o["replay"] as? [String: Any])?["identical"] as? Bool == true)
}

@Test func replayOfAMissingRecordingFails() {
    let r = runCLI(["wakes", "/nonexistent/walk.csv", "--latencies", "1"])
    #expect(r.code == 1 && r.err.contains("/nonexistent/walk.csv"))
}

/// An empty recording fails with the plausibility rule's `empty-stream` message, as in every
/// command, and with --allow-empty is a warning: the report is the model's alone (no replay).
@Test func anEmptyRecordingFailsUnlessAllowed() throws {
    let dir = try wakesTempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let lines = try String(contentsOfFile: TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path, encoding: .utf8).split(separator: "\n")
    let empty = dir.appendingPathComponent("empty.csv").path
    try Data((lines.prefix { $0.hasPrefix("#") } + [lines.first { !$0.hasPrefix("#") }!]).joined(separator: "\n").appending("\n").utf8).write(to: URL(fileURLWithPath: empty))
    let args = ["wakes", empty, "--rates", "25", "--latencies", "0,1", "--json"]
    let failed = runCLI(args)
    #expect(failed.code == 1)
    #expect(failed.out.isEmpty)
    #expect(failed.err.hasPrefix("Error: \(empty):19: the recording holds no samples: nothing to analyse (--allow-empty accepts an empty recording)"), "\(failed.err)")
    let strict = runCLI(args + ["--allow-empty", "--strict"])
    #expect(strict.code == 1 && strict.err.contains("nothing to analyse (--strict)"), "\(strict.err)")
    let allowed = runCLI(args + ["--allow-empty"])
    #expect(allowed.code == 0, "\(allowed.err)")
    #expect(allowed.err.contains("\(empty):19: warning: the recording holds no samples"), "\(allowed.err)")
    let o = try #require(try JSONSerialization.jsonObject(with: Data(allowed.out.utf8)) as? [String: Any])
    #expect(o["replay"] == nil)
    #expect((o["configurations"] as? [Any])?.count == 2, "\(o.keys.sorted())")
}

/// A folder of several recordings is a usage error naming the count (wakes replays one); a
/// folder holding one recording replays it; an export folder is one recording.
@Test func aFolderIsOneRecordingOrAUsageError() throws {
    let dir = try wakesTempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fm = FileManager.default
    let several = dir.appendingPathComponent("several").path
    try fm.createDirectory(atPath: several, withIntermediateDirectories: true)
    try writeWalk(to: URL(fileURLWithPath: several + "/a.csv"))
    try writeWalk(to: URL(fileURLWithPath: several + "/b.csv"))
    let r = runCLI(["wakes", several, "--latencies", "1"])
    #expect(r.code == 64, "\(r.err)")
    #expect(r.err.hasPrefix("Error: wakes takes one recording: \(several) is a folder of 2 recordings (\(several)/a.csv, \(several)/b.csv); give one of them."), "\(r.err)")
    #expect(!r.err.contains("holds no recording MotionBatch knows"))

    let one = dir.appendingPathComponent("one").path
    try fm.createDirectory(atPath: one, withIntermediateDirectories: true)
    try writeWalk(to: URL(fileURLWithPath: one + "/a.csv"))
    try Data("notes\n".utf8).write(to: URL(fileURLWithPath: one + "/notes.txt"))
    let single = runCLI(["wakes", one, "--rates", "100", "--latencies", "0,1", "--json"])
    #expect(single.code == 0, "\(single.err)")
    #expect(single.err.contains("\(one): skipped 1 entry: notes.txt"), "\(single.err)")
    let alone = runCLI(["wakes", one + "/a.csv", "--rates", "100", "--latencies", "0,1", "--json"])
    #expect(single.out == alone.out)

    let export = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Dialects/walk/sensor-logger-ios").path
    let e = runCLI(["wakes", export, "--latencies", "0,1", "--json"])
    #expect(e.code == 0, "\(e.err)")
    #expect(e.out.contains("\"replay\""))
}
