import Foundation
@testable import MotionCLI
import MotionTestSupport
import Testing

/// `motionbatch eval steps` on a synthetic datasets folder: output, options and exit codes.
struct EvalStepsCommandTests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func inSampleJSONHasEverySetAndJudgesNothing() throws {
        let dir = try SyntheticDatasets.write()
        let r = runCLI(["eval", "steps", dir, "--in-sample", "--json"])
        #expect(r.code == 0, "\(r.err)")
        let o = try Self.json(r.out)
        let sets = try #require(o["sets"] as? [[String: Any]])
        #expect(sets.compactMap { $0["set"] as? String } == ["oxford", "bangle_walks", "non_walking", "bouts", "slow_walks", "arm_swing_reduced", "arm_swing_removed"])
        // The arm swing sets: each file against its untransformed walk's count in the same document.
        let bangle = try #require(sets.first { $0["set"] as? String == "bangle_walks" }?["files"] as? [[String: Any]])
        for name in ["arm_swing_reduced", "arm_swing_removed"] {
            let set = try #require(sets.first { $0["set"] as? String == name })
            let files = try #require(set["files"] as? [[String: Any]])
            #expect(files.count == bangle.count && set["max_abs_change_percent"] is Double && set["mean_abs_change_percent"] is Double)
            for f in files {
                let source = try #require(bangle.first { $0["path"] as? String == f["source_path"] as? String }, "\(f)")
                let untransformed = try #require(f["untransformed_counted"] as? Int), counted = try #require(f["counted"] as? Int)
                #expect(untransformed == source["counted"] as? Int && f["unit"] as? String == source["unit"] as? String)
                let change = try #require(f["change_percent"] as? Double)
                #expect(abs(change - (untransformed == 0 ? (counted == 0 ? 0 : 100) : 100 * Double(counted - untransformed) / Double(untransformed))) < 1e-3)
            }
        }
        let judged = try #require(o["in_sample_targets"] as? [[String: Any]]).filter { ($0["set"] as? String)?.hasPrefix("arm_swing") == true }
        #expect(judged.filter { $0["name"] as? String == "max_abs_change_percent" }.count == 2)
        let bouts = try #require(sets.first { $0["set"] as? String == "bouts" })
        #expect((bouts["bouts"] as? Int ?? 0) > 0 && bouts["bout_recall"] is Double && bouts["bout_count_recall"] is Double)
        #expect(o["in_sample_targets"] is [[String: Any]] && o["targets"] == nil && o["cross_validation"] == nil)
    }

    @Test func crossValidationJSONNamesItsFoldsAndJudgesThem() throws {
        let dir = try SyntheticDatasets.write()
        let r = runCLI(["eval", "steps", dir, "--hold-out", "bangle:numbered", "--hold-out", "oxford:Bob", "--json"])
        #expect(r.code == 0, "\(r.err)")
        let o = try Self.json(r.out)
        let cv = try #require(o["cross_validation"] as? [String: Any])
        let folds = try #require(cv["folds"] as? [[String: Any]])
        #expect(folds.compactMap { $0["held_out"] as? String } == ["bangle:numbered", "oxford:Bob"])
        #expect((folds.first?["parameters"] as? [String: Double])?.keys.contains("maxIntervalRatio") == true)
        #expect(cv["configurations_counted"] as? Int == 72 && cv["wall_seconds"] is Double)
        let rides = try #require(o["rough_rides"] as? [[String: Any]])
        #expect(rides.compactMap { $0["scale"] as? Double } == [1.5, 2] && rides.allSatisfy { ($0["files"] as? [[String: Any]])?.count == 2 })
        #expect(o["max_activity_hold_bound_s"] as? Double == 64)
        let cvFiles = try #require(cv["sets"] as? [[String: Any]]).flatMap { $0["files"] as? [[String: Any]] ?? [] }
        #expect(Set(cvFiles.compactMap { $0["unit"] as? String }) == ["bangle:numbered", "oxford:Bob"])
        #expect(o["targets"] is [[String: Any]] && o["in_sample_targets"] is [[String: Any]] && o["all_targets_met"] is Bool)
    }

    @Test func badCombinationsAreUsageErrors() throws {
        let dir = try SyntheticDatasets.write()
        let both = runCLI(["eval", "steps", dir, "--in-sample", "--check"])
        #expect(both.code == 64 && both.err.contains("--check judges the cross-validated figures"), "\(both.err)")
        let unknown = runCLI(["eval", "steps", dir, "--hold-out", "oxford:Nobody"])
        #expect(unknown.code == 64 && unknown.err.contains("no such unit") && unknown.err.contains("oxford:Alice"), "\(unknown.err)")
        #expect(unknown.out.isEmpty)
        for extra in [["--in-sample"], ["--sweep", "minSwing=1"], ["--sensitivity"]] {
            let r = runCLI(["eval", "steps", dir, "--hold-out", "oxford:Alice"] + extra)
            #expect(r.code == 64 && r.err.contains("--hold-out selects cross-validation folds"), "\(extra): \(r.err)")
        }
    }

    @Test func aUnitHeldOutTwiceIsOneFold() throws {
        let dir = try SyntheticDatasets.write()
        let r = runCLI(["eval", "steps", dir, "--hold-out", "oxford:Bob", "--hold-out", "oxford:Bob", "--json"])
        #expect(r.code == 0, "\(r.err)")
        let folds = try #require((try Self.json(r.out)["cross_validation"] as? [String: Any])?["folds"] as? [[String: Any]])
        #expect(folds.count == 1)
    }

    @Test func aMissedTargetFailsWithCheck() throws {
        // A synthetic vehicle rocking like steps: false steps beyond any target.
        let dir = try SyntheticDatasets.write(vehicleRocks: true)
        let r = runCLI(["eval", "steps", dir, "--hold-out", "bangle:numbered", "--check"])
        #expect(r.code == 1 && r.err.contains("targets not met"), "\(r.err)")
        #expect(r.out.contains("NOT MET"))
    }
}
