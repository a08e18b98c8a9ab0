import MotionAnalysis
import MotionCore
import MotionEvaluation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `motionbatch eval`: accuracy evaluations against the real datasets (a command group, so that
/// `eval activity` can join `eval steps`). The evaluations themselves (datasets, metrics, targets,
/// verdicts) are MotionEvaluation's; this parses the options and formats the figures.
enum EvalCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "eval",
            abstract: "Measure analysis accuracy on the real datasets.",
            subcommands: [stepsSpec, EvalActivityCommand.spec]
        )
    }

    /// `motionbatch eval steps [DATASETS_DIR] [--json]`.
    static var stepsSpec: CommandSpec {
        CommandSpec(
            name: "steps",
            abstract: "Evaluate the step counter on the datasets' step recordings (tables per set, aggregates vs targets).",
            discussion: """
            Sets: Oxford phone walks (MAPE, worst file, per-step precision/recall within ±0.25 s after \
            one constant offset per file), Bangle.js wrist walks (MAPE, worst file), non-walking \
            recordings (false steps per hour = steps counted beyond the manifest's truth, summed over \
            the set, divided by its duration). Exit status 0 even when a target is missed (1 with --check); the last \
            line says whether all targets are met.
            """,
            arguments: [ArgumentSpec("DATASETS_DIR", help: "Folder with manifest.csv (default: ../shared/datasets).", optional: true)],
            options: [
                .flag("json", help: "Print one JSON object instead of tables."),
                .flag("check", help: "Exit with status 1 when a target is not met."),
                .option("param", value: "NAME=VALUE", help: "Override a step-counter parameter for experiments (repeatable; see docs/step-counter.md).", repeated: true),
                .option("sweep", value: "NAME=V1,V2,...", help: "Instead of tables, one summary line per value of a parameter (repeatable).", repeated: true),
                .option("amplitude-scale", value: "K", help: "Robustness experiment: scale every recording's motion (acceleration minus its mean) by K before counting (default 1)."),
                .flag("sensitivity", help: "Instead of tables, one summary line per key parameter at 0.7, 0.8, 1.2 and 1.3 times its value (for minPeriodicity: 1 - value scaled)."),
            ],
            run: { args, io in
                let dir = args.argument("DATASETS_DIR") ?? "../shared/datasets"
                guard access(dir + "/manifest.csv", R_OK) == 0 else {
                    throw CLIError.failure("\(dir)/manifest.csv: not found (pass the datasets folder)")
                }
                let errIO = io
                let config = try StepParameters.configuration(args.strings("param"))
                let scale = try args.double("amplitude-scale", rule: ValueRule("amplitude scale", unit: "", 0.01...100)) ?? 1
                let sweeps = try args.strings("sweep").map(parseSweep) + (args.flag("sensitivity") ? StepEvaluation.sensitivitySweeps(config) : [])
                func evaluate(_ c: StepCounterConfiguration, progress: (String) -> Void = { _ in }) throws(CLIError) -> [StepEvaluation.SetResult] {
                    do { return try StepEvaluation(directory: dir, configuration: c, amplitudeScale: scale).run(progress: progress) } catch {
                        throw .failure("\(error)")
                    }
                }
                if !sweeps.isEmpty {
                    io.out("base: " + (args.strings("param").isEmpty ? "defaults" : args.strings("param").joined(separator: " "))
                           + (scale != 1 ? ", amplitude scale \(StepFormatting.jsonNumber(scale))" : ""))
                    io.out(summary(try evaluate(config), label: "base"))
                    for (name, values) in sweeps {
                        for v in values {
                            var c = config
                            let assignment = "\(name)=\(StepFormatting.jsonNumber(v))"
                            do { try StepParameters.apply(assignment, to: &c) } catch {
                                io.out(pad(assignment, 30) + " invalid: \(error)")
                                continue
                            }
                            io.out(summary(try evaluate(c), label: assignment))
                        }
                    }
                    return
                }
                let results = try evaluate(config) { p in
                    if errIO.stderrIsTerminal { errIO.writeErr("\r\u{1B}[K\(p)") }
                }
                if io.stderrIsTerminal { io.writeErr("\r\u{1B}[K") }
                let ok = StepEvaluation.verdicts(results).allSatisfy(\.met)
                if args.flag("json") {
                    io.out(json(results))
                } else {
                    for r in results { table(r, io: io) }
                    io.out(ok ? "All step-counter targets met." : "Some step-counter targets are NOT met (see 'target' lines).")
                }
                if !ok && args.flag("check") { throw CLIError.failure("step-counter targets not met") }
            }
        )
    }

    /// Parses `NAME=V1,V2,...` for `--sweep`.
    static func parseSweep(_ text: String) throws -> (String, [Double]) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let values = parts.count == 2 ? parts[1].split(separator: ",").compactMap { DecimalScanner.double(String($0)) } : []
        guard parts.count == 2, !values.isEmpty, values.count == parts[1].split(separator: ",").count,
              StepCounterConfiguration().value(of: parts[0]) != nil else {
            throw CLIError.usage("--sweep expects NAME=V1,V2,... with a known parameter name, got '\(text)'")
        }
        return (parts[0], values)
    }

    /// One line of figures for `--sweep`/`--sensitivity`: Oxford (all, Samsung, Pixel+Nexus:
    /// MAPE/worst), precision/recall, Bangle walks MAPE/worst, non-walking false steps/h, latency,
    /// and the missed targets.
    static func summary(_ results: [StepEvaluation.SetResult], label: String) -> String {
        func group(_ r: StepEvaluation.SetResult, _ keep: (StepEvaluation.FileResult) -> Bool) -> String {
            r.absoluteError(where: keep).map { f($0.mean, 2) + "/" + f($0.worst) } ?? "-"
        }
        var line = pad(label, 30)
        for r in results {
            switch r.set {
            case .oxford:
                line += " oxford " + f(r.mape, 2) + "/" + f(r.maxAbsErrorPercent) + " P" + f(r.precision ?? 0, 3) + " R" + f(r.recall ?? 0, 3)
                line += " | samsung " + group(r) { $0.path.contains("/Samsung_") } + " | pixel+nexus " + group(r) { !$0.path.contains("/Samsung_") }
            case .bangleWalks:
                line += " | bangle " + f(r.mape, 2) + "/" + f(r.maxAbsErrorPercent)
            case .nonWalking:
                line += " | non-walking " + f(r.falseStepsPerHour) + "/h"
            }
        }
        line += " | latency " + f(results.map(\.maxLatencySeconds).max() ?? 0, 2)
        let missed = StepEvaluation.verdicts(results).filter { !$0.met }.map { "\($0.set).\($0.name)" }
        return line + (missed.isEmpty ? " | PASS" : " | FAIL " + missed.joined(separator: ","))
    }

    static func f(_ x: Double, _ digits: Int = 1) -> String {
        StepFormatting.fixed(x, digits)
    }

    static func pad(_ s: String, _ w: Int, right: Bool = false) -> String {
        s.count >= w ? s : (right ? String(repeating: " ", count: w - s.count) + s : s + String(repeating: " ", count: w - s.count))
    }

    static func table(_ r: StepEvaluation.SetResult, io: CommandIO) {
        io.out("== \(r.set.title) (\(r.files.count) files, \(f(r.hours, 2)) h)")
        let matched = r.set == .oxford
        io.out(pad("file", 44) + pad("truth", 7, right: true) + pad("counted", 9, right: true) + pad("error%", 9, right: true)
               + (matched ? pad("prec", 7, right: true) + pad("recall", 8, right: true) : "") + pad("latency_s", 11, right: true) + pad("hold_s", 8, right: true)
               + (r.set == .nonWalking ? pad("duration_s", 12, right: true) + pad("false", 7, right: true) : ""))
        for x in r.files {
            var line = pad(x.fileName, 44) + pad("\(x.truth)", 7, right: true) + pad("\(x.counted)", 9, right: true)
                + pad(x.errorPercent.map { ($0 >= 0 ? "+" : "") + f($0) } ?? "-", 9, right: true)
            if let m = x.matching { line += pad(f(m.precision, 3), 7, right: true) + pad(f(m.recall, 3), 8, right: true) }
            line += pad(f(x.maxLatencySeconds, 2), 11, right: true) + pad(f(x.maxActivityHoldSeconds, 2), 8, right: true)
            if r.set == .nonWalking { line += pad(f(x.durationSeconds, 0), 12, right: true) + pad("\(x.excess)", 7, right: true) }
            io.out(line)
        }
        io.out("  (latency_s: the counter's own, judged; hold_s: the extra hold for the activity classifier's vehicle decision, reported: longest \(f(r.maxActivityHoldSeconds, 2)) s)")
        for v in StepEvaluation.verdicts([r]) {
            let digits = v.name.contains("precision") || v.name.contains("recall") ? 3 : 2
            io.out("  target \(pad(v.name, 22)) \(pad(f(v.value, digits), 8, right: true)) \(v.comparison.rawValue) \(f(v.target, digits))  \(v.met ? "met" : "NOT MET")")
        }
        if r.set == .nonWalking {
            io.out("  (false steps = steps counted beyond the manifest truth: \(r.falseSteps) in \(f(r.hours, 2)) h; total counted \(r.files.map(\.counted).reduce(0, +)), truth \(r.files.map(\.truth).reduce(0, +)))")
        }
        if r.set == .oxford {
            // Per device/user group (first two name parts), to show how the error spreads across held-out groups.
            io.out("  by phone_user: " + r.mapeByGroup(\.phoneAndUser).map { "\($0.group) MAPE \(f($0.mape))% (\($0.files))" }.joined(separator: ", "))
        }
        io.out("")
    }

    /// The JSON document (keys documented in docs/step-counter.md).
    static func json(_ results: [StepEvaluation.SetResult]) -> String {
        func q(_ s: String) -> String { StepFormatting.jsonString(s) }
        func n(_ x: Double) -> String { StepFormatting.jsonNumber(x) }
        var sets: [String] = []
        for r in results {
            let files = r.files.map { x -> String in
                var o = "{\"path\":\(q(x.path)),\"activity\":\(q(x.activity)),\"truth\":\(x.truth),\"counted\":\(x.counted),"
                o += "\"error_percent\":\(x.errorPercent.map(n) ?? "null"),\"duration_s\":\(n(x.durationSeconds)),\"max_latency_s\":\(n(x.maxLatencySeconds)),\"max_activity_hold_s\":\(n(x.maxActivityHoldSeconds))"
                if let m = x.matching { o += ",\"matched\":\(m.matched),\"precision\":\(n(m.precision)),\"recall\":\(n(m.recall)),\"offset_s\":\(n(Double(m.offset) / 1e9))" }
                return o + "}"
            }
            var o = "{\"set\":\(q(r.set.rawValue)),\"files\":[\(files.joined(separator: ","))],\"hours\":\(n(r.hours)),"
            o += "\"mape_percent\":\(n(r.mape)),\"max_abs_error_percent\":\(n(r.maxAbsErrorPercent)),"
            o += "\"precision\":\(r.precision.map(n) ?? "null"),\"recall\":\(r.recall.map(n) ?? "null"),"
            o += "\"false_steps\":\(r.falseSteps),\"false_steps_per_hour\":\(n(r.falseStepsPerHour)),\"max_latency_s\":\(n(r.maxLatencySeconds)),\"max_activity_hold_s\":\(n(r.maxActivityHoldSeconds))}"
            sets.append(o)
        }
        let verdicts = StepEvaluation.verdicts(results)
        let v = verdicts.map { "{\"set\":\(q($0.set)),\"name\":\(q($0.name)),\"value\":\(n($0.value)),\"target\":\(n($0.target)),\"comparison\":\(q($0.comparison.rawValue)),\"met\":\($0.met)}" }
        return "{\"sets\":[\(sets.joined(separator: ","))],\"targets\":[\(v.joined(separator: ","))],\"all_targets_met\":\(verdicts.allSatisfy(\.met))}"
    }
}
