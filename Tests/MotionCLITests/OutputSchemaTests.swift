import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI
import MotionAnalysis
import MotionCore
import MotionFleet
import MotionIIO
import MotionSession

/// Whether `python3` with the `jsonschema` package is here (scripts/validate-json.py exits 77 without it).
private let jsonschemaPresent: Bool = {
    guard let r = try? TestProcess.run(["/bin/sh", "-c", "python3 -c 'import jsonschema, referencing'"]) else { return false }
    return r.status == 0
}()

private let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path
private let fixtures = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Dialects/walk").path

/// Outputs scripts can trust (issue 25, case 8): `--json` with several inputs is NDJSON (one
/// compact object per line) carrying `"schema"`, valid against docs/schemas/; `--csv` is a
/// header and rows that agree with the JSON.
struct OutputSchemaTests {
    /// Inputs of several dialects and containers, a recording with plausibility warnings, an empty one.
    static func inputs() throws -> [String] {
        let g = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n" + (0..<200).map { "\(Double($0) / 50),0.01,0.02,1.0\n" }.joined(), name: "in-g.csv")
        let empty = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n", name: "empty.csv")
        return [walk, fixtures + "/phyphox.zip", fixtures + "/bangle-accellog.csv.gz", fixtures + "/sensor-logger-ios", g, empty]
    }

    @Test(arguments: ["replay", "steps", "activity"])
    func jsonWithSeveralInputsIsNDJSONWithASchemaVersion(command: String) throws {
        let files = try Self.inputs()
        let r = runCLI([command, "--json", "--allow-empty"] + files)
        #expect(r.code == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == files.count, "one line per input: \(r.out.prefix(400))")
        for (line, file) in zip(lines, files) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["schema"] as? Int == 1)
            #expect(object["file"] as? String == file)
        }
        #expect(r.out.last == "\n")
    }

    @Test(.enabled(if: jsonschemaPresent, "python3 -m pip install jsonschema (or apt-get install python3-jsonschema)"),
          arguments: ["replay", "steps", "activity"])
    func jsonOutputsValidateAgainstTheirSchemas(command: String) throws {
        let r = runCLI([command, "--json", "--allow-empty"] + (try Self.inputs()))
        #expect(r.code == 0, "\(r.err)")
        let path = try TestPaths.scratchFile(r.out, name: "\(command).ndjson")
        let v = try TestProcess.run(["/usr/bin/env", "python3", TestPaths.packageRoot.appendingPathComponent("scripts/validate-json.py").path, command, path])
        #expect(v.status == 0, "\(v.err)")
        // The schema is not a formality: a changed version fails.
        let wrong = try TestPaths.scratchFile(r.out.replacingOccurrences(of: "\"schema\":1", with: "\"schema\":2"), name: "wrong.ndjson")
        let w = try TestProcess.run(["/usr/bin/env", "python3", TestPaths.packageRoot.appendingPathComponent("scripts/validate-json.py").path, command, wrong])
        #expect(w.status == 1, "\(w.err)")
    }

    /// `recover`, `devices` (here, or the context's error where there is no IIO) and `bench parse`
    /// against their schemas too.
    @Test(.enabled(if: jsonschemaPresent, "python3 -m pip install jsonschema (or apt-get install python3-jsonschema)"))
    func otherJSONOutputsValidateAgainstTheirSchemas() throws {
        let torn = try TestPaths.scratchFile(try String(contentsOfFile: walk, encoding: .utf8) + "229990000000,1,2", name: "torn.csv")
        let outputs: [(String, [String])] = [
            ("recover", ["recover", torn, "--json"]),
            ("devices", ["devices", "--json"]),
            ("bench-parse", ["bench", "parse", walk, "--json"]),
        ]
        for (schema, arguments) in outputs {
            let r = runCLI(arguments)
            #expect(r.out.contains("\"schema\""), "\(arguments): \(r.out.prefix(200)) \(r.err)")
            let path = try TestPaths.scratchFile(r.out, name: "\(schema).json")
            let v = try TestProcess.run(["/usr/bin/env", "python3", TestPaths.packageRoot.appendingPathComponent("scripts/validate-json.py").path, schema, path])
            #expect(v.status == 0, "\(arguments): \(v.err)")
        }
    }

    /// `text` (one JSON object, or NDJSON) validated by scripts/validate-json.py against
    /// docs/schemas/`schema`.schema.json.
    static func validate(_ schema: String, _ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(text.hasPrefix("{\"schema\":") || text.hasPrefix("{\n  \"schema\":"), "\(what): schema is not the first member: \(text.prefix(80))", sourceLocation: sourceLocation)
        let path = try TestPaths.scratchFile(text, name: "\(schema).json")
        let v = try TestProcess.run(["/usr/bin/env", "python3", TestPaths.packageRoot.appendingPathComponent("scripts/validate-json.py").path, schema, path])
        #expect(v.status == 0, "\(what): \(v.err)", sourceLocation: sourceLocation)
    }

    /// Every other command's JSON output, run for real on small inputs: each carries `"schema"`
    /// first and is valid against its schema (the eval commands on the synthetic datasets folder,
    /// `collect report` on a collected folder as `collect` writes it).
    @Test(.enabled(if: jsonschemaPresent, "python3 -m pip install jsonschema (or apt-get install python3-jsonschema)"))
    func everyCommandsJSONValidatesAgainstItsSchema() throws {
        let dir = try TestPaths.makeScratchDirectory()
        let perSample = dir.appendingPathComponent("a.json").path, batched = dir.appendingPathComponent("b.json").path
        try Data(#"{"samples": 1000, "userspace_returns": 1000, "voluntary_ctxt_switches": 1000, "cpu_time_s": 0.032, "duration_s": 10}"#.utf8).write(to: URL(fileURLWithPath: perSample))
        try Data(#"{"samples": 1000, "userspace_returns": 10, "voluntary_ctxt_switches": 10, "cpu_time_s": 0.0023, "duration_s": 10, "device_deliveries": 10}"#.utf8).write(to: URL(fileURLWithPath: batched))
        let collected = dir.appendingPathComponent("collected/b1")
        try FileManager.default.createDirectory(at: collected, withIntermediateDirectories: true)
        try """
        {"schema":1,"board":"b1","type":"batch","session":"s1","seq":1,"steps":4,"lost_samples":0,"total_samples":50}
        {"schema":1,"board":"b1","type":"batch","session":"s1","seq":3,"steps":6,"lost_samples":0,"total_samples":100}
        {"schema":1,"board":"b1","type":"summary","seq":5,"session":"s1","steps":9,"lost_samples":1,"samples":100,"activity_time_s":{"walking":2}}

        """.write(to: collected.appendingPathComponent("s1.ndjson"), atomically: true, encoding: .utf8)
        let datasets = try SyntheticDatasets.write()
        let outputs: [(String, [String])] = [
            ("bench-steps", ["bench", "steps", walk, "--json", "--hours", "0.01"]),
            ("bench-activity", ["bench", "activity", walk, "--json", "--hours", "0.01"]),
            ("capture-benchmark", ["capture", "benchmark", "--samples", "2000", "--batch", "1,10", "--json"]),
            ("calibrate", ["calibrate", "--per-sample", perSample, "--batched", batched, "--json"]),
            ("wakes", ["wakes", "--json"]),
            ("wakes", ["wakes", walk, "--rates", "25,50", "--latencies", "0,1", "--json"]),
            ("collect-report", ["collect", "report", dir.appendingPathComponent("collected").path, "--json"]),
            ("eval-steps", ["eval", "steps", datasets, "--in-sample", "--json"]),
            ("eval-steps", ["eval", "steps", datasets, "--hold-out", "bangle:numbered", "--json"]),
        ]
        for (schema, arguments) in outputs {
            let r = runCLI(arguments)
            #expect(r.code == 0, "\(arguments): \(r.err)")
            try Self.validate(schema, r.out, "\(arguments)")
        }
        // The collected folder's report names the missing messages (the schema's `missing`).
        #expect(runCLI(["collect", "report", dir.appendingPathComponent("collected").path, "--json"]).out.contains("\"in_gaps\""))
    }

    /// A datasets folder of the few real recordings `eval activity` needs at the least (two HAPT
    /// sequences, two ST logs, one Bangle.js ride), linked from ../shared/datasets with their
    /// manifest rows: the command's own output in seconds, where the whole corpus takes minutes.
    static func smallActivityDatasets() throws -> String {
        let lines = try String(contentsOfFile: TestPaths.datasetsRoot + "/manifest.csv", encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        let rows = lines.filter { $0.hasPrefix("activity/hapt/") }.prefix(2) + lines.filter { $0.hasPrefix("activity/st/") }.prefix(2)
            + lines.filter { $0.hasPrefix("steps/bangle/") && $0.contains(",vehicle,") }.prefix(1)
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-activity-datasets")
        for row in rows {
            let path = String(row.prefix { $0 != "," })
            let link = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: TestPaths.datasetsRoot + "/" + path)
        }
        try ([lines[0]] + rows).joined(separator: "\n").appending("\n").write(to: dir.appendingPathComponent("manifest.csv"), atomically: true, encoding: .utf8)
        return dir.path
    }

    /// `eval activity --json` (the real datasets: skipped without them) on a few recordings.
    @Test(.enabled(if: jsonschemaPresent && TestPaths.datasetsPresent, "needs python3's jsonschema and \(TestPaths.datasetsMissingReason)"))
    func evalActivityJSONValidatesAgainstItsSchema() throws {
        let r = runCLI(["eval", "activity", try Self.smallActivityDatasets(), "--json", "--grid", "stillMotion=0.35"])
        #expect(r.code == 0, "\(r.err)")
        try Self.validate("eval-activity", r.out, "eval activity --json")
    }

    /// What `capture` prints without hardware, made by the same code: the NDJSON lines of a
    /// session (``SessionOutput`` on the bundled walk replayed as a board, as `replay --publish
    /// --ndjson` does), its session summary, a recording's summary file (`recover`), and the
    /// `capture --json` statistics of a session with the live analysis, a simulated device, a
    /// hardware pedometer and a chip's activity recognition.
    @Test(.enabled(if: jsonschemaPresent, "python3 -m pip install jsonschema (or apt-get install python3-jsonschema)"))
    func captureAndSessionJSONValidatesAgainstItsSchemas() throws {
        nonisolated(unsafe) var out = ""
        let io = CommandIO(writeOut: { out += $0 }, writeErr: { _ in }, stderrIsTerminal: false)
        let output = SessionOutput(io: io, log: ServiceLog(style: .plain), ndjson: true, session: "0123456789abcdef")
        let recorder = try SimulatedBoard.run(path: walk, policy: .latency(seconds: 1), pace: .fast,
                                              settings: SessionMachine.Settings(session: "0123456789abcdef"), observer: output) { false }
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count > 10)
        #expect(Set(lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.compactMap { $0["type"] as? String }) == ["batch", "event", "summary"])
        for line in lines { #expect(line.hasPrefix("{\"schema\":1,\"type\":"), "\(line.prefix(60))") }
        try Self.validate("capture-ndjson", out, "capture --ndjson")
        // Not a formality: another version, or a batch without its counts, fails.
        for wrong in [out.replacingOccurrences(of: "{\"schema\":1,\"type\":\"batch\"", with: "{\"schema\":2,\"type\":\"batch\""),
                      out.replacingOccurrences(of: "\"total_samples\":", with: "\"total\":")] {
            let path = try TestPaths.scratchFile(wrong, name: "wrong.ndjson")
            let w = try TestProcess.run(["/usr/bin/env", "python3", TestPaths.packageRoot.appendingPathComponent("scripts/validate-json.py").path, "capture-ndjson", path])
            #expect(w.status == 1, "\(w.err)")
        }
        let summary = try #require(recorder.machine.summary)
        try Self.validate("session-summary", summary.json.serialized(pretty: true), "session summary")

        let torn = try TestPaths.scratchFile(try String(contentsOfFile: walk, encoding: .utf8) + "229990000000,1,2", name: "torn.csv")
        #expect(runCLI(["recover", torn]).code == 0)
        try Self.validate("session-summary", try String(contentsOfFile: String(torn.dropLast(4)) + ".summary.json", encoding: .utf8), "recording summary")

        var stats = CaptureStatistics()
        stats.devices = [.simulated(name: "replay", rateHz: 50, batchSamples: 50, latencySeconds: 1)]
        stats.samples = recorder.machine.summary?.tally.samples ?? 0
        let pedometer = CaptureStatsJSON.Pedometer(device: "bma400", start: 1000, end: 1120,
                                                   comparison: try #require(HardwarePedometerComparison(ours: recorder.machine.steps ?? 0, hardwareStart: 1000, hardwareEnd: 1120)))
        let chip = SensorDescription.Activity(channels: [.init(modifier: "still", confidence: 0), .init(modifier: "walking", confidence: 100)])
        let hardware = CaptureStatsJSON.ChipActivity(device: "bma400", start: chip, end: chip,
                                                     comparison: HardwareActivityComparison(ours: recorder.machine.currentActivity, hardwareModifier: chip.current))
        let full = CaptureStatsJSON.make(stats, uri: "local:", output: "walk.csv", steps: recorder.machine.steps, pedometer: pedometer,
                                         activity: recorder.machine.activity, hardwareActivity: hardware, session: summary)
        try Self.validate("capture-stats", full.serialized(pretty: true), "capture --json")
        try Self.validate("capture-stats", CaptureStatsJSON.make(CaptureStatistics(), uri: "local:", output: nil, steps: nil).serialized(pretty: true), "capture --json, nothing counted")
    }

    /// Rows as Python's csv module (what pandas and R follow) reads them.
    static func pythonRows(_ csv: String) throws -> [[String]] {
        let path = try TestPaths.scratchFile(csv, name: "out.csv")
        let r = try TestProcess.run(["/usr/bin/env", "python3", "-c", "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))", path])
        return try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String]])
    }

    @Test func stepsCSVPerFileAndPerStepAgreeWithTheJSON() throws {
        let odd = try TestPaths.scratchFile(try String(contentsOfFile: walk, encoding: .utf8), name: "walk, \"quoted\".csv")
        let json = runCLI(["steps", "--json", walk, odd])
        let objects = try json.out.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let perFile = try Self.pythonRows(runCLI(["steps", "--csv", walk, odd]).out)
        #expect(perFile.first == ["file", "steps", "duration_s", "cadence_spm", "inferred_steps"])
        #expect(perFile.dropFirst().map { Int($0[4]) } == objects.map { $0["inferred_steps"] as? Int })
        #expect(perFile.dropFirst().map(\.[0]) == [walk, odd])
        #expect(perFile.dropFirst().map { Int($0[1]) } == objects.map { $0["steps"] as? Int })
        let perStep = try Self.pythonRows(runCLI(["steps", "--csv", "--per", "step", walk]).out)
        #expect(perStep.first == ["file", "step", "time_s"])
        let times = try #require(objects[0]["step_times_s"] as? [Double])
        #expect(perStep.dropFirst().map { Double($0[2])! } == times)
        #expect(perStep.last?[1] == String(times.count))
        #expect(runCLI(["steps", "--json", "--csv", walk]).code == 64)
        #expect(runCLI(["replay", "--csv", walk, "--publish", "mqtt://127.0.0.1/fleet"]).code == 64)
        #expect(runCLI(["activity", "--csv", "--json", walk]).code == 64)
        #expect(runCLI(["steps", "--per", "step", walk]).code == 64)
    }

    @Test func activityAndReplayCSVAgreeWithTheJSON() throws {
        let segments = try Self.pythonRows(runCLI(["activity", "--csv", walk]).out)
        #expect(segments.first == ["file", "start_s", "end_s", "label", "confidence", "announced_s"])
        let activity = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["activity", "--json", walk]).out.utf8)) as? [String: Any])
        let labels = (activity["activity"] as? [[String: Any]])?.map { $0["label"] as? String }
        #expect(segments.dropFirst().map { $0[3] } == labels)
        let replay = try Self.pythonRows(runCLI(["replay", "--csv", walk, fixtures + "/phyphox.zip"]).out)
        #expect(replay.count == 3)
        let header = try #require(replay.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["replay", "--json", walk]).out.utf8)) as? [String: Any])
        let row = Dictionary(uniqueKeysWithValues: zip(header, replay[1]))
        #expect(row["steps"] == String(object["steps"] as! Int))
        #expect(row["sensors"] == "accel;gyro")
        #expect(row["container"] == "")
        #expect(replay[2][header.firstIndex(of: "container")!] == "zip")
        #expect(Double(row["walking_s"]!) == (object["activity_time_s"] as? [String: Double])?["walking"])
    }
}
