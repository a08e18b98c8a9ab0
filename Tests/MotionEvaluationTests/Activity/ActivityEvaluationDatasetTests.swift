import MotionAnalysis
import MotionEvaluation
import MotionTestSupport
import Testing

/// The activity classifier's targets (issue 12) on the real recordings of ../shared/datasets, as
/// `eval activity --check` judges them, and the step counter's counts on walks kept by the
/// vehicle gating. Skipped when the datasets folder is absent.
@Suite(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
struct ActivityEvaluationDatasetTests {
    /// Issue 23's targets the classifier does not meet yet (open; docs/activity-classifier.md,
    /// "Limits"): the ST bicycle ride (called walking since the short-gait rule), and the whole
    /// rides (the train's smooth stretches are called still; the drive's label changes). (The
    /// person at rest is met since a window takes evidence from a class only as far as it speaks
    /// against it; the spsw pocket walks since a pedalling-like window with a limb's swing keeps
    /// pending walking evidence.) Any other miss fails the test; so does one of these being met
    /// unnoticed (then the list and the docs are updated).
    static let knownMisses: Set<String> = [
        "st_pocket.files_correct_percent",
        "rides.max_changes_per_hour", "rides.min_vehicle_percent",
    ]

    /// What the short-gait and rotational-gait rules and the shorter first windows gained, as
    /// floors below the figures measured when they came in (spsw 99.33 % pocket and wrist; 28.6 %
    /// and 43.7 % without them): a regression fails.
    static let spswAgreementFloor = 98.0

    @Test func targetsAreMetButTheKnownMisses() throws {
        let report = try ActivityEvaluation(directory: TestPaths.datasetsRoot).run()
        let l = report.labelled
        #expect(l.files.filter { $0.dataset == "hapt" }.count == 42 && Set(l.files.filter { $0.dataset == "hapt" }.map(\.source)).count == 21)
        #expect(l.files.filter { $0.dataset == "spsw" }.count == 232 && Set(l.files.filter { $0.dataset == "spsw" }.map(\.source)).count == 12)
        #expect(l.groups.map(\.group) == ActivityEvaluation.groupOrder)
        #expect(report.stPocket.count == 5 && report.stWrist.count == 3 && report.vehicle.count == 2 && report.rides.count == 3)
        #expect(report.personAtRest.count == 2 * PersonAtRestTransform.standardLevels.count, "Bangle static and ST stationary at each level")
        #expect(l.group("hapt_waist").crossValidated.onsetDelays.count >= 10, "onsets are found")
        #expect(l.group("spsw_pocket").firstOnsets.count == 116, "every spsw recording has a still -> walking onset")
        // Every fold is chosen without its source: 33 labelled sources, ST pocket, ST wrist, the Bangle rides.
        #expect(l.chosen.count == 36)
        let missed = Set(ActivityEvaluation.verdicts(report).filter { !$0.met }.map { "\($0.set).\($0.name)" })
        #expect(missed == Self.knownMisses, "missed: \(missed.sorted())")
        for g in ["spsw_pocket", "spsw_wrist"] {
            #expect(l.group(g).crossValidated.percent >= Self.spswAgreementFloor, "\(g): \(l.group(g).crossValidated.percent) %")
        }
        // Every judged ST log, one by one (but the bicycle ride, a known miss).
        for f in report.stPocket + report.stWrist where f.expected != nil && f.activity != "biking" {
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
