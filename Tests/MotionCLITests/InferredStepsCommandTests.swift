import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI

/// Inferred steps in the commands' outputs: `inferred_steps` beside `steps` (never added to it),
/// `inferred_stretches` in `replay --json` and `steps --json`, `--no-inferred-steps` for null.
struct InferredStepsCommandTests {
    /// The bundled HAPT walk: the counter falls silent twice during gait (2 steps inferred).
    static let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path

    func object(_ out: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    }

    @Test func stepsAndReplayCarryTheInferredStepsApart() throws {
        let steps = try object(runCLI(["steps", "--json", Self.walk]).out)
        let replay = try object(runCLI(["replay", "--json", "--batch", "7", Self.walk]).out)
        let inferred = try #require(steps["inferred_steps"] as? Int)
        #expect(inferred > 0)
        for o in [steps, replay] {
            #expect(o["inferred_steps"] as? Int == inferred)
            #expect((o["step_times_s"] as? [Double])?.count == o["steps"] as? Int, "inferred steps are not in step_times_s")
            let stretches = try #require(o["inferred_stretches"] as? [[String: Any]])
            #expect(stretches.reduce(0) { $0 + ($1["steps"] as? Int ?? 0) } == inferred)
            let times = try #require(o["step_times_s"] as? [Double])
            for s in stretches {
                let (a, b, p) = (s["start_s"] as? Double ?? 0, s["end_s"] as? Double ?? 0, s["period_s"] as? Double ?? 0)
                #expect(times.contains(a) && times.contains(b), "a stretch lies between two counted steps")
                #expect(Double(s["steps"] as? Int ?? 0) <= (b - a) / p - 1 + 1e-9, "at most one per gait period")
            }
        }
        #expect(steps["steps"] as? Int == replay["steps"] as? Int)
        let text = runCLI(["steps", Self.walk]).out
        #expect(text.contains(" steps (+\(inferred) inferred) in "), "\(text)")
    }

    @Test func noInferredStepsGivesNull() throws {
        for command in [["steps", "--json"], ["replay", "--json"]] {
            let r = runCLI(command + ["--no-inferred-steps", Self.walk])
            #expect(r.code == 0, "\(r.err)")
            let o = try object(r.out)
            #expect(o["inferred_steps"] is NSNull && (o["inferred_stretches"] as? [Any])?.isEmpty == true)
        }
        let csv = runCLI(["steps", "--csv", "--no-inferred-steps", Self.walk]).out.split(separator: "\n")
        #expect(csv.last?.hasSuffix(",") == true, "an empty inferred_steps cell: \(csv)")
        #expect(!runCLI(["steps", "--no-inferred-steps", Self.walk]).out.contains("inferred"))
    }

    @Test func epochsCountTheInferredStepsPerEpoch() throws {
        let steps = try object(runCLI(["steps", "--json", Self.walk]).out)
        let epochs = try object(runCLI(["epochs", "--json", "--per", "minute", Self.walk]).out)
        let rows = try #require(epochs["epochs"] as? [[String: Any]])
        #expect(rows.reduce(0) { $0 + ($1["inferred_steps"] as? Int ?? 0) } == steps["inferred_steps"] as? Int)
        #expect(rows.reduce(0) { $0 + ($1["steps"] as? Int ?? 0) } == steps["steps"] as? Int, "the counted steps are apart")
        let off = try object(runCLI(["epochs", "--json", "--no-inferred-steps", Self.walk]).out)
        #expect((off["epochs"] as? [[String: Any]])?.allSatisfy { $0["inferred_steps"] is NSNull } == true)
    }
}
