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
