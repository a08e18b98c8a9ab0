import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI

/// `motionbatch activity`, `eval activity` and `bench activity`: output, keys, errors, exit codes.
struct ActivityCommandTests {
    let mixed = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user05-mixed.csv").path

    @Test func jsonHasTheDocumentedKeysAndAContiguousTimeline() throws {
        let r = runCLI(["activity", "--json", mixed, mixed])
        #expect(r.code == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 2 && lines[0] == lines[1])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(Set(o.keys) == ["schema", "file", "duration_s", "activity", "activity_time_s", "changes"])
        let segments = try #require(o["activity"] as? [[String: Any]])
        #expect(segments.allSatisfy { Set($0.keys) == ["start_s", "end_s", "label", "confidence", "announced_s"] })
        for (a, b) in zip(segments, segments.dropFirst()) { #expect(a["end_s"] as? Double == b["start_s"] as? Double) }
        // The excerpt's own clock: it starts 46 s into its HAPT sequence.
        #expect(segments.first?["start_s"] as? Double == 46)
        let time = try #require(o["activity_time_s"] as? [String: Double])
        #expect(Set(time.keys) == ["still", "walking", "running", "cycling", "vehicle", "unknown"])
        #expect(abs(time.values.reduce(0, +) - (o["duration_s"] as? Double ?? 0)) < 1e-6)
        #expect(segments.map { $0["label"] as? String } == ["still", "walking"], "the excerpt stands, then walks")
        #expect(o["changes"] as? Int == segments.count - 1)
    }

    @Test func textOneBlockPerFile() {
        let r = runCLI(["activity", mixed])
        #expect(r.code == 0)
        #expect(r.out.hasPrefix("\(mixed): 189.0 s, 2 segments, 1 changes\n"))
        #expect(r.out.contains(" still ") && r.out.contains(" walking ") && r.out.contains("  time: still "))
    }

    /// `replay --json` carries the same segments, identical for every batch size.
    @Test(arguments: ["1", "50", "4096"])
    func replayCarriesTheSameSegments(batch: String) throws {
        let a = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["activity", "--json", mixed]).out.utf8)) as? [String: Any])
        let r = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["replay", "--json", "--batch", batch, mixed]).out.utf8)) as? [String: Any])
        #expect((r["activity"] as? NSArray) == (a["activity"] as? NSArray))
        #expect((r["activity_time_s"] as? NSDictionary) == (a["activity_time_s"] as? NSDictionary))
    }

    @Test func errorsAndUsage() throws {
        let missing = runCLI(["activity", "/nonexistent/x.csv"])
        #expect(missing.code == 1 && missing.err.contains("/nonexistent/x.csv"))
        let bad = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n0,0,0,9.8\n0.02,0,nan?,9.8\n")
        let b = runCLI(["activity", bad])
        #expect(b.code == 1 && b.err.contains("\(bad):3"), "\(b.err)")
        #expect(runCLI(["activity"]).code == 64)
        #expect(runCLI(["activity", "--activity-param", "stillMotion=-1", mixed]).code == 64)
        let unknown = runCLI(["activity", "--activity-param", "nope=1", mixed])
        #expect(unknown.code == 64 && unknown.err.contains("unknown activity parameter 'nope'"))
        #expect(runCLI(["activity", "--activity-param", "stillMotion=0.3", mixed]).code == 0)
        let eval = runCLI(["eval", "activity", "/nonexistent"])
        #expect(eval.code == 1 && eval.err.contains("/nonexistent/manifest.csv: not found"))
        #expect(runCLI(["help", "eval", "activity"]).out.contains("left one source out"))
    }

    @Test func benchPrintsThroughputAgainstTheTarget() throws {
        let r = runCLI(["bench", "activity", mixed, "--hours", "0.2", "--json"])
        #expect(r.code == 0, "\(r.err)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect((o["real_time_factor"] as? Double ?? 0) > 0 && o["target_real_time_factor"] as? Double == 5000)
        #expect(abs((o["rate_hz"] as? Double ?? 0) - 100) < 0.01, "resampled to 100 Hz")
        #expect((o["data_hours"] as? Double ?? 0) >= 0.2)
    }
}
