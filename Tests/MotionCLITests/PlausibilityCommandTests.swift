import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI
@testable import MotionCore

/// The bundled real walk (50 Hz) as a hand-made export `t,ax,ay,az`: time × `time`, values ×
/// `accel` (m/s²), in a scratch file.
private func export(time: Double = 1, accel: Double = 1, name: String = "walk.csv") throws -> String {
    let walk = try Recording.read(path: TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path).samples
    let t0 = walk[0].timestamp
    var text = "t,ax,ay,az\n"
    for s in walk {
        let t = Double(s.timestamp - t0) / 1e9 * time
        text += "\(t),\(s.accel.x * accel),\(s.accel.y * accel),\(s.accel.z * accel)\n"
    }
    return try TestPaths.scratchFile(text, name: name)
}

private let columns = ["--columns", "time=t,x=ax,y=ay,z=az"]

/// Issue 25's plausible mistakes through the commands: a named warning with the fix on stderr,
/// an error with `--strict`; an empty recording fails unless `--allow-empty`.
struct PlausibilityCommandTests {
    /// Case 2: g read as m/s².
    @Test(arguments: ["steps", "activity", "replay"])
    func valuesInGAreQuestioned(command: String) throws {
        let path = try export(accel: 1 / AccelerationUnit.standardGravityValue)
        let r = runCLI([command, path] + columns + ["--time-unit", "s"])
        #expect(r.code == 0)
        #expect(r.err.contains("\(path):2: warning: the median |a| is"), "\(r.err)")
        #expect(r.err.contains("values look like g: add --accel-unit g"), "\(r.err)")
        let strict = runCLI([command, path, "--strict"] + columns + ["--time-unit", "s"])
        #expect(strict.code == 1)
        #expect(strict.out.isEmpty)
        #expect(strict.err.hasPrefix("Error: \(path):2: the median |a|"), "\(strict.err)")
        let fixed = runCLI([command, path, "--strict", "--accel-unit", "g"] + columns + ["--time-unit", "s"])
        #expect(fixed.code == 0, "\(fixed.err)")
        #expect(!fixed.err.contains("warning"), "\(fixed.err)")
    }

    /// Case 3: milliseconds given as seconds, and as microseconds.
    @Test(arguments: ["s", "us"])
    func aWrongTimeUnitIsQuestioned(given: String) throws {
        let path = try export(time: 1000)
        let r = runCLI(["steps", path] + columns + ["--time-unit", given])
        #expect(r.err.contains("warning: the sample rate is"), "\(r.err)")
        #expect(r.err.contains("time looks like milliseconds (50 Hz): --time-unit ms"), "\(r.err)")
        let fixed = runCLI(["steps", path, "--strict", "--time-unit", "ms"] + columns)
        #expect(fixed.code == 0, "\(fixed.err)")
        #expect(fixed.out.contains(" 126 steps (+2 inferred) in 80.0 s"), "\(fixed.out)")
    }

    /// Case 4: a raw layout without its SCALE (raw counts read as m/s²).
    @Test func rawCountsAreQuestioned() throws {
        let path = try export(accel: 4096 / AccelerationUnit.standardGravityValue)
        let r = runCLI(["steps", path] + columns + ["--time-unit", "s"])
        #expect(r.err.contains("values look like raw counts (about 4"), "\(r.err)")
    }

    /// Case 4 on a real raw buffer: a layout without SCALE, and the wrong byte order of the axes.
    @Test func rawLayoutMistakesAreQuestioned() throws {
        let bin = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Dialects/walk/iio-accel.bin").path
        let axes = { (order: String, scale: String) in ["x", "y", "z"].map { "accel_\($0):\(order):s16/16>>0\(scale)" }.joined(separator: ",") + ",timestamp:le:s64/64>>0" }
        let right = runCLI(["steps", bin, "--strict", "--layout", axes("le", ":0.0023942")])
        #expect(right.code == 0, "\(right.err)")
        let unscaled = runCLI(["steps", bin, "--layout", axes("le", "")])
        #expect(unscaled.err.contains("values look like raw counts (about 4"), "\(unscaled.err)")
        #expect(unscaled.err.contains("give each axis's SCALE in --layout"), "\(unscaled.err)")
        let swapped = runCLI(["steps", bin, "--layout", axes("be", ":0.0023942")])
        #expect(swapped.err.contains("check --layout's byte order (le/be) and SCALE"), "\(swapped.err)")
    }

    /// Case 5: a header and no rows, in several dialects, for every command that analyses or converts.
    @Test(arguments: [
        ("time_s,accel_x,accel_y,accel_z\n", [String]()),
        ("Time (ms),X,Y,Z,Total\n", []),
        ("Time (s),Acceleration x (m/s^2),Acceleration y (m/s^2),Acceleration z (m/s^2),Absolute acceleration (m/s^2)\n", []),
        ("t,ax,ay,az\n", ["--columns", "time=t,x=ax,y=ay,z=az", "--time-unit", "s"]),
    ])
    func anEmptyRecordingFailsUnlessAllowed(header: String, options: [String]) throws {
        let path = try TestPaths.scratchFile(header, name: "empty.csv")
        let out = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("out.csv").path
        for command in [["steps", path], ["activity", path], ["replay", path], ["convert", path, out], ["wakes", path, "--rates", "25", "--latencies", "1"]] {
            let r = runCLI(command + options)
            #expect(r.code == 1, "\(command): \(r.out) \(r.err)")
            #expect(r.err.contains("the recording holds no samples"), "\(command): \(r.err)")
            #expect(r.err.contains("--allow-empty"), "\(command): \(r.err)")
            #expect(!FileManager.default.fileExists(atPath: out), "convert writes nothing")
        }
        let allowed = runCLI(["steps", path, "--allow-empty"] + options)
        #expect(allowed.code == 0, "\(allowed.err)")
        #expect(allowed.err.contains("warning: the recording holds no samples"))
    }

    /// The current Bangle.js format in g (issue 25, case 1) through `steps`: the walk's steps.
    @Test func theCurrentBangleFormatCountsTheWalk() throws {
        let walk = try Recording.read(path: TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path).samples
        let t0 = walk[0].timestamp
        var text = "Time (ms),X,Y,Z,Total\n"
        let g = AccelerationUnit.standardGravityValue
        for s in walk {
            text += "\((s.timestamp - t0) / 1_000_000),\(s.accel.x / g),\(s.accel.y / g),\(s.accel.z / g),\(s.accel.magnitude / g)\n"
        }
        let path = try TestPaths.scratchFile(text, name: "accellog.csv")
        let r = runCLI(["steps", path, "--strict"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains(": 126 steps (+2 inferred) in 80.0 s"), "\(r.out)")
    }
}

/// The folder rule through `steps` (issue 25, case 6): each recording of a plain folder on its
/// own line, an export folder as one, two exports as two, the skipped entries listed.
struct FolderCommandTests {
    @Test func aFolderOfRecordingsAndAnExportIsEachOfThem() throws {
        let dir = try TestPaths.makeScratchDirectory().appendingPathComponent("walks").path
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path
        for i in 0..<13 { try fm.copyItem(atPath: walk, toPath: dir + String(format: "/w%02d.csv", i)) }
        let ios = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Dialects/walk/sensor-logger-ios").path
        try fm.copyItem(atPath: ios, toPath: dir + "/export")
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: dir + "/README.txt"))
        let r = runCLI(["steps", dir])
        #expect(r.code == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 14, "\(r.out)")
        #expect(lines.first?.hasPrefix(dir + "/export: 5 steps") == true, "\(r.out)")
        #expect(lines.dropFirst().allSatisfy { $0.contains(": 126 steps (+2 inferred) in 80.0 s") })
        #expect(r.err.contains("\(dir): skipped 1 entry: README.txt (not a recording MotionBatch recognises)"), "\(r.err)")

        let two = try TestPaths.makeScratchDirectory().path
        try fm.copyItem(atPath: ios, toPath: two + "/a")
        try fm.copyItem(atPath: ios, toPath: two + "/b")
        let t = runCLI(["steps", two])
        #expect(t.code == 0, "\(t.err)")
        // Each export is one recording, counted as on its own.
        let a = runCLI(["steps", two + "/a"]), b = runCLI(["steps", two + "/b"])
        #expect(a.out.hasPrefix("\(two)/a: 5 steps in 4.0 s, cadence "), "\(a.out)")
        #expect(t.out == a.out + b.out, "\(t.out) \(t.err)")
    }
}
