import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI
import MotionCore

#if canImport(Glibc)
import Glibc
#endif

/// A plain CSV of `rows` rows (about 40 bytes each).
func plainRecording(rows: Int) -> String {
    var s = "time_s,accel_x,accel_y,accel_z\n"
    s.reserveCapacity(rows * 40)
    for i in 0..<rows { s += "\(i / 1000).\(String(i % 1000).leftPadded(3)),0.\(i % 97),-0.5,9.81\n" }
    return s
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}

/// The files of `dir`, sorted.
private func files(_ dir: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir).sorted() }

/// Issue 13: `convert` never destroys its input, never leaves a partial or interleaved output.
@Suite struct ConvertReliabilityTests {
    @Test(arguments: ["./same", "hardlink", "symlink"])
    func outputThatIsTheInputIsRefusedAndTheInputSurvives(kind: String) throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let text = plainRecording(rows: 2000)
        try text.write(toFile: dir + "/w.csv", atomically: false, encoding: .utf8)
        var out = dir + "/w.csv"
        switch kind {
        case "./same": out = dir + "/./w.csv"
        case "hardlink": #expect(link(dir + "/w.csv", dir + "/l.csv") == 0); out = dir + "/l.csv"
        default: #expect(symlink("w.csv", dir + "/s.csv") == 0); out = dir + "/s.csv"
        }
        let r = runCLI(["convert", dir + "/w.csv", out, "--force"])
        #expect(r.code == 1)
        #expect(r.err.contains("is the input file") && r.err.contains("same file: device"), "\(r.err)")
        #expect(try String(contentsOfFile: dir + "/w.csv", encoding: .utf8) == text, "input intact")
        #expect(try files(dir).allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test func aMalformedInputLeavesAnExistingOutputUntouched() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        try (plainRecording(rows: 3000) + "3.5,1,x,3\n").write(toFile: dir + "/bad.csv", atomically: false, encoding: .utf8)
        try "keep".write(toFile: dir + "/out.csv", atomically: false, encoding: .utf8)
        let r = runCLI(["convert", dir + "/bad.csv", dir + "/out.csv", "--force"])
        #expect(r.code == 1 && r.err.contains("bad.csv:3002: column 3 (accel_y): bad number \"x\""), "\(r.err)")
        #expect(try String(contentsOfFile: dir + "/out.csv", encoding: .utf8) == "keep")
        #expect(try files(dir) == ["bad.csv", "out.csv"], "no temporary file left")
    }

    @Test func aSymlinkedOutputKeepsItsLink() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        try plainRecording(rows: 10).write(toFile: dir + "/in.csv", atomically: false, encoding: .utf8)
        try "old".write(toFile: dir + "/real.csv", atomically: false, encoding: .utf8)
        #expect(symlink("real.csv", dir + "/out.csv") == 0)
        let r = runCLI(["convert", dir + "/in.csv", dir + "/out.csv", "--force"])
        #expect(r.code == 0, "\(r.err)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/out.csv")) == "real.csv")
        #expect(try Recording.read(path: dir + "/real.csv").samples.count == 10)
    }

    @Test func withoutForceAnExistingOutputIsNamed() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        try plainRecording(rows: 10).write(toFile: dir + "/in.csv", atomically: false, encoding: .utf8)
        try "keep".write(toFile: dir + "/out.csv", atomically: false, encoding: .utf8)
        let r = runCLI(["convert", dir + "/in.csv", dir + "/out.csv"])
        #expect(r.code == 1 && r.err == "Error: \(dir)/out.csv: File exists; pass --force to replace it.\n")
    }

    @Test func standardOutputIsAStream() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        try plainRecording(rows: 50).write(toFile: dir + "/in.csv", atomically: false, encoding: .utf8)
        let r = try TestProcess.run([TestProcess.motionbatch, "convert", dir + "/in.csv", "-", "--format", "plain"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("Wrote 50 samples") && r.err.contains("to standard output"))
        #expect(try files(dir) == ["in.csv"], "no file named '-'")
        // The data alone on stdout: it reads back as the input.
        try r.out.write(toFile: dir + "/stdout.csv", atomically: false, encoding: .utf8)
        #expect(try Recording.read(path: dir + "/stdout.csv").samples == (try Recording.read(path: dir + "/in.csv").samples))
    }

    /// SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ (sent, and SIGXFSZ from a file size limit)
    /// during a conversion: the process ends by the signal, no temporary file remains, and the
    /// previous output is untouched.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ, 0])
    func signalsLeaveNoPartialOutput(signal: Int32) throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let logs = try TestPaths.makeScratchDirectory().path
        try plainRecording(rows: 400_000).write(toFile: dir + "/in.csv", atomically: false, encoding: .utf8)
        try "keep".write(toFile: dir + "/out.csv", atomically: false, encoding: .utf8)
        let convert = [TestProcess.motionbatch, "convert", dir + "/in.csv", dir + "/out.csv", "--force"]
        let r: TestProcess.Result
        if signal == 0 {
            // The kernel's own SIGXFSZ: a 64 KiB file size limit.
            r = try TestProcess.spawn(["/bin/sh", "-c", "ulimit -f 128; exec \"$0\" \"$@\""] + convert, logs: logs).wait()
            #expect(r.signal == SIGXFSZ, "\(r)")
        } else {
            let child = try TestProcess.spawn(convert, logs: logs)
            // Wait until the temporary file exists, then signal.
            let deadline = Date().addingTimeInterval(60)
            while try files(dir).allSatisfy({ !$0.hasSuffix(".tmp") }), Date() < deadline, child.isRunning { usleep(1000) }
            try #require(try files(dir).contains { $0.hasSuffix(".tmp") }, "the conversion is under way")
            child.kill(signal)
            r = child.wait()
            #expect(r.signal == signal, "\(r)")
        }
        #expect(try files(dir) == ["in.csv", "out.csv"], "temporary file removed")
        #expect(try String(contentsOfFile: dir + "/out.csv", encoding: .utf8) == "keep")
    }
}

/// Issue 13: `replay`, `steps` and `convert` warn identically about tolerated defects.
@Suite struct WarningReportTests {
    @Test func aTornFinalLineIsReportedTheSameByEveryCommand() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let path = dir + "/torn.csv"
        try (plainRecording(rows: 200) + "0.2,1,2").write(toFile: path, atomically: false, encoding: .utf8)
        let line = "\(path):202: warning: last line has no newline (torn write, e.g. power loss); dropped its 7 bytes\n"
        let replay = runCLI(["replay", path])
        let steps = runCLI(["steps", path])
        let convert = runCLI(["convert", path, dir + "/out.csv"])
        for r in [replay, steps, convert] { #expect(r.code == 0 && r.err.hasPrefix(line), "\(r.err)") }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["replay", path, "--json"]).out.utf8)) as? [String: Any])
        let warning = try #require((json["warnings"] as? [[String: Any]])?.first)
        #expect(warning["kind"] as? String == "torn-final-line" && warning["count"] as? Int == 1)
        #expect(warning["first_lines"] as? [Int] == [202] && warning["file"] as? String == path)
        #expect(warning["message"] as? String == "last line has no newline (torn write, e.g. power loss); dropped its 7 bytes")
    }
}

/// Issue 13's options and profiles: each out-of-range value is a usage error naming the limit.
@Suite struct OptionLimitTests {
    @Test(arguments: [
        (["convert", "a.csv", "b.csv", "--from", "9.3e9"], "The value '9.3e9' is invalid for '--from': duration must be within 0...1000000000 s."),
        (["convert", "a.csv", "b.csv", "--to", "1e19"], "The value '1e19' is invalid for '--to': duration must be within 0...1000000000 s."),
        (["steps", "a.csv", "--param", "minAmplitude=1e308"], "--param minAmplitude=1e308: invalid step counter configuration: amplitude 1e+308 is out of range (allowed > 0 and <= 1000000 m/s^2)"),
        (["steps", "a.csv", "--param", "periodicityWindow=1e308"], "--param periodicityWindow=1e308: invalid step counter configuration: duration 1e+308 is out of range (allowed 0...1000000000 s)"),
        (["steps", "a.csv", "--param", "weakStepFraction=1e19"], "--param weakStepFraction=1e19: invalid step counter configuration: fraction 1e+19 is out of range (allowed 0...1)"),
        (["steps", "a.csv", "--param", "minSwing=1e308"], "--param minSwing=1e308: invalid step counter configuration: amplitude 1e+308 is out of range (allowed > 0 and <= 1000000 m/s^2)"),
        (["steps", "a.csv", "--param", "nosuch=1e19"], "--param nosuch=1e19: unknown parameter 'nosuch'"),
        (["steps", "a.csv", "--param", "maxHold=0x10"], "--param expects NAME=NUMBER, got 'maxHold=0x10'"),
        (["replay", "a.csv", "--latency", "0x10"], "The value '0x10' is invalid for '--latency': expected a decimal number"),
        (["wakes", "--rates", "1e-6"], "in '--rates 1e-6' is invalid: expected comma-separated numbers (sampling rate must be within 0.001...1000000 Hz)."),
        (["wakes", "--battery-mah", "1e308"], "battery capacity must be within 1...10000000 mAh."),
        (["capture", "--rate", "inf"], "The value 'inf' is invalid for '--rate'"),
    ])
    func outOfRangeOptionsAreUsageErrors(args: [String], message: String) {
        let r = runCLI(args)
        #expect(r.code == 64, "\(r.err)")
        #expect(r.err.contains(message), "\(r.err)")
    }

    /// Issue 13: with `--batch 5` an out-of-range timestamp was reported without file or line.
    @Test(arguments: [["--batch", "5"], ["--latency", "1"], ["--batch", "1"]])
    func outOfRangeTimestampsNameFileAndLineWhateverTheBatching(options: [String]) throws {
        let path = try TestPaths.scratchFile("# motionbatch-recording: 1\ntimestamp_ns,accel_x,accel_y,accel_z\n0,1,2,3\n9223372036854775000,1,2,3\n")
        let r = runCLI(["replay", path] + options)
        #expect(r.code == 1)
        #expect(r.err == "Error: \(path):4: column 1 (timestamp_ns): timestamp 9223372036854775000 ns is out of range (allowed \(InputLimits.timestampRangeText))\n")
    }

    /// Control characters in options and profile keys are shown escaped (two of the crashes the
    /// fuzzers found; their inputs are in Fuzz/Corpus).
    @Test func controlCharactersInOptionsAndKeysAreEscaped() throws {
        let r = runCLI(["convert", "a.csv", "b.csv", "--from\u{4}9.3e9"])
        #expect(r.code == 64 && r.err.hasPrefix("Error: Unknown option '--from\\x049.3e9'."), "\(r.err)")
        let path = try TestPaths.scratchFile("{\"idle\\r_power_w\": 1}", name: "board.json")  // a JSON escape: the key holds a CR
        let w = runCLI(["wakes", "--board", path])
        #expect(w.code == 1 && w.err.contains("key 'idle\\x0d_power_w': unknown key"), "\(w.err)")
        #expect(!r.err.utf8.contains(4) && !w.err.utf8.contains(0x0D))
    }

    @Test func aFullDeviceIsAFailureNotAPartialFile() throws {
        let path = try TestPaths.scratchFile(plainRecording(rows: 100_000))
        let r = runCLI(["convert", path, "/dev/full"])
        #expect(r.code == 1 && r.err.contains("/dev/full: write failed: No space left on device"), "\(r.err)")
    }

    @Test func aHugeBoardProfileIsRefusedAfterOneMebibyte() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let path = dir + "/huge.json"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try h.truncate(atOffset: 100_000_000)  // 100 MB (sparse)
        try h.close()
        let r = runCLI(["wakes", "--board", path])
        #expect(r.code == 1 && r.err.contains("is larger than 1048576 bytes"), "\(r.err)")
    }
}
