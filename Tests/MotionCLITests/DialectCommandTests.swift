import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI
import MotionCore

/// Where python3 is (the export script is offline tooling: its tests are skipped without it).
private let python3: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// The files `scripts/export-dialects.py` writes, each with the options a user gives to read it.
private let exportedDialects: [(file: String, options: [String])] = [
    ("phyphox-comma.csv", []), ("phyphox-tab-comma.csv", []), ("phyphox-semicolon-comma.csv", []),
    ("phyphox.zip", []), ("phyphox-comma.csv.gz", []),
    ("sensor-logger-android.zip", []), ("sensor-logger-ios", []),
    ("bangle-accellog.csv", []), ("bangle-accellog.csv.gz", []),
    ("iio-accel.bin", ["--layout", "{dir}/iio-devices.json"]), ("iio-accel.bin.gz", ["--layout", "{dir}/iio-devices.json"]),
]

/// Runs the export script on `source` into a new folder; returns the folder.
private func exportDialects(_ source: String, defects: Bool) throws -> String {
    let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-dialects").path
    let script = TestPaths.packageRoot.appendingPathComponent("scripts/export-dialects.py").path
    let r = try TestProcess.run([try #require(python3), script, source, dir] + (defects ? ["--defects"] : []))
    try #require(r.status == 0, "export-dialects.py failed: \(r.err)")
    return dir
}

/// `steps --json`'s count for the arguments.
private func stepCount(_ args: [String]) throws -> Int {
    let r = runCLI(["steps", "--json"] + args)
    try #require(r.code == 0, "steps \(args): \(r.err)")
    let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    return try #require(o["steps"] as? Int)
}

/// Every dialect's copy of `source` gives its step count within 1 %; returns the counts.
private func expectSameSteps(_ source: String, defects: Bool) throws -> [String: Int] {
    let reference = try stepCount([source])
    try #require(reference > 50, "the walk has \(reference) steps")
    let dir = try exportDialects(source, defects: defects)
    var counts: [String: Int] = ["source": reference]
    var all = exportedDialects
    let columns = try String(contentsOfFile: dir + "/columns.args", encoding: .utf8).split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
    all.append(("columns.csv", columns))
    for (file, options) in all {
        let n = try stepCount([dir + "/" + file] + options.map { $0.replacingOccurrences(of: "{dir}", with: dir) })
        counts[file] = n
        #expect(abs(n - reference) * 100 <= reference, "\(file): \(n) steps, \(reference) in the source (defects: \(defects))")
    }
    return counts
}

/// Issue 16: the step count of a walk does not depend on the dialect that carries it.
@Suite(.serialized, .enabled(if: python3 != nil, "python3 not found (scripts/export-dialects.py writes the dialects)"))
struct DialectStepCountTests {
    static let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path

    @Test(arguments: [false, true])
    func theBundledWalkCountsTheSameInEveryDialect(defects: Bool) throws {
        _ = try expectSameSteps(Self.walk, defects: defects)
    }

    /// A real walk from the datasets (Oxford, ~200 Hz irregular, 323 steps by foot switches), with the
    /// defects of phone logs in the Sensor Logger and Bangle copies.
    @Test(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
    func aDatasetWalkCountsTheSameInEveryDialect() throws {
        _ = try expectSameSteps(TestPaths.datasetsRoot + "/steps/oxford/Pixel_Jamie_Hard_InHand_3.csv", defects: true)
    }
}

/// Commands on the dialects: convert, standard input, several files.
@Suite struct DialectCommandTests {
    static func fixture(_ name: String) -> String {
        TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Dialects/" + name).path
    }

    /// What `convert` writes from any dialect reads back cleanly (strictly, no warning), with the
    /// same samples and a `source:` line naming the original file and format.
    @Test(arguments: [("walk/phyphox-semicolon-comma.csv", "phyphox"), ("walk/sensor-logger-android.zip", "sensor-logger, zip"),
                      ("walk/sensor-logger-ios", "sensor-logger, folder"), ("walk/bangle-accellog.csv.gz", "bangle, gzip"),
                      ("defects/plain.csv", "plain CSV")])
    func convertFromAnyDialectReadsBackCleanly(path: String, format: String) throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let input = Self.fixture(path)
        let r = runCLI(["convert", input, dir + "/out.csv"])
        try #require(r.code == 0, "\(r.err)")
        let back = try Recording.read(path: dir + "/out.csv")
        #expect(back.warnings.isEmpty && back.header.format == .current)
        #expect(back.header.metadata["source"] == "file:\(URL(fileURLWithPath: input).lastPathComponent) (\(format))", "\(back.header.metadata)")
        let reader = try RecordingReader(path: input)
        var direct: [Sample] = []
        while let chunk = try reader.next() { direct += chunk.samples }
        #expect(back.samples == direct)
    }

    /// `-` is standard input for every dialect, gzip and zip included (the zip is spooled).
    @Test(arguments: ["walk/phyphox-tab-comma.csv", "walk/bangle-accellog.csv.gz", "walk/sensor-logger-android.zip"])
    func standardInputIsReadInEveryDialect(path: String) throws {
        let file = Self.fixture(path)
        let piped = try TestProcess.run(["cat '\(file)' |", TestProcess.motionbatch, "steps", "-", "--json"], shell: true)
        #expect(piped.status == 0, "\(piped.err)")
        let direct = runCLI(["steps", file, "--json"])
        // The same result but for the file's name, `-`.
        #expect(piped.out.hasPrefix("{\"schema\":1,\"file\":\"-\","), "\(piped.out)")
        #expect(piped.out.replacingOccurrences(of: "\"file\":\"-\"", with: "") == direct.out.replacingOccurrences(of: "\"file\":\(JSONValue.quoted(file))", with: ""))
    }

    /// Several files: each processed, a bad one reported with its line, exit 1 at the end.
    @Test func severalFilesAreEachProcessedAndFailuresReportedPerFile() throws {
        let good = Self.fixture("walk/bangle-accellog.csv"), bad = Self.fixture("malformed/bangle-short-row.csv"), other = Self.fixture("walk/phyphox.zip")
        for command in ["steps", "replay"] {
            let r = runCLI([command, good, bad, other, "--json"])
            #expect(r.code == 1, "\(command)")
            #expect(r.out.contains(JSONValue.quoted(good)) && r.out.contains(JSONValue.quoted(other)) && !r.out.contains(JSONValue.quoted(bad)), "\(command)")
            #expect(r.err.contains("Error: \(bad):3: column 4 (Z): expected 4 fields"), "\(r.err)")
            #expect(r.err.contains("1 of 3 files failed"), "\(r.err)")
        }
    }

    /// JSON times are on the recording's own clock: Sensor Logger's epoch, not seconds from the start.
    @Test func stepTimesAreOnTheRecordingsOwnClock() throws {
        let r = runCLI(["steps", Self.fixture("walk/sensor-logger-android.zip"), "--json"])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let times = try #require(o["step_times_s"] as? [Double])
        #expect(!times.isEmpty && times.allSatisfy { $0 > 1_714_564_800 && $0 < 1_714_564_804 }, "\(times)")
    }

    /// Warnings in `--json`: one object per kind, as documented (docs/dialects.md).
    @Test func warningsAreObjectsPerKind() throws {
        let r = runCLI(["replay", Self.fixture("defects/plain.csv"), "--json"])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let warnings = try #require(o["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["kind"] as? String } == ["duplicate-row", "equal-timestamps", "backward-step"])
        #expect(warnings.map { $0["first_lines"] as? [Int] } == [[4], [6], [8]])
        #expect(warnings.allSatisfy { Set($0.keys) == ["kind", "file", "count", "first_lines", "message"] })
        #expect(r.err.split(separator: "\n").filter { $0.contains("warning:") }.count == 3)
    }
}
