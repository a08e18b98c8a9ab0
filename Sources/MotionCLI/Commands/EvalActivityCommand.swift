import MotionAnalysis
import MotionCore
import MotionSystem
import MotionEvaluation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `motionbatch eval activity [DATASETS_DIR] [--json] [--check]`: the activity classifier against
/// the targets of issue 12 (MotionEvaluation's ``ActivityEvaluation``); this formats the figures.
enum EvalActivityCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "activity",
            abstract: "Evaluate the activity classifier on the datasets (HAPT cross-validated, ST logs, Bangle drive and train).",
            discussion: """
            HAPT: still (sitting/standing/lying) vs walking (level, stairs) agreement over the labelled \
            time (1 s trimmed at both ends of every label run), and the median delay from a still -> \
            walking onset to the announcement of walking, leaving one subject out: the thresholds \
            stillMotion and walkingMinimum are re-tuned on the other subjects over a 3x3 grid (the \
            in-sample figures with the defaults are printed beside). ST logs: each file's majority \
            label against its activity (stationary, walking, jogging = running, biking = cycling, \
            driving = vehicle; 'other' is shown, not judged). Bangle drive and train: time walking or \
            running and label changes per hour (worst file). Walks: time in vehicle (informational: \
            steps there are dropped). Exit status 0 even when a target is missed (1 with --check).
            """,
            arguments: [ArgumentSpec("DATASETS_DIR", help: "Folder with manifest.csv (default: ../shared/datasets).", optional: true)],
            options: [
                .flag("json", help: "Print one JSON object instead of tables (keys in docs/activity-classifier.md)."),
                .flag("check", help: "Exit with status 1 when a target is not met."),
            ],
            run: { args, io in
                let dir = args.argument("DATASETS_DIR") ?? "../shared/datasets"
                guard access(dir + "/manifest.csv", R_OK) == 0 else {
                    throw CLIError.failure("\(dir)/manifest.csv: not found (pass the datasets folder)")
                }
                let errIO = io
                let start = MonotonicClock.seconds()
                let report: ActivityEvaluation.Report
                do {
                    report = try ActivityEvaluation(directory: dir).run { p in
                        if errIO.stderrIsTerminal { errIO.writeErr("\r\u{1B}[K\(p)") }
                    }
                } catch {
                    throw CLIError.failure("\(error)")
                }
                if io.stderrIsTerminal { io.writeErr("\r\u{1B}[K") }
                let seconds = MonotonicClock.seconds() - start
                let verdicts = ActivityEvaluation.verdicts(report)
                let ok = verdicts.allSatisfy(\.met)
                if args.flag("json") {
                    io.out(json(report, verdicts: verdicts, seconds: seconds).serialized(pretty: true))
                } else {
                    io.writeOut(text(report, verdicts: verdicts, seconds: seconds))
                    io.out(ok ? "All activity-classifier targets met." : "Some activity-classifier targets are NOT met (see 'target' lines).")
                }
                if !ok && args.flag("check") { throw CLIError.failure("activity-classifier targets not met") }
            }
        )
    }

    static func f(_ x: Double?, _ digits: Int = 1) -> String { x.map { $0.isFinite ? StepFormatting.fixed($0, digits) : "inf" } ?? "-" }

    static func text(_ r: ActivityEvaluation.Report, verdicts: [TargetVerdict], seconds: Double) -> String {
        var out = ""
        func line(_ s: String) { out += s + "\n" }
        let h = r.hapt
        line("== HAPT (waist, \(h.files.count) recordings, \(Set(h.files.map(\.subject)).count) subjects), leave one subject out")
        line("  agreement still/walking: cross-validated \(f(h.crossValidated.percent, 2)) % of \(f(h.crossValidated.judgedSeconds / 60, 1)) min (in-sample, defaults: \(f(h.inSample.percent, 2)) %)")
        line("  still -> walking onset (announcement - end of the still/posture-transition label before the walk): cross-validated median \(f(h.crossValidated.medianPostureEndSeconds, 2)) s over \(h.crossValidated.onsetDelays.count) onsets, \(h.crossValidated.missedOnsets) missed (in-sample: \(f(h.inSample.medianPostureEndSeconds, 2)) s)")
        line("    (announcement - start of the walking label, which HAPT sets after unlabelled seconds of walking: median \(f(h.crossValidated.medianOnsetSeconds, 2)) s)")
        var counts: [Int: Int] = [:]
        for c in h.chosen { counts[c.configuration, default: 0] += 1 }
        let chosen = counts.keys.sorted().map { k in
            let a = h.configurations[k].map { "\($0.0)=\(f($0.1, 2))" }.joined(separator: " ")
            return "\(a.isEmpty ? "defaults" : a) (\(counts[k]!) folds)"
        }
        line("  chosen per fold: " + chosen.joined(separator: "; "))
        for (title, files) in [("ST pocket logs", r.stPocket), ("ST wrist logs", r.stWrist), ("Bangle drive and train", r.vehicle), ("Walks of the step sets (informational)", r.walks)] {
            line("")
            line("== \(title) (\(files.count) files)")
            line("file".padding(44) + "expected".padding(10) + "majority".padding(10) + ActivityClass.allCases.map { String($0.rawValue.prefix(5)).padding(7) }.joined() + " changes/h")
            for x in files {
                var l = String(x.path.split(separator: "/").last ?? "").padding(44) + (x.expected?.rawValue ?? "-").padding(10) + x.majority.rawValue.padding(10)
                l += ActivityClass.allCases.map { f(x.percent($0), 1).padding(7) }.joined()
                l += " " + f(x.changesPerHour, 1) + (x.correct == false ? "  WRONG" : "")
                line(l)
            }
        }
        line("")
        for v in verdicts {
            line("  target \(v.set).\(v.name)".padding(52) + f(v.value, 2).padding(9) + "\(v.comparison.rawValue) \(f(v.target, 2))  \(v.met ? "met" : "NOT MET")")
        }
        line("(\(f(seconds, 1)) s, \(h.configurations.count) configurations x \(h.files.count) HAPT recordings)")
        return out
    }

    /// The JSON document (keys documented in docs/activity-classifier.md).
    static func json(_ r: ActivityEvaluation.Report, verdicts: [TargetVerdict], seconds: Double) -> JSONValue {
        func agreement(_ a: ActivityAgreement) -> JSONValue {
            .object([
                ("agreement_percent", .number(a.percent)),
                ("judged_s", .number(a.judgedSeconds)),
                ("onsets", .number(a.onsetDelays.count)),
                ("missed_onsets", .number(a.missedOnsets)),
                ("onset_median_s", .number(a.medianPostureEndSeconds)),
                ("onset_vs_walking_label_median_s", .number(a.medianOnsetSeconds)),
            ])
        }
        func files(_ fs: [ActivityEvaluation.FileResult]) -> JSONValue {
            .array(fs.map { x in .object([
                ("path", .string(x.path)),
                ("activity", .string(x.activity)),
                ("expected", x.expected.map { .string($0.rawValue) } ?? .null),
                ("majority", .string(x.majority.rawValue)),
                ("correct", x.correct.map { .bool($0) } ?? .null),
                ("duration_s", .number(x.durationSeconds)),
                ("percent", .object(ActivityClass.allCases.map { ($0.rawValue, .number(x.percent($0))) })),
                ("changes", .number(x.changes)),
                ("changes_per_hour", .number(x.changesPerHour)),
            ]) })
        }
        return .object([
            ("hapt", .object([
                ("recordings", .number(r.hapt.files.count)),
                ("cross_validated", agreement(r.hapt.crossValidated)),
                ("in_sample", agreement(r.hapt.inSample)),
                ("folds", .array(r.hapt.chosen.map { c in .object([
                    ("held_out", .string(c.subject)),
                    ("parameters", .object(r.hapt.configurations[c.configuration].map { ($0.0, .number($0.1)) })),
                ]) })),
            ])),
            ("st_pocket", files(r.stPocket)),
            ("st_wrist", files(r.stWrist)),
            ("bangle_vehicle", files(r.vehicle)),
            ("walks", files(r.walks)),
            ("targets", .array(verdicts.map { v in .object([
                ("set", .string(v.set)), ("name", .string(v.name)), ("value", .number(v.value)),
                ("target", .number(v.target)), ("comparison", .string(v.comparison.rawValue)), ("met", .bool(v.met)),
            ]) })),
            ("all_targets_met", .bool(verdicts.allSatisfy(\.met))),
            ("seconds", .number(seconds)),
        ])
    }
}
