import MotionAnalysis
import MotionEvaluation
import MotionTestSupport
import Testing

/// The activity classifier's targets (issue 12) on the real recordings of ../shared/datasets, as
/// `eval activity --check` judges them, and the step counter's counts on walks kept by the
/// vehicle gating. Skipped when the datasets folder is absent.
@Suite(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
struct ActivityEvaluationDatasetTests {
    @Test func targetsAreMet() throws {
        let report = try ActivityEvaluation(directory: TestPaths.datasetsRoot).run()
        #expect(report.hapt.files.count == 42 && Set(report.hapt.files.map(\.subject)).count == 21)
        #expect(report.stPocket.count == 5 && report.stWrist.count == 3 && report.vehicle.count == 2)
        #expect(report.hapt.crossValidated.onsetDelays.count >= 10, "onsets are found")
        let missed = ActivityEvaluation.verdicts(report).filter { !$0.met }.map { "\($0.set).\($0.name) = \($0.value) (target \($0.comparison.rawValue) \($0.target))" }
        #expect(missed.isEmpty, "\(missed)")
        // Every judged ST log, one by one.
        for f in report.stPocket + report.stWrist where f.expected != nil {
            #expect(f.correct == true, "\(f.path): majority \(f.majority), expected \(f.expected!)")
        }
        // Walks are never called a vehicle (their steps would be dropped).
        for f in report.walks { #expect(f.percent(.vehicle) < 1, "\(f.path): \(f.percent(.vehicle)) % vehicle") }
    }

    /// No step of a walk is lost to the gating: the gated count equals the ungated one.
    @Test func gatingKeepsEveryStepOfTheWalks() throws {
        let manifest = try DatasetManifest(directory: TestPaths.datasetsRoot)
        for row in manifest.entries where row.path.hasPrefix("steps/") && row["activity"] == "walking" {
            let path = TestPaths.datasetsRoot + "/" + row.path
            let (gated, h) = try StandardAnalyzers.replay(path: path, policy: .samples(4096))
            let ungated = try RecordingReplay.run(path: path) { _ in
                var p = AnalysisPipeline()
                p.add(try StepCountAnalyzer())
                return [ReplaySession(policy: .samples(4096), pipeline: p)]
            }
            let a = gated.sessions[0].pipeline.result(of: h.steps).count
            let b = ungated.sessions[0].pipeline.results.values[0] as! StepSummary
            #expect(a == b.count, "\(row.path): \(a) steps gated, \(b.count) without the gate")
        }
    }
}
