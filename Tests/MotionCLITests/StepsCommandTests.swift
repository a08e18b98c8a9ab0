import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI

/// `motionbatch steps` and `motionbatch eval steps`: output, errors and exit codes.
struct StepsCommandTests {
    /// 60 s of synthetic walking at 2 steps/s, 50 Hz, in the plain dataset CSV dialect, its clock
    /// starting at `start` seconds.
    func walkingCSV(start: Double = 0) -> String {
        var s = "time_s,accel_x,accel_y,accel_z\n"
        for i in 0..<3000 {
            let t = start + Double(i) / 50
            let phase = (t * 2).truncatingRemainder(dividingBy: 1)
            let pulse = phase < 0.4 ? 0.5 * (1 - cos(2 * .pi * phase / 0.4)) : 0
            s += "\(t),0.1,0.2,\(9.81 + 3 * (pulse - 0.2))\n"
        }
        return s
    }

    @Test func stepsPrintsOneLinePerFile() throws {
        let path = try TestPaths.scratchFile(walkingCSV(), name: "walk.csv")
        let r = runCLI(["steps", path, path])
        #expect(r.code == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("\(path): "))
        // 120 steps in 60 s; allow the first/last to be lost at the edges.
        let n = Int(lines[0].split(separator: " ")[1]) ?? -1
        #expect((118...120).contains(n), "\(lines[0])")
        // Cadence from step times refined below the 40 ms grid: within half a step per minute of 120.
        let cadence = lines[0].split(separator: " ").firstIndex(of: "cadence").flatMap { Double(lines[0].split(separator: " ")[$0 + 1]) }
        #expect(cadence.map { abs($0 - 120) <= 0.5 } == true, "\(lines[0])")
    }

    @Test func stepsJSONHasDocumentedKeys() throws {
        let path = try TestPaths.scratchFile(walkingCSV(), name: "walk.csv")
        let r = runCLI(["steps", "--json", path])
        #expect(r.code == 0)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(Set(obj.keys) == ["schema", "file", "steps", "duration_s", "cadence_spm", "step_times_s", "cadence_series", "inferred_steps", "inferred_stretches"])
        let times = try #require(obj["step_times_s"] as? [Double])
        #expect(times.count == obj["steps"] as? Int)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        let series = try #require(obj["cadence_series"] as? [[String: Double]])
        #expect(series.count >= 6)
        #expect(series.dropFirst().dropLast().allSatisfy { $0["spm"] == 120 })
    }

    /// Times are on the recording's own clock (time_s, or timestamp_ns / 1e9), not from its first sample.
    @Test func stepsJSONTimesAreOnTheRecordingsClock() throws {
        let path = try TestPaths.scratchFile(walkingCSV(start: 1000.5), name: "walk.csv")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["steps", "--json", path]).out.utf8)) as? [String: Any])
        let times = try #require(obj["step_times_s"] as? [Double])
        #expect(times.count >= 118 && times.allSatisfy { $0 >= 1000.5 && $0 <= 1060.5 })
        let starts = try #require((obj["cadence_series"] as? [[String: Double]])?.compactMap { $0["start_s"] })
        #expect(starts.first == 1000 && starts.allSatisfy { $0.truncatingRemainder(dividingBy: 10) == 0 })
        // replay --json reports the same step times.
        let replay = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["replay", "--json", path]).out.utf8)) as? [String: Any])
        #expect(replay["step_times_s"] as? [Double] == times)
        // The bundled excerpt starts 150 s into its sequence; its steps are reported there.
        let bundled = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["steps", "--json", packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path]).out.utf8)) as? [String: Any])
        #expect((bundled["step_times_s"] as? [Double])?.first.map { $0 > 150 && $0 < 160 } == true)
    }

    @Test func corruptFileExitsOneWithLineNumber() throws {
        let path = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n0,0,0,9.8\n0.02,0,nan,9.8\n", name: "bad.csv")
        let r = runCLI(["steps", path])
        #expect(r.code == 1)
        #expect(r.err.hasPrefix("Error: "))
        #expect(r.err.contains("bad.csv:3:"), "\(r.err)")
    }

    @Test func missingFileArgumentIsAUsageError() {
        #expect(runCLI(["steps"]).code == 64)
    }

    @Test func unknownParameterIsAUsageError() throws {
        let path = try TestPaths.scratchFile(walkingCSV(), name: "walk.csv")
        let r = runCLI(["steps", path, "--param", "noSuchThing=1"])
        #expect(r.code == 64)
        #expect(r.err.contains("unknown parameter 'noSuchThing'"))
        #expect(runCLI(["steps", path, "--param", "minAmplitude=-1"]).code == 64)
    }

    @Test func evalWithoutManifestFails() {
        let r = runCLI(["eval", "steps", "/nonexistent-datasets-folder"])
        #expect(r.code == 1)
        #expect(r.err.contains("manifest.csv"))
    }

    @Test func evalRejectsAManifestWithoutStepSets() throws {
        let manifest = try TestPaths.scratchFile("path,activity,steps_true\nactivity/x.csv,walking,\n", name: "manifest.csv")
        let dir = (manifest as NSString).deletingLastPathComponent
        let r = runCLI(["eval", "steps", dir])
        #expect(r.code == 1)
        #expect(r.err.contains("no recordings for set"), "\(r.err)")
    }

    @Test func sweepsAreParsedAndBadOnesRejected() throws {
        let (name, values) = try EvalStepsCommand.parseSweep("minPeriodicity=0.8,0.9")
        #expect(name == "minPeriodicity" && values == [0.8, 0.9])
        for bad in ["minPeriodicity", "minPeriodicity=", "minPeriodicity=0.8,x", "bogus=1"] {
            #expect(throws: CLIError.self) { try EvalStepsCommand.parseSweep(bad) }
        }
    }

    @Test func anOutOfRangeTimeIsRefusedWithItsLine() throws {
        // Line 4's time is beyond the ±4e9 s (4e18 ns) range: the reader refuses it on its line.
        let path = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n0,0,0,9.8\n0.02,0,0,9.8\n5000000000,0,0,9.8\n", name: "far.csv")
        for args in [["steps", path], ["replay", path], ["wakes", path, "--rates", "1", "--latencies", "1"]] {
            let r = runCLI(args)
            #expect(r.code == 1 && r.out.isEmpty, "\(args)")
            #expect(r.err.hasPrefix("Error: \(path):4: column 1 (time_s): time \"5000000000\" s is out of range (allowed ±4000000000 s"), "\(args): \(r.err)")
        }
    }
}
