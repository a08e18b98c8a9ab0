import MotionCore
import MotionEvaluation
import Testing

/// The arm swing sets are judged file by file against their untransformed walk's count.
struct StepEvaluationSourceChangeTests {
    /// A result of `counted` steps for a recording of `set` derived from `source`.
    static func result(_ path: String, source: String, set: StepEvaluation.Set, counted: Int, truth: Int = 100) -> StepEvaluation.FileResult {
        let r = StepRecording(path: path, sourcePath: source, set: set, activity: "walking", unit: "bangle:numbered", truth: truth,
                              samples: [Sample(timestamp: 0, accel: Vector3(0, 0, 9.81)), Sample(timestamp: 80_000_000, accel: Vector3(0, 0, 9.81))])
        return StepEvaluation.judge(r, steps: (0..<counted).map(Int64.init), latency: 0)
    }

    static func verdict(_ results: [StepEvaluation.SetResult], _ set: StepEvaluation.Set) -> TargetVerdict? {
        StepEvaluation.verdicts(results).first { $0.set == set.rawValue && $0.name == "max_abs_change_percent" }
    }

    @Test(arguments: [(109, true), (111, false), (91, true), (89, false), (100, true)])
    func theWorstChangeAgainstTheUntransformedCountIsJudged(counted: Int, met: Bool) throws {
        let walks = StepEvaluation.SetResult(set: .bangleWalks, files: [
            Self.result("steps/bangle/a.csv", source: "steps/bangle/a.csv", set: .bangleWalks, counted: 100),
            Self.result("steps/bangle/b.csv", source: "steps/bangle/b.csv", set: .bangleWalks, counted: 50)])
        let removed = StepEvaluation.SetResult(set: .armSwingRemoved, files: [
            Self.result("arm-swing-removed/a.csv", source: "steps/bangle/a.csv", set: .armSwingRemoved, counted: counted),
            Self.result("arm-swing-removed/b.csv", source: "steps/bangle/b.csv", set: .armSwingRemoved, counted: 52)])
        let changes = StepEvaluation.changes(of: removed, in: [walks, removed])
        #expect(changes.map(\.sourceCount) == [100, 50] && changes.map(\.sourcePath) == ["steps/bangle/a.csv", "steps/bangle/b.csv"])
        #expect(abs(changes[0].changePercent - Double(counted - 100)) < 1e-9 && abs(changes[1].changePercent - 4) < 1e-9)
        let v = try #require(Self.verdict([walks, removed], .armSwingRemoved))
        #expect(abs(v.value - max(4, abs(Double(counted - 100)))) < 1e-9)
        #expect(v.met == met && v.target == StepEvaluation.Target.armSwingChangePercent)
    }

    @Test func withoutTheUntransformedWalksNothingIsMet() throws {
        let reduced = StepEvaluation.SetResult(set: .armSwingReduced, files: [
            Self.result("arm-swing-reduced/a.csv", source: "steps/bangle/a.csv", set: .armSwingReduced, counted: 100)])
        #expect(StepEvaluation.changes(of: reduced, in: [reduced]).isEmpty)
        #expect(try #require(Self.verdict([reduced], .armSwingReduced)).met == false)
        // Other sets are not judged against a source.
        let walks = StepEvaluation.SetResult(set: .bangleWalks, files: [Self.result("steps/bangle/a.csv", source: "steps/bangle/a.csv", set: .bangleWalks, counted: 3)])
        #expect(StepEvaluation.changes(of: walks, in: [walks, reduced]).isEmpty)
    }

    @Test func aChangeFromZeroIsAFullChange() {
        #expect(StepEvaluation.SourceChange.changePercent(0, against: 0) == 0)
        #expect(StepEvaluation.SourceChange.changePercent(3, against: 0) == 100)
        #expect(StepEvaluation.SourceChange.changePercent(45, against: 50) == -10)
    }
}
