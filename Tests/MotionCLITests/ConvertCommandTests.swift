import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI
import MotionCore

/// A fresh temporary directory for one test.
private func scratch() throws -> String {
    try TestPaths.makeScratchDirectory(prefix: "motionbatch-cli").path
}

private let plainSample = """
time_s,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z,label
0,9.00305,-1.10325,4.99867,-0.05498,-0.06964,-0.03085,
0.02,8.93495,-0.91257,5.27107,-0.01252,0.01924,-0.03848,walking
0.04,8.64892,-0.84446,5.03953,-0.02352,0.27642,0.00641,walking
0.06,8.64892,-0.84446,5.03953,-0.09346,0.36774,0.00122,sitting

"""

@Suite struct ConvertCommandTests {
    @Test func plainToOwnAndBackIsLossless() throws {
        let dir = try scratch()
        try plainSample.write(toFile: dir + "/in.csv", atomically: false, encoding: .utf8)
        let r1 = runCLI(["convert", dir + "/in.csv", dir + "/own.csv", "--set", "device=phone"])
        #expect(r1.code == 0, "\(r1.err)")
        #expect(r1.out.isEmpty && r1.err.contains("Wrote 4 samples"), "status goes to stderr")
        let own = try Recording.read(path: dir + "/own.csv")
        #expect(own.header.format == .current)
        #expect(own.header.metadata["device"] == "phone")
        let r2 = runCLI(["convert", dir + "/own.csv", dir + "/back.csv", "--format", "plain"])
        #expect(r2.code == 0, "\(r2.err)")
        #expect(try String(contentsOfFile: dir + "/back.csv", encoding: .utf8) == plainSample)
    }

    @Test func excerptAndNoLabels() throws {
        let dir = try scratch()
        try plainSample.write(toFile: dir + "/in.csv", atomically: false, encoding: .utf8)
        let r = runCLI(["convert", dir + "/in.csv", dir + "/cut.csv", "--from", "0.02", "--to", "0.06", "--no-labels"])
        #expect(r.code == 0, "\(r.err)")
        let cut = try Recording.read(path: dir + "/cut.csv")
        #expect(cut.samples.map(\.timestamp) == [20_000_000, 40_000_000])
        #expect(cut.labels == nil)
    }

    @Test func refusesToOverwriteWithoutForce() throws {
        let dir = try scratch()
        try plainSample.write(toFile: dir + "/in.csv", atomically: false, encoding: .utf8)
        try "keep".write(toFile: dir + "/out.csv", atomically: false, encoding: .utf8)
        let r = runCLI(["convert", dir + "/in.csv", dir + "/out.csv"])
        #expect(r.code == 1)
        #expect(r.err.contains("File exists"))
        #expect(try String(contentsOfFile: dir + "/out.csv", encoding: .utf8) == "keep")
        #expect(runCLI(["convert", dir + "/in.csv", dir + "/out.csv", "--force"]).code == 0)
    }

    @Test func corruptInputExitsOneWithLineNumberedError() throws {
        let dir = try scratch()
        try "time_s,accel_x,accel_y,accel_z\n0,1,2,3\n0.1,1,x,3\n".write(toFile: dir + "/bad.csv", atomically: false, encoding: .utf8)
        let r = runCLI(["convert", dir + "/bad.csv", dir + "/out.csv"])
        #expect(r.code == 1)
        #expect(r.err == "Error: \(dir)/bad.csv:3: column 3 (accel_y): bad number \"x\"\n")
        #expect(r.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"), "partial output removed")
    }

    @Test(arguments: [["--format", "xml"], ["--set", "novalue"], ["--from", "2", "--to", "1"], ["--from", "-1"]])
    func badOptionsAreUsageErrors(_ extra: [String]) throws {
        let dir = try scratch()
        try plainSample.write(toFile: dir + "/in.csv", atomically: false, encoding: .utf8)
        let r = runCLI(["convert", dir + "/in.csv", dir + "/out.csv"] + extra)
        #expect(r.code == 64, "\(extra): \(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.csv"))
    }
}

/// `convert` and the folder rule (docs/dialects.md, "Folders"): an export folder is one recording;
/// a folder of recordings, or several IN, is each converted into the folder OUT.
@Suite struct ConvertFolderTests {
    static let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path
    static let ios = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Dialects/walk/sensor-logger-ios").path

    /// A folder `walks` holding a.csv, b.csv.gz (the bundled walk), an export folder, a note,
    /// and a sub-folder with c.csv.
    static func walks() throws -> String {
        let dir = try scratch() + "/walks"
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/day2", withIntermediateDirectories: true)
        try fm.copyItem(atPath: walk, toPath: dir + "/a.csv")
        let gz = try TestProcess.run(["/bin/sh", "-c", "\"$0\" convert \"$1\" - --format plain | gzip -c > \"$2\"", TestProcess.motionbatch, walk, dir + "/b.csv.gz"])
        #expect(gz.status == 0, "\(gz.err)")
        try fm.copyItem(atPath: ios, toPath: dir + "/ios-walk")
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        try fm.copyItem(atPath: walk, toPath: dir + "/day2/c.csv")
        return dir
    }

    /// The samples of the recording at `path`.
    static func samples(_ path: String) throws -> [Sample] { try Recording.read(path: path).samples }

    @Test func aFolderOfRecordingsIsEachConvertedIntoTheFolderOut() throws {
        let dir = try Self.walks()
        let out = try scratch() + "/converted"
        let r = runCLI(["convert", dir, out])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.isEmpty)
        #expect(r.err.contains("\(dir): skipped 2 entries: day2/ (a folder: --recursive searches it), notes.txt (not a recording MotionBatch recognises)"), "\(r.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names == ["a.csv", "b.csv", "ios-walk.csv"])
        let reference = try Self.samples(Self.walk)
        #expect(try Self.samples(out + "/a.csv") == reference)
        // b went through plain CSV (time_s with 9 decimals): the same timestamps.
        #expect(try Self.samples(out + "/b.csv").map(\.timestamp) == reference.map(\.timestamp))
        #expect(try Self.samples(out + "/ios-walk.csv") == Recording.read(path: Self.ios).samples)
        for name in names { #expect(r.err.contains("to \(out)/\(name) (MotionBatch format"), "\(name): \(r.err)") }
        #expect(try Recording.read(path: out + "/ios-walk.csv").header.metadata[RecordingKey.source]?.contains("file:ios-walk (sensor-logger, folder)") == true)

        // Again: each existing output is refused (reported, the others tried), --force replaces them.
        let again = runCLI(["convert", dir, out])
        #expect(again.code == 1)
        #expect(again.err.contains("\(out)/a.csv: File exists; pass --force to replace it."), "\(again.err)")
        #expect(again.err.contains("3 of 3 files failed"), "\(again.err)")
        #expect(runCLI(["convert", dir, out, "--force"]).code == 0)

        // --recursive: the sub-folder's recordings, below their sub-folder in OUT.
        let deep = try scratch() + "/deep"
        let rec = runCLI(["convert", dir, deep, "--recursive", "--format", "plain", "--no-labels"])
        #expect(rec.code == 0, "\(rec.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: deep + "/day2") == ["c.csv"])
        #expect(try String(contentsOfFile: deep + "/day2/c.csv", encoding: .utf8).hasPrefix("time_s,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z\n"))
    }

    @Test func severalFilesAndAnExportAlone() throws {
        let dir = try Self.walks()
        // Several IN: each by its name into OUT.
        let out = try scratch() + "/out"
        let r = runCLI(["convert", dir + "/a.csv", dir + "/day2/c.csv", dir + "/ios-walk", out])
        #expect(r.code == 0, "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["a.csv", "c.csv", "ios-walk.csv"])
        // An export folder alone is one recording: OUT is a file, as before.
        let file = try scratch() + "/ios.csv"
        let e = runCLI(["convert", dir + "/ios-walk", file])
        #expect(e.code == 0, "\(e.err)")
        #expect(try Self.samples(file) == Recording.read(path: Self.ios).samples)
    }

    @Test func aFailingRecordingIsReportedAndTheOthersConverted() throws {
        let dir = try Self.walks()
        try "time_s,accel_x,accel_y,accel_z\n0,1,2,3\n0.1,1,x,3\n".write(toFile: dir + "/bad.csv", atomically: false, encoding: .utf8)
        let out = try scratch() + "/out"
        let r = runCLI(["convert", dir, out])
        #expect(r.code == 1)
        #expect(r.err.contains("Error: \(dir)/bad.csv:3: column 3 (accel_y): bad number \"x\""), "\(r.err)")
        #expect(r.err.contains("1 of 4 files failed: \(dir)/bad.csv"), "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["a.csv", "b.csv", "ios-walk.csv"], "nothing of bad.csv")
    }

    /// OUT a file or '-', '-' among several IN: usage errors; two inputs with one output name, or
    /// an output that is an input: failures; in every case nothing is written.
    @Test func wrongOutputsAreRefusedBeforeAnythingIsWritten() throws {
        let dir = try Self.walks()
        let file = try TestPaths.scratchFile("keep", name: "out.csv")
        let usage = [
            (["convert", dir, file], "OUT must be a folder when converting several recordings (3 recordings): \(file) is a file."),
            (["convert", dir, "-"], "OUT must be a folder when converting several recordings (3 recordings), not '-' (standard output)."),
            (["convert", "-", dir + "/a.csv", try scratch() + "/o"], "'-' (standard input) is converted alone"),
        ]
        for (args, message) in usage {
            let r = runCLI(args)
            #expect(r.code == 64, "\(args): \(r.err)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
            #expect(r.out.isEmpty)
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep")

        try FileManager.default.copyItem(atPath: Self.walk, toPath: dir + "/b.zip.csv")
        try FileManager.default.copyItem(atPath: Self.walk, toPath: dir + "/b.zip")
        let out = try scratch() + "/out"
        let twice = runCLI(["convert", dir + "/a.csv", dir + "/b.csv.gz", dir + "/day2/c.csv", dir + "/a.csv", out])
        #expect(twice.code == 1)
        #expect(twice.err == "Error: \(dir)/a.csv and \(dir)/a.csv would both be written to \(out)/a.csv; convert them into different folders.\n", "\(twice.err)")
        let named = runCLI(["convert", dir + "/b.csv.gz", dir + "/b.zip", out])
        #expect(named.code == 1 && named.err.contains("would both be written to \(out)/b.csv"), "\(named.err)")
        #expect(!FileManager.default.fileExists(atPath: out), "OUT is not created")

        // OUT is the input folder: a.csv would be written over itself.
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.csv"))
        let same = runCLI(["convert", dir + "/a.csv", dir + "/day2/c.csv", dir, "--force"])
        #expect(same.code == 1)
        #expect(same.err.contains("\(dir)/a.csv is the input \(dir)/a.csv itself"), "\(same.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.csv")) == before)
        #expect(!FileManager.default.fileExists(atPath: dir + "/c.csv"), "nothing written")
    }

    @Test func outputNamesReplaceTheExtension() {
        let names = [("walk.csv", "walk.csv"), ("walk.csv.gz", "walk.csv"), ("day1/walk.zip", "day1/walk.csv"), ("a.b/walk", "a.b/walk.csv"),
                     ("log.BIN.GZ", "log.csv"), (".hidden", ".hidden.csv"), ("rec.cwa", "rec.csv")]
        for (relative, expected) in names {
            #expect(ConvertPlan.outputName(EachFile.Input(path: "d/" + relative, argument: "d", relative: relative)) == expected, "\(relative)")
        }
        #expect(ConvertPlan.outputName(EachFile.Input(path: "x/ios-walk/", argument: "x/ios-walk/")) == "ios-walk.csv")
    }
}

@Suite struct BenchCommandTests {
    @Test func benchParseReportsFiguresAsJSON() throws {
        let dir = try scratch()
        try plainSample.write(toFile: dir + "/in.csv", atomically: false, encoding: .utf8)
        let r = runCLI(["bench", "parse", dir + "/in.csv", "--json", "--repeat", "2"])
        #expect(r.code == 0, "\(r.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(json["samples"] as? Int == 4)
        #expect(json["bytes"] as? Int == plainSample.utf8.count)
        #expect((json["mb_per_s"] as? Double ?? 0) > 0)
        #expect((json["peak_rss_mib"] as? Double ?? 0) > 0)
        #expect(json["runs"] as? Int == 2)
    }

    @Test func benchIsAGroupWithParse() {
        let r = runCLI(["bench"])
        #expect(r.out.contains("parse"))
        #expect(runCLI(["bench", "prase", "x"]).err.contains("Did you mean 'parse'?"))
    }
}
