import MotionAnalysis
import MotionCore
@testable import MotionEvaluation
import Testing

/// Agreement and onset figures against hand-made truth, and the leave-one-subject-out choice.
struct ActivityAgreementTests {
    let s: Int64 = 1_000_000_000
    typealias Run = LabelRuns.Run

    func timeline(_ parts: [(Int64, Int64, ActivityClass, Int64)]) -> ActivityTimeline {
        ActivityTimeline(segments: parts.map { ActivitySegment(start: $0.0 * s, end: $0.1 * s, label: $0.2, confidence: 50, announced: $0.3 * s) })
    }

    @Test func agreementTrimsOneSecondAtEachEndAndSkipsOtherLabels() {
        let truth = LabelRuns(runs: [
            Run(label: "standing", start: 0, end: 20 * s),
            Run(label: "transition", start: 20 * s, end: 24 * s),
            Run(label: nil, start: 24 * s, end: 30 * s),
            Run(label: "walking", start: 30 * s, end: 60 * s),
        ])
        // Still until 33 s (walking announced at 35 s), walking after.
        let a = ActivityAgreement(truth: truth, timeline: timeline([(0, 33, .still, 0), (33, 60, .walking, 35)]))
        // Judged: standing 1-19 (18 s, all still), walking 31-59 (28 s, 26 agree).
        #expect(a.judgedSeconds == 46)
        #expect(a.agreeingSeconds == 44)
        #expect(abs(a.percent - 100 * 44 / 46) < 1e-12)
        // One still -> walking onset: 5 s after the walking label, 11 s after the transition ended.
        #expect(a.onsetDelays == [5] && a.postureEndDelays == [11])
        #expect(a.medianOnsetSeconds == 5 && a.missedOnsets == 0)
    }

    @Test func missedOnsetsCountAsInfinitelyLateAndFarStillsAreNoOnset() {
        let truth = LabelRuns(runs: [
            Run(label: "sitting", start: 0, end: 10 * s),
            Run(label: "walking_upstairs", start: 12 * s, end: 30 * s),
            Run(label: "lying", start: 30 * s, end: 40 * s),
            Run(label: nil, start: 40 * s, end: 70 * s),
            Run(label: "walking", start: 70 * s, end: 90 * s),
        ])
        let a = ActivityAgreement(truth: truth, timeline: timeline([(0, 90, .still, 0)]))
        // The first walk is an onset (2 s after sitting), never announced; the second is 30 s
        // after lying: beyond the bridge, not an onset.
        #expect(a.onsetDelays == [nil])
        #expect(a.medianOnsetSeconds == .infinity && a.missedOnsets == 1)
        let pooled = ActivityAgreement.pooled([a, ActivityAgreement(agreeingSeconds: 10, judgedSeconds: 10, onsetDelays: [1, 2], postureEndDelays: [3, 4])])
        #expect(pooled.onsetDelays.count == 3 && pooled.medianOnsetSeconds == 2 && pooled.medianPostureEndSeconds == 4)
    }

    @Test func truthClasses() {
        for l in ["sitting", "standing", "lying"] { #expect(ActivityAgreement.truthClass(l) == .still) }
        for l in ["walking", "walking_upstairs", "walking_downstairs"] { #expect(ActivityAgreement.truthClass(l) == .walking) }
        #expect(ActivityAgreement.truthClass("transition") == nil && ActivityAgreement.truthClass(nil) == nil)
        #expect(ActivityEvaluation.expectedClass("biking") == .cycling && ActivityEvaluation.expectedClass("driving") == .vehicle)
        #expect(ActivityEvaluation.expectedClass("jogging") == .running && ActivityEvaluation.expectedClass("other") == nil)
    }

    /// The configuration judging a source is chosen on the other sources only, by the targets
    /// missed there, then the mean of the groups' agreements (a group is not outweighed by a
    /// longer one).
    @Test func crossValidationNeverTunesOnTheHeldOutSource() throws {
        let n = ActivityEvaluation.configurations.count
        func figures(best: Int, seconds: Double = 100) -> [ActivityAgreement] {
            (0..<n).map { ActivityAgreement(agreeingSeconds: $0 == best ? seconds : seconds / 2, judgedSeconds: seconds, onsetDelays: [$0 == best ? 1 : nil], postureEndDelays: []) }
        }
        func file(_ name: String, _ dataset: String, _ position: String, _ figures: [ActivityAgreement]) -> ActivityEvaluation.LabelledFile {
            ActivityEvaluation.LabelledFile(path: name, dataset: dataset, source: dataset + ":" + name, position: position, byConfiguration: figures)
        }
        // Sources a and b favour configuration 1; c favours configuration 2 (only c would choose it).
        let files = [
            file("a", "hapt", "waist", figures(best: 1)),
            file("b", "hapt", "waist", figures(best: 1)),
            file("c", "hapt", "waist", figures(best: 2)),
        ]
        let r = ActivityEvaluation.crossValidate(files)
        #expect(r.chosen.map(\.configuration) == [1, 1, 1])
        // Held out, c is judged with configuration 1: 50 %; a and b with 1: 100 %.
        let g = r.group("hapt_waist")
        #expect(abs(g.crossValidated.percent - 250.0 / 3) < 1e-9)
        #expect(g.inSample.percent == 50, "configuration 0 (the defaults) is good for none")
        #expect(g.firstOnsets.count == 3 && abs(g.onsetShare(within: 3) - 200.0 / 3) < 1e-9, "c's onset is missed with configuration 1")
        #expect(r.bySource.map(\.source) == ["hapt:a", "hapt:b", "hapt:c"])
        // A long group does not outweigh a short one: 1000 s of HAPT favouring 1 against two
        // spsw groups of 10 s favouring 2; holding out the HAPT source leaves only spsw, which picks 2,
        // and holding out a spsw source, the mean of the groups (HAPT 1, the other spsw group 2) is
        // a tie, which the targets break: configuration 1 misses the other spsw group's agreement
        // and onset targets, 2 only HAPT's agreement (HAPT's onset target, without onsets, is
        // missed by both).
        let mixed = [
            file("h", "hapt", "waist", figures(best: 1, seconds: 1000)),
            file("p", "spsw", "pocket", figures(best: 2, seconds: 10)),
            file("w", "spsw", "wrist", figures(best: 2, seconds: 10)),
        ]
        let m = ActivityEvaluation.crossValidate(mixed)
        #expect(m.chosen.map(\.source) == ["hapt:h", "spsw:p", "spsw:w"])
        #expect(m.chosen.map(\.configuration) == [2, 2, 2])
        #expect(m.groups.map(\.group) == ["hapt_waist", "spsw_pocket", "spsw_wrist"])
        // The first configuration is the defaults.
        let first = try #require(ActivityEvaluation.configurations.first)
        #expect(!first.isEmpty && first.allSatisfy { ActivityClassifierConfiguration().value(of: $0.0) == $0.1 })
        #expect(ActivityEvaluation.configurations.count == ActivityEvaluation.standardGrid.map(\.values.count).reduce(1, *))
        #expect(Set(ActivityEvaluation.configurations.map { $0.map { "\($0.0)=\($0.1)" }.joined(separator: " ") }).count == ActivityEvaluation.configurations.count,
                "every configuration once")
    }

    /// A one-activity file (an ST log, a ride) is judged with the configuration chosen without its
    /// source, and reported in manifest order.
    @Test func oneActivityFilesAreJudgedOutOfSample() {
        let n = ActivityEvaluation.configurations.count
        // Time in vehicle per configuration: `best` 100 s, `second` `secondPercent`, the others 10 s.
        func ride(_ path: String, best: Int, second: Int, secondPercent: Double) -> [ActivityEvaluation.FileResult] {
            (0..<n).map { c in
                let v = c == best ? 100 : c == second ? secondPercent : 10
                return ActivityEvaluation.FileResult(path: path, activity: "vehicle", expected: .vehicle, durationSeconds: 100,
                                                     secondsPerClass: [0, 0, 0, 0, v, 100 - v], changes: 0)
            }
        }
        // Source x's rides favour configuration 3 (then 5), source y's ride 5 (then 3).
        let others = [
            ActivityEvaluation.OneActivityFile(source: "y", group: "rides", byConfiguration: ride("y1", best: 5, second: 3, secondPercent: 60)),
            ActivityEvaluation.OneActivityFile(source: "x", group: "rides", byConfiguration: ride("x1", best: 3, second: 5, secondPercent: 50)),
            ActivityEvaluation.OneActivityFile(source: "x", group: "rides", byConfiguration: ride("x2", best: 3, second: 5, secondPercent: 50)),
        ]
        let r = ActivityEvaluation.crossValidate([], others)
        #expect(r.chosen.map(\.source) == ["x", "y"] && r.chosen.map(\.configuration) == [5, 3])
        #expect(r.oneActivity.map(\.file.path) == ["y1", "x1", "x2"])
        // Each held out is judged with what the other source favours: not its own best (100), not the defaults (10).
        #expect(r.oneActivity.map { $0.file.percent(.vehicle) } == [60, 50, 50])
    }

    /// A fold chooses by the targets first, as the step counter's cross-validation does: a
    /// configuration that misses a training target loses to one that meets them all, even with
    /// more time in the expected class (the mean score decides only between equals).
    @Test func aFoldPrefersTheConfigurationThatMeetsItsTrainingTargets() {
        let n = ActivityEvaluation.configurations.count
        // Configuration 1: all the time in `vehicle` but two label changes in a short ride
        // (target: at most 1); configuration 2: 95 % and no change; the others 10 %.
        func ride(_ path: String) -> [ActivityEvaluation.FileResult] {
            (0..<n).map { c in
                let v: Double = c == 1 ? 100 : c == 2 ? 95 : 10
                return ActivityEvaluation.FileResult(path: path, activity: "vehicle", expected: .vehicle, durationSeconds: 100,
                                                     secondsPerClass: [0, 0, 0, 0, v, 100 - v], changes: c == 1 ? 2 : 0)
            }
        }
        let others = [
            ActivityEvaluation.OneActivityFile(source: "x", group: "rides", byConfiguration: ride("x1")),
            ActivityEvaluation.OneActivityFile(source: "y", group: "rides", byConfiguration: ride("y1")),
        ]
        let training = [others[1]]
        let one = ActivityEvaluation.objective([], training, configuration: 1), two = ActivityEvaluation.objective([], training, configuration: 2)
        #expect(one.missed == 1 && two.missed == 0 && one.score > two.score)
        #expect(two.isBetter(than: one) && !one.isBetter(than: two))
        let r = ActivityEvaluation.crossValidate([], others)
        #expect(r.chosen.map(\.configuration) == [2, 2])
    }
}
