import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI

/// `motionbatch epochs` (per day, hour, minute; CSV, JSON, text), `--merge` of shard outputs, and
/// what every multi-file command shares: `--jobs` (results in input order) and `--shard I/N`.
struct EpochsCommandTests {
    /// `seconds` of synthetic walking at 2 steps/s, 25 Hz, plain dataset CSV, its clock starting at `start` s.
    static func walkingCSV(start: Double = 0, seconds: Int = 150) -> String {
        var s = "time_s,accel_x,accel_y,accel_z\n"
        for i in 0..<(seconds * 25) {
            let t = start + Double(i) / 25
            let phase = (t * 2).truncatingRemainder(dividingBy: 1)
            let pulse = phase < 0.4 ? 0.5 * (1 - cos(2 * .pi * phase / 0.4)) : 0
            s += "\(t),0.1,0.2,\(9.81 + 3 * (pulse - 0.2))\n"
        }
        return s
    }

    /// A folder of recordings: five walks starting at different times, one with a comma in its name.
    static func folder() throws -> URL {
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-epochs")
        for (i, name) in ["d.csv", "a.csv", "c,1.csv", "b.csv", "e.csv"].enumerated() {
            try walkingCSV(start: Double(i) * 70, seconds: 100 + 20 * i).write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test func csvAndJSONAgreePerMinute() throws {
        let dir = try Self.folder()
        let csv = runCLI(["epochs", "--per", "minute", "--csv", dir.path])
        #expect(csv.code == 0, "\(csv.err)")
        let lines = csv.out.split(separator: "\n")
        #expect(lines.first.map(String.init) == EpochsCommand.csvColumns.joined(separator: ","))
        let json = runCLI(["epochs", "--per", "minute", "--json", dir.path])
        #expect(json.code == 0, "\(json.err)")
        let objects = try json.out.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.count == 5)
        #expect(objects.map { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == ["a.csv", "b.csv", "c,1.csv", "d.csv", "e.csv"])
        let epochs = objects.flatMap { ($0["epochs"] as? [[String: Any]]) ?? [] }
        #expect(epochs.count == lines.count - 1)
        // Every walk is counted: about 2 steps/s over its whole length, split over its minutes.
        for o in objects {
            let steps = ((o["epochs"] as? [[String: Any]]) ?? []).reduce(0) { $0 + (($1["steps"] as? Int) ?? 0) }
            #expect(steps > 150, "\(o["file"] ?? "")")
            #expect(o["schema"] as? Int == 1)
            #expect(o["clock"] as? String == "relative")
        }
        #expect(lines.dropFirst().contains { $0.hasPrefix("\"") && $0.contains("c,1.csv\"") })
    }

    @Test func shardsMergedEqualOneRun() throws {
        let dir = try Self.folder()
        for format in ["--csv", "--json"] {
            let whole = runCLI(["epochs", "--per", "minute", format, dir.path])
            #expect(whole.code == 0, "\(whole.err)")
            var parts: [String] = []
            var seen = 0
            for i in 0..<3 {
                let r = runCLI(["epochs", "--per", "minute", format, "--shard", "\(i)/3", dir.path])
                #expect(r.code == 0, "\(r.err)")
                let path = dir.appendingPathComponent("shard-\(i)\(format == "--csv" ? ".out.csv" : ".out.json")")
                try r.out.write(to: path, atomically: true, encoding: .utf8)
                parts.append(path.path)
                seen += Set(r.out.split(separator: "\n").compactMap { $0.split(separator: ",").first }).count
            }
            // Written after the runs so that they are not inputs of the runs above.
            let merged = runCLI(["epochs", "--merge"] + parts.reversed())
            #expect(merged.code == 0, "\(merged.err)")
            #expect(merged.out == whole.out, "\(format)")
            for p in parts { try FileManager.default.removeItem(atPath: p) }
        }
    }

    @Test func mergeRefusesWhatWouldBeWrong() throws {
        let dir = try Self.folder()
        let a = runCLI(["epochs", "--csv", "--shard", "0/2", dir.path]).out
        let b = runCLI(["epochs", "--csv", "--shard", "1/2", dir.path]).out
        let scratch = try TestPaths.makeScratchDirectory(prefix: "motionbatch-merge")
        func file(_ name: String, _ text: String) throws -> String {
            let p = scratch.appendingPathComponent(name).path
            try text.write(toFile: p, atomically: true, encoding: .utf8)
            return p
        }
        let pa = try file("a.csv", a), pb = try file("b.csv", b)
        // The same shard twice: a recording in two outputs.
        let twice = runCLI(["epochs", "--merge", pa, pa])
        #expect(twice.code == 1)
        #expect(twice.err.contains("in one output only") || twice.err.contains("two outputs"), "\(twice.err)")
        // Rows out of byte order.
        var rows = b.split(separator: "\n").map(String.init)
        rows = [rows[0]] + rows.dropFirst().reversed()
        let unordered = runCLI(["epochs", "--merge", pa, try file("r.csv", rows.joined(separator: "\n") + "\n")])
        #expect(unordered.code == 1)
        #expect(unordered.err.contains("byte order"), "\(unordered.err)")
        // Different headers; CSV with JSON.
        let other = runCLI(["epochs", "--merge", pa, try file("h.csv", "file,x\n")])
        #expect(other.code == 1 && other.err.contains("header"), "\(other.err)")
        let json = runCLI(["epochs", "--json", "--shard", "1/2", dir.path]).out
        let mixed = runCLI(["epochs", "--merge", pa, try file("j.json", json)])
        #expect(mixed.code == 1 && mixed.err.contains("one kind"), "\(mixed.err)")
        #expect(runCLI(["epochs", "--merge", pa, pb]).code == 0)
        #expect(runCLI(["epochs", "--merge", "--per", "hour", pa]).code == 64)
    }

    @Test(arguments: ["steps", "activity", "replay", "epochs"])
    func jobsKeepTheInputOrderAndReportAFailure(command: String) throws {
        let dir = try Self.folder()
        try "time_s,accel_x,accel_y,accel_z\n0,1,2,x\n".write(to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let one = runCLI([command, "--jobs", "1", dir.path])
        let two = runCLI([command, "--jobs", "3", dir.path])
        #expect(one.code == 1 && two.code == 1)
        #expect(one.out == two.out)
        #expect(one.err == two.err)
        #expect(two.err.contains("bad.csv"), "\(two.err)")
        #expect(two.err.contains("1 of 6 files failed"), "\(two.err)")
        #expect(two.out.contains("e.csv"))
    }

    @Test func shardSelectsByBytePositionModuloN() throws {
        let dir = try Self.folder()
        let paths = ["e.csv", "a.csv", "c,1.csv"].map { dir.appendingPathComponent($0).path }
        // Byte order: a.csv, c,1.csv, e.csv; shard 1/2 keeps index 1: c,1.csv.
        let r = runCLI(["steps", "--shard", "1/2"] + paths)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.split(separator: "\n").count == 1)
        #expect(r.out.hasPrefix(paths[2] + ":"), "\(r.out)")
        let all = (0..<4).map { runCLI(["steps", "--shard", "\($0)/4", dir.path]).out.split(separator: "\n").count }
        #expect(all.reduce(0, +) == 5)
        // convert takes --shard too: byte order a, b, "c,1", d, e; 1/2 keeps b and d.
        let out = try TestPaths.makeScratchDirectory(prefix: "motionbatch-convert-shard").appendingPathComponent("out")
        let c = runCLI(["convert", "--shard", "1/2", dir.path, out.path])
        #expect(c.code == 0, "\(c.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["b.csv", "d.csv"])
        #expect(runCLI(["steps", "--shard", "4/4", dir.path]).code == 64)
        #expect(runCLI(["steps", "--shard", "0/4", "-"]).code == 64)
        #expect(runCLI(["steps", "--jobs", "0", dir.path]).code == 64)
    }

    @Test func usageErrors() throws {
        let dir = try Self.folder()
        #expect(runCLI(["epochs", "--per", "week", dir.path]).code == 64)
        #expect(runCLI(["epochs", "--per", "hour", "--min-wear-hours", "10", dir.path]).code == 64)
        #expect(runCLI(["epochs", "--nonwear-window", "50", dir.path]).code == 64)
        #expect(runCLI(["epochs", "--nonwear-sd", "0", dir.path]).code == 64)
        #expect(runCLI(["epochs", "--json", "--csv", dir.path]).code == 64)
    }

    /// A device file whose zone is known: days start at the device's local midnight, labelled with its offset.
    @Test(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
    func deviceFileDaysAreLocal() throws {
        let path = TestPaths.datasetsRoot + "/devices/actigraph/neo.gt3x"
        let r = runCLI(["epochs", "--json", path])
        #expect(r.code == 0, "\(r.err)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(o["clock"] as? String == "utc")
        #expect(o["utc_offset_s"] as? Int == -21_600)
        let epochs = try #require(o["epochs"] as? [[String: Any]])
        #expect(epochs.count == 1)
        #expect(epochs.first?["start"] as? String == "2021-12-20T00:00:00-06:00")
        #expect(epochs.first?["samples"] as? Int == 18_004)
        #expect(o["valid_days"] as? Int == 0)
    }

    /// The JSON validates against docs/schemas/epochs.schema.json for every epoch length, and a
    /// changed version does not.
    @Test(arguments: ["day", "hour", "minute"])
    func jsonValidatesAgainstItsSchema(per: String) throws {
        guard (try? TestProcess.run(["/bin/sh", "-c", "python3 -c 'import jsonschema, referencing'"]))?.status == 0 else { return }
        let dir = try Self.folder()
        let r = runCLI(["epochs", "--json", "--per", per, dir.path, TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user05-mixed.csv").path])
        #expect(r.code == 0, "\(r.err)")
        let validator = TestPaths.packageRoot.appendingPathComponent("scripts/validate-json.py").path
        let path = try TestPaths.scratchFile(r.out, name: "epochs.ndjson")
        let v = try TestProcess.run(["/usr/bin/env", "python3", validator, "epochs", path])
        #expect(v.status == 0, "\(v.err)")
        let wrong = try TestPaths.scratchFile(r.out.replacingOccurrences(of: "\"schema\":1", with: "\"schema\":2"), name: "wrong.ndjson")
        #expect(try TestProcess.run(["/usr/bin/env", "python3", validator, "epochs", wrong]).status == 1)
    }

    /// `--calibrate` on a device held still in 24 orientations with a known distortion applies the
    /// fit (stderr and JSON say so); on a walk it is not applied and says why.
    @Test func calibrateAppliesOnlyWhenTheSphereIsCovered() throws {
        var s = "time_s,accel_x,accel_y,accel_z\n"
        let n = 24
        var t = 0.0
        for i in 0..<n {
            let z = 1 - 2 * (Double(i) + 0.5) / Double(n), r = (1 - z * z).squareRoot(), phi = Double(i) * 2.399963229728653
            let p = [r * cos(phi) / 1.03 - 0.04, r * sin(phi) / 0.97 + 0.02, z - 0.03]
            for j in 0..<(30 * 25) {
                let noise = Double(j % 3 - 1) * 0.002
                s += "\(t),\((p[0] + noise) * 9.80665),\(p[1] * 9.80665),\(p[2] * 9.80665)\n"
                t += 0.04
            }
        }
        let still = try TestPaths.scratchFile(s, name: "turned.csv")
        let r = runCLI(["epochs", "--calibrate", "--json", still])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("auto-calibration applied"), "\(r.err)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let c = try #require(o["calibration"] as? [String: Any])
        #expect(c["applied"] as? Bool == true)
        let offsets = try #require(c["offset_g"] as? [Double])
        #expect(abs(offsets[0] - 0.04) < 0.005 && abs(offsets[1] + 0.02) < 0.005 && abs(offsets[2] - 0.03) < 0.005, "\(offsets)")
        let walk = try TestPaths.scratchFile(Self.walkingCSV(), name: "walk.csv")
        let w = runCLI(["epochs", "--calibrate", "--json", walk])
        #expect(w.code == 0)
        #expect(w.err.contains("auto-calibration not applied"), "\(w.err)")
        let plain = runCLI(["epochs", "--json", walk])
        #expect(plain.out.contains("\"calibration\":null"))
    }

    /// Ctrl-C during `--jobs 2` ends every job, and stdout holds only whole files' rows: each file
    /// that appears has exactly the rows a complete run gives it.
    @Test func interruptLeavesOnlyWholeFiles() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-interrupt")
        for i in 0..<60 {
            try Self.walkingCSV(start: Double(i), seconds: 240).write(to: dir.appendingPathComponent(String(format: "w%02d.csv", i)), atomically: true, encoding: .utf8)
        }
        let complete = runCLI(["epochs", "--per", "minute", "--csv", "--jobs", "2", dir.path])
        #expect(complete.code == 0)
        var rowsOf: [String: [Substring]] = [:]
        for line in complete.out.split(separator: "\n").dropFirst() { rowsOf[String(line.split(separator: ",")[0]), default: []].append(line) }
        let logs = try TestPaths.makeScratchDirectory(prefix: "motionbatch-interrupt-logs")
        let child = try TestProcess.spawn([TestProcess.motionbatch, "epochs", "--per", "minute", "--csv", "--jobs", "2", dir.path], logs: logs.path)
        // Interrupt once some results are out.
        let outFile = logs.appendingPathComponent("child.out").path
        let deadline = Date().addingTimeInterval(60)
        func printed() -> Int { (try? String(contentsOfFile: outFile, encoding: .utf8))?.split(separator: "\n").count ?? 0 }
        while child.isRunning && printed() < 8 && Date() < deadline { usleep(5_000) }
        child.kill(SIGINT)
        let r = child.wait()
        #expect(r.signal == SIGINT, "status \(String(describing: r.status)), signal \(String(describing: r.signal))")
        var seen: [String: [Substring]] = [:]
        for line in r.out.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() where !line.isEmpty {
            seen[String(line.split(separator: ",")[0]), default: []].append(line)
        }
        #expect(!seen.isEmpty && seen.count < rowsOf.count, "\(seen.count) of \(rowsOf.count) files printed")
        for (file, rows) in seen { #expect(rows == rowsOf[file], "\(file): \(rows.count) of \(rowsOf[file]?.count ?? 0) rows") }
        #expect(r.out.isEmpty || r.out.last == "\n")
    }
}
