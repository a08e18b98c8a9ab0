import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI

/// The bundled HAPT excerpt (50 Hz, accelerometer and gyroscope, walking).
let haptWalk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path

/// `wakes --json` parsed.
func wakesJSON(_ args: [String]) throws -> [String: Any] {
    let r = runCLI(["wakes"] + args + ["--json"])
    #expect(r.code == 0, "\(r.err)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
}

@Test func sensorsDefaultToWhatTheRecordingHolds() throws {
    func lsm6ds3Capacity(_ o: [String: Any]) -> Int? {
        ((o["configurations"] as? [[String: Any]])?.first?["fifo"] as? [[String: Any]])?.first { $0["chip"] as? String == "LSM6DS3" }?["capacity_samples"] as? Int
    }
    let withGyro = try wakesJSON([haptWalk, "--rates", "25", "--latencies", "0,1"])
    #expect(withGyro["sensors"] as? [String] == ["accel", "gyro"])
    #expect(lsm6ds3Capacity(withGyro) == 455)
    let accel = try wakesJSON([haptWalk, "--rates", "25", "--latencies", "0,1", "--sensors", "accel"])
    #expect(accel["sensors"] as? [String] == ["accel"] && lsm6ds3Capacity(accel) == 682)
    #expect(try wakesJSON(["--rates", "25", "--latencies", "1"])["sensors"] as? [String] == ["accel"])
    #expect(try wakesJSON(["--rates", "25", "--latencies", "1", "--gyro"])["sensors"] as? [String] == ["accel", "gyro"])
}

@Test func terminalReportWithARecordingFitsOneHundredColumns() {
    let r = runCLI(["wakes", haptWalk, "--board", "rpi-zero-2w", "--max-delay", "5"])
    #expect(r.code == 0, "\(r.err)")
    for line in r.out.split(separator: "\n") { #expect(line.count <= 100, "\(line.count): \(line)") }
    #expect(r.out.contains("Headline") && r.out.contains("Recommendation") && r.out.contains("step visible"))
}

// The recommendation honours --max-delay with the replay's measured visibility (the later of a
// step's and an activity change's: the activity's includes the classifier's evidence hold, about
// 5 s here, so the limits start there), and the headline quotes the same replay.
@Test(arguments: [5.0, 6.0, 8.0])
func maxDelayLimitsTheReplayedVisibility(limit: Double) throws {
    let o = try wakesJSON([haptWalk, "--board", "rpi-zero-2w", "--max-delay", String(limit), "--chips", "LSM6DS3"])
    let rec = try #require(o["recommendation"] as? [String: Any])
    let chosen = try #require(rec["chosen"] as? [String: Any])
    let delay = try #require(chosen["delay_s"] as? Double)
    #expect(delay <= limit)
    let rate = try #require(chosen["rate_hz"] as? Double), latency = try #require(chosen["latency_s"] as? Double)
    // The replay result at that latency (12.5 Hz is below the recording's 50 Hz: replayed as is).
    let results = try #require((o["replay"] as? [String: Any])?["results"] as? [[String: Any]])
    let replayed = try #require(results.first { $0["rate_hz"] as? Double == rate && $0["latency_s"] as? Double == latency })
    let worstStep = try #require((replayed["step_visibility_s"] as? [String: Any])?["max"] as? Double)
    let worstActivity = try #require((replayed["activity_visibility_s"] as? [String: Any])?["max"] as? Double)
    #expect(abs(max(worstStep, worstActivity) - delay) < 1e-9)
    let batched = try #require((o["headline"] as? [String: Any])?["batched"] as? [String: Any])
    #expect((batched["step_visibility_s"] as? [String: Any])?["max"] as? Double == worstStep)
    #expect((batched["activity_visibility_s"] as? [String: Any])?["max"] as? Double == worstActivity)
    // Every cheaper setting was rejected for a reason.
    for c in try #require(rec["rejected_cheaper"] as? [[String: Any]]) { #expect((c["violations"] as? [Any])?.isEmpty == false) }
    #expect(rate >= 12.5)
}

@Test func chipProfilesAndFIFOBytesAddChips() throws {
    let dir = try wakesTempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("lsm6dsl.json")
    try Data(#"{"name": "LSM6DSL", "fifo_bytes": 4096, "accel_frame_bytes": 12, "accel_gyro_frame_bytes": 18, "source": "ST DS11345"}"#.utf8).write(to: file)
    let o = try wakesJSON(["--rates", "100", "--latencies", "1", "--chips", "LSM6DS3,\(file.path)", "--fifo-bytes", "1200"])
    let fifo = try #require((o["configurations"] as? [[String: Any]])?.first?["fifo"] as? [[String: Any]])
    #expect(fifo.map { $0["chip"] as? String } == ["LSM6DS3", "LSM6DSL", "custom-1200B"])
    #expect(fifo.map { $0["capacity_samples"] as? Int } == [682, 341, 200])
    #expect((o["chips"] as? [[String: Any]])?[1]["source"] as? String == "ST DS11345")
    try Data(#"{"name": "X", "fifo_bytes": -4, "accel_frame_bytes": 12}"#.utf8).write(to: file)
    let bad = runCLI(["wakes", "--chips", file.path])
    #expect(bad.code == 1 && bad.err.contains("\(file.path):1:") && bad.err.contains("key 'fifo_bytes'") && bad.out.isEmpty)
}

@Test func calibrateWritesAProfileThatWakesReads() throws {
    let dir = try wakesTempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.json"), profile = dir.appendingPathComponent("pi.json")
    try Data(#"{"samples": 1000, "userspace_returns": 1000, "voluntary_ctxt_switches": 1000, "cpu_time_s": 0.032, "duration_s": 10}"#.utf8).write(to: a)
    try Data(#"{"samples": 1000, "userspace_returns": 10, "voluntary_ctxt_switches": 10, "cpu_time_s": 0.0023, "duration_s": 10}"#.utf8).write(to: b)
    let r = runCLI(["calibrate", "--per-sample", a.path, "--batched", b.path, "--board", "rpi-zero-2w", "--write-profile", profile.path])
    #expect(r.code == 0, "\(r.err)")
    let written = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: profile)) as? [String: Any])
    #expect(written["name"] as? String == "rpi-zero-2w-calibrated")
    #expect(((written["sources"] as? [String: String])?["per_sample_s"])?.contains(a.path) == true)
    let o = try wakesJSON(["--board", profile.path, "--rates", "25", "--latencies", "1"])
    let board = try #require(o["board"] as? [String: Any])
    // 0.032 = 1000a + 1000b, 0.0023 = 10a + 1000b  =>  a = 30 µs, b = 2 µs; the rest is the base board's.
    #expect(abs((board["userspace_return_s"] as? Double ?? 0) - 3e-5) < 1e-12 && abs((board["per_sample_s"] as? Double ?? 0) - 2e-6) < 1e-12)
    #expect(board["idle_power_w"] as? Double == (try wakesJSON(["--board", "rpi-zero-2w", "--rates", "25", "--latencies", "1"])["board"] as? [String: Any])?["idle_power_w"] as? Double)
}

/// Activity changes are events like steps: how late each became visible (evidence hold included).
@Test func replayJSONCarriesActivityVisibility() throws {
    let r = runCLI(["replay", haptWalk, "--json"])
    #expect(r.code == 0)
    let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    let activity = try #require(o["activity_visibility_s"] as? [String: Any])
    let worst = try #require(activity["max"] as? Double), mean = try #require(activity["mean"] as? Double)
    #expect(worst >= mean && mean > 0 && worst < 70, "bounded by the back-dating limit plus a window and the latency")
    #expect((o["step_visibility_s"] as? [String: Any])?["max"] as? Double != nil)
}

// Every key `wakes --json` prints is documented in docs/wake-cost.md (as `key`, or `key[]` for arrays).
@Test func everyWakesJSONKeyIsDocumented() throws {
    let dir = try wakesTempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let doc = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/wake-cost.md"), encoding: .utf8)
    var keys = Set<String>()
    func collect(_ v: Any) {
        if let o = v as? [String: Any] { for (k, x) in o { keys.insert(k); collect(x) } }
        if let a = v as? [Any] { for x in a { collect(x) } }
    }
    collect(try wakesJSON([haptWalk, "--rates", "25,50", "--latencies", "0,1,5"]))
    let capture = dir.appendingPathComponent("c.json")
    try Data(#"{"samples": 1000, "userspace_returns": 10, "voluntary_ctxt_switches": 12, "cpu_time_s": 0.002, "duration_s": 10}"#.utf8).write(to: capture)
    let measured = runCLI(["wakes", "--measured", capture.path, "--latencies", "1", "--json"])
    collect(try JSONSerialization.jsonObject(with: Data(measured.out.utf8)))
    keys.remove("sources")
    #expect(keys.count > 60)
    let undocumented = keys.sorted().filter { !doc.contains("`\($0)`") && !doc.contains("`\($0)[]`") }
    #expect(undocumented.isEmpty, "undocumented --json keys: \(undocumented.joined(separator: ", "))")
}

// Measured mode with --html draws each capture, scaled to an hour, on the scheduler wake-ups chart.
@Test func measuredCapturesAreDrawnOnTheWakeupsChart() throws {
    let dir = try wakesTempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.json"), page = dir.appendingPathComponent("m.html")
    try Data(#"{"samples": 1000, "userspace_returns": 10, "voluntary_ctxt_switches": 308, "cpu_time_s": 0.02, "duration_s": 10}"#.utf8).write(to: a)
    try Data(#"{"samples": 1000, "userspace_returns": 1000, "voluntary_ctxt_switches": 1063, "cpu_time_s": 0.5, "duration_s": 10}"#.utf8).write(to: b)
    let r = runCLI(["wakes", "--measured", a.path, "--measured", b.path, "--latencies", "1", "--html", page.path, "--json"])
    #expect(r.code == 0, "\(r.err)")
    let objects = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]])
    #expect(objects.map { $0["capture"] as? String } == [a.path, b.path])
    let html = try String(contentsOf: page, encoding: .utf8)
    let chart = try #require(ReportChart(id: "chart-wakeups", in: html))
    let marks = chart.all("path", class: "measured")
    // 308 and 1063 switches in 10 s: 110880 and 382680 per hour, at the capture's latency (1 s).
    #expect(marks.compactMap { $0.number("data-value") } == [110_880, 382_680])
    #expect(marks.allSatisfy { $0.number("data-latency") == 1 })
}
