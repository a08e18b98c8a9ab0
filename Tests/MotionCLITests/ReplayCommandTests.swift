import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI

/// The package root.
let packageRoot = TestPaths.packageRoot

/// The shared datasets folder (`../shared/datasets` or `$MOTIONBATCH_DATASETS`), when present.
let datasetsDir: URL? = {
    TestPaths.datasetsPresent ? URL(fileURLWithPath: TestPaths.datasetsRoot) : nil
}()

/// A plain-CSV walk-like recording at 50 Hz with one 0.5 s gap.
func syntheticPlainCSV(seconds: Int = 20) -> String {
    var s = "time_s,accel_x,accel_y,accel_z\n"
    var t = 0.0
    for i in 0..<(seconds * 50) {
        if i == 300 { t += 0.5 }
        let v = 9.81 + 2 * sin(2 * Double.pi * 1.8 * t)
        s += "\(formatFixed(t, 3)),0.1,0.2,\(formatFixed(v, 5))\n"
        t += 0.02
    }
    return s
}

/// The replay JSON object without the members that describe the delivery itself.
private func analysisPart(_ out: String) -> NSDictionary? {
    guard let obj = try? JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] else { return nil }
    return obj.filter { !["batches", "largest_batch", "delivery", "step_visibility_s", "activity_visibility_s", "sample_delay_s"].contains($0.key) } as NSDictionary
}

@Test func replayJSONIsValidAndDescribesTheStream() throws {
    let path = try TestPaths.scratchFile(syntheticPlainCSV())
    let r = runCLI(["replay", path, "--json", "--batch", "10"])
    #expect(r.code == 0, "\(r.err)")
    let obj = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
    #expect(obj?["samples"] as? Int == 1000)
    #expect(obj?["batches"] as? Int == 100)
    let gaps = obj?["gaps"] as? [String: Any]
    #expect(gaps?["count"] as? Int == 1)
    #expect(abs((gaps?["longest_s"] as? Double ?? 0) - 0.52) < 1e-9)
}

@Test(arguments: ["1", "7", "64", "999", "100000"])
func replayResultsDoNotDependOnBatchSize(batch: String) throws {
    let path = try TestPaths.scratchFile(syntheticPlainCSV())
    let reference = runCLI(["replay", path, "--json", "--batch", "1"])
    let other = runCLI(["replay", path, "--json", "--batch", batch])
    #expect(other.code == 0)
    #expect(analysisPart(other.out) != nil)
    #expect(analysisPart(other.out) == analysisPart(reference.out))
    // Something was counted: equal outputs of an analysis that found nothing would prove nothing.
    let steps = try #require(analysisPart(reference.out)?["steps"] as? Int)
    #expect(steps > 20, "the 1.8 steps/s synthetic walk has about 36 steps, counted \(steps)")
}

@Test(.enabled(if: datasetsDir != nil, "needs ../shared/datasets"))
func replayOfRealRecordingsIsBatchInvariant() throws {
    let files = ["steps/oxford/Nexus_Jamie_Hard_InHand_1.csv", "steps/bangle/100.csv", "activity/hapt/user01_seq0.csv"]
    for f in files {
        let path = datasetsDir!.appendingPathComponent(f).path
        let a = runCLI(["replay", path, "--json", "--batch", "1"])
        let b = runCLI(["replay", path, "--json", "--latency", "2.5"])
        #expect(a.code == 0 && b.code == 0, "\(f): \(a.err) \(b.err)")
        #expect(analysisPart(a.out) != nil)
        #expect(analysisPart(a.out) == analysisPart(b.out), "\(f)")
        #expect((analysisPart(a.out)?["steps"] as? Int ?? 0) > 50, "\(f): the walk's steps are counted")
    }
}

@Test func corruptRecordingFailsWithLineNumberedError() throws {
    var text = syntheticPlainCSV(seconds: 1)
    text += "9.99,0.1,x,9.81\n"
    let path = try TestPaths.scratchFile(text)
    let r = runCLI(["replay", path, "--json"])
    #expect(r.code == 1)
    #expect(r.out.isEmpty)
    #expect(r.err.hasPrefix("Error: \(path):52: column 3 (accel_y)"), "\(r.err)")
}

@Test func missingFileFailsCleanly() {
    let r = runCLI(["replay", "/nonexistent/x.csv"])
    #expect(r.code == 1)
    #expect(r.err.hasPrefix("Error: ") && r.err.contains("/nonexistent/x.csv"))
}

@Test(arguments: [
    (["replay"], "Missing expected argument 'FILE...'."),
    (["replay", "a.csv", "--batch", "0"], "The value '0' is invalid for '--batch': count must be within 1...1000000000000."),
    (["replay", "a.csv", "--batch", "2", "--latency", "1"], "'--batch' and '--latency' cannot be combined: choose one."),
    (["replay", "a.csv", "--latency", "-1"], "The value '-1' is invalid for '--latency': duration must be within 0...1000000000 s."),
    (["replay", "a.csv", "--latency", "0x10"], "The value '0x10' is invalid for '--latency': expected a decimal number (duration must be within 0...1000000000 s)."),
    (["replay", "a.csv", "--latency", "1e19"], "The value '1e19' is invalid for '--latency': duration must be within 0...1000000000 s."),
])
func replayUsageErrorsExit64(args: [String], message: String) {
    let r = runCLI(args)
    #expect(r.code == 64)
    #expect(r.err.hasPrefix("Error: \(message)\n"), "\(r.err)")
    #expect(r.err.contains("Usage: motionbatch replay"))
}
