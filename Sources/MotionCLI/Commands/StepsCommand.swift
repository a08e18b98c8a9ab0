import MotionAnalysis
import MotionCore

/// `motionbatch steps FILE... [--json]`: count steps in recordings, one line per file.
enum StepsCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "steps",
            abstract: "Count steps in recordings (one line per file: count, duration, cadence).",
            discussion: """
            Streams each recording (any dialect, see docs/dialects.md; '-' is standard input) through the \
            analysis pipeline. A file that fails is reported and the others still run; the exit status is \
            1 if any failed. With --json each line is \
            one JSON object: {"schema": 1, "file", "steps", "duration_s", "cadence_spm" (median walking cadence, \
            steps/min, null if under two steps), "step_times_s" (each step's time in seconds on the \
            recording's own clock: timestamp_ns / 1e9, or the plain CSV's time_s), "cadence_series" \
            ([{"start_s", "spm"}]: steps per minute in 10 s windows aligned to multiples of 10 s on the \
            recording's clock, start_s on that clock, from the first to the last step's window), \
            "inferred_steps" (steps inferred from the gait period where the classifier says walking or \
            running and the signal moves but the counter located no step; never part of "steps"; null \
            with --no-inferred-steps), "inferred_stretches" ([{"start_s", "end_s", "period_s", "steps"}]: \
            each such silence between two counted steps)} \
            (docs/schemas/steps.schema.json). With --csv, a header line and one row per file \
            (file,steps,duration_s,cadence_spm,inferred_steps; --per file, the default) or per step \
            (file,step,time_s; --per step: counted steps only).
            """,
            arguments: [ArgumentSpec("FILE", help: "Recording(s) to analyse ('-' for standard input).", repeated: true)],
            options: [
                .flag("json", help: "Print one JSON object per file and line (NDJSON)."),
                .flag("csv", help: "Print CSV: a header line, then one row per file (or per step with --per step)."),
                .option("per", value: "ROW", help: "With --csv: one row per 'file' (default) or per 'step'."),
                .option("param", value: "NAME=VALUE", help: "Override a step-counter parameter for experiments (repeatable; see docs/step-counter.md).", repeated: true),
                StepFormatting.noInferredOption,
                EachFile.recursiveOption,
            ] + EachFile.parallelOptions + InputOptions.options,
            run: { args, io in
                let files = args.arguments("FILE")
                guard !files.isEmpty else { throw CLIError.usage("missing FILE") }
                try CSVOutput.checkExclusive(args)
                let perStep: Bool
                switch args.string("per") {
                case nil, "file": perStep = false
                case "step": perStep = true
                case let other?: throw CLIError.usage("The value '\(DiagnosticText.escaped(other.utf8))' is invalid for '--per': expected 'file' or 'step'.")
                }
                if args.string("per") != nil && !args.flag("csv") { throw CLIError.usage("'--per' goes with '--csv'.") }
                let config = try StepParameters.configuration(args.strings("param"))
                let input = try InputOptions.parse(args)
                if args.flag("csv") { io.out(CSVOutput.header(perStep ? csvStepColumns : csvFileColumns)) }
                try EachFile.run(files, io: io, folders: EachFile.folders(args, input: input), input: input) { file, io, input in
                    var bar = ProgressBar(label: "steps \(file)", total: file == "-" ? 0 : CLIFiles.size(file), io: io)
                    defer { bar.finish(io: io) }
                    let (summary, duration, warnings) = try count(file, input: input, configuration: config, inferring: !args.flag("no-inferred-steps"), progress: { bar.update($0, io: io) })
                    bar.finish(io: io)
                    try input.report(warnings, to: io)
                    let object = json(file: file, summary: summary, duration: duration)
                    if args.flag("json") {
                        io.out(object.serialized())
                    } else if args.flag("csv") && perStep {
                        for (i, t) in summary.timestamps.enumerated() {
                            io.out(CSVOutput.line([.string(file), .number(i + 1), .number(Double(t) / 1e9)]))
                        }
                    } else if args.flag("csv") {
                        io.out(CSVOutput.line(csvFileColumns.map { object[$0] ?? .null }))
                    } else {
                        let cadence = summary.cadence.map { StepFormatting.fixed($0, 1) + " steps/min" } ?? "-"
                        io.out("\(file): \(summary.count) steps\(StepFormatting.inferredSuffix(summary)) in \(StepFormatting.fixed(duration, 1)) s, cadence \(cadence)")
                    }
                }
            }
        )
    }

    /// `--csv --per file`'s columns (members of the `--json` object).
    static let csvFileColumns = ["file", "steps", "duration_s", "cadence_spm", "inferred_steps"]
    /// `--csv --per step`'s columns: the file, the step's number from 1, its time on the recording's clock.
    static let csvStepColumns = ["file", "step", "time_s"]

    /// The version of the `--json` object (docs/schemas/steps.schema.json).
    static let schema = 1

    /// One file's `--json` object; times on the recording's own clock (seconds).
    static func json(file: String, summary: StepSummary, duration: Double) -> JSONValue {
        .object([
            ("schema", .number(schema)),
            ("file", .string(file)),
            ("steps", .number(summary.count)),
            ("duration_s", .number(duration)),
            ("cadence_spm", .number(summary.cadence)),
            ("step_times_s", .array(summary.timestamps.map { .number(Double($0) / 1e9) })),
            ("cadence_series", .array(summary.cadenceSeries(window: 10_000_000_000).map {
                .object([("start_s", .number(Double($0.start) / 1e9)), ("spm", .number($0.stepsPerMinute))])
            })),
        ] + StepFormatting.inferredMembers(summary))
    }

    /// Streams one recording through the standard pipeline (results do not depend on the batching).
    /// - Returns: the steps (and those inferred, unless `inferring` is false), the recording's duration in seconds, and the reader's warnings
    /// (tolerated defects, printed like `replay`'s and `convert`'s).
    /// - Throws: ``CLIError/failure(_:exitCode:)`` naming the file and line of bad input.
    /// `progress` gets the input bytes read so far (``ProgressBar``).
    static func count(_ file: String, input: InputOptions = .none, configuration: StepCounterConfiguration, inferring: Bool = true,
                      progress: (Int) -> Void = { _ in }) throws(CLIError) -> (StepSummary, Double, [RecordingWarning]) {
        do {
            let (replay, analyzers) = try StandardAnalyzers.replay(reader: try input.open(file), policy: .samples(RecordingReplay.chunkSamples), steps: configuration,
                                                                   progress: progress)
            let pipeline = replay.sessions[0].pipeline
            return (analyzers.stepSummary(of: pipeline, inferring: inferring), pipeline.result(of: analyzers.stream).durationSeconds, replay.warnings)
        } catch {
            throw .failure("\(error)")
        }
    }
}
