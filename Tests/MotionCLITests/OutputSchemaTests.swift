import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI

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
        #expect(perFile.first == ["file", "steps", "duration_s", "cadence_spm"])
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
