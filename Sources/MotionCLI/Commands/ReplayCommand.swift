#if canImport(Glibc)
import Glibc
#endif
import MotionAnalysis
import MotionCore
import MotionFleet
import MotionSession
import MotionSystem

/// `motionbatch replay`: the main job without hardware.
enum ReplayCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "replay",
            abstract: "Replay a recording through the analysis in batches, as a live device would deliver it.",
            discussion: """
            The recording (any dialect: MotionBatch format, plain CSV, phyphox, Sensor Logger, Bangle.js,
            a CSV through --columns, a raw IIO buffer through --layout; gzip-compressed, a zip or a folder;
            recognised from the content, see docs/dialects.md) is delivered in batches of N samples
            (--batch) or of the samples that accumulate in SECONDS (--latency), one wake-up per batch.
            Results do not depend on the batch size. Default: --latency 1. FILE '-' is standard input.
            Several files are replayed one after the other (with --json, one compact object per file and
            line, NDJSON, whatever their number: docs/schemas/replay.schema.json; with --csv, a header
            line and one row per file); a file that
            fails is reported and the others still run; the exit status is 1 if any failed.
            With --publish URL the recording is a simulated board: it goes through capture's
            session (the same analysis, per-batch reports, events and summary) and every message
            is published through the outbox as `capture --publish` does (docs/fleet.md);
            --pace realtime delivers each batch when its last sample is due.
            """,
            arguments: [ArgumentSpec("FILE", help: "The recording(s) to replay ('-' for standard input).", repeated: true)],
            options: [
                .option("batch", value: "N", help: "Deliver every N samples (watermark); 1 is per-sample."),
                .option("latency", value: "SECONDS", help: "Deliver when the oldest pending sample has waited SECONDS (0 is per-sample)."),
                .flag("json", help: "Print one JSON object per file and line (NDJSON; keys documented in docs/command-line.md)."),
                .flag("csv", help: "Print CSV: a header line, then one row per file (the --json figures, flattened)."),
                .option("pace", value: "MODE", help: "With --publish: realtime (each batch when its samples are due) or fast (default)."),
                .flag("ndjson", help: "With --publish: print one JSON object per batch, event and the summary on stdout, as capture --ndjson."),
                StepFormatting.noInferredOption,
                EachFile.recursiveOption,
            ] + EachFile.parallelOptions + InputOptions.options + PublishOptions.options,
            run: run
        )
    }

    /// The delivery policy chosen by `--batch` / `--latency`.
    static func policy(_ args: ParsedArguments) throws(CLIError) -> DeliveryPolicy {
        let batch = try args.int("batch", rule: InputLimits.positiveCount)
        let latency = try args.double("latency", rule: InputLimits.duration)
        switch (batch, latency) {
        case (.some, .some): throw .usage("'--batch' and '--latency' cannot be combined: choose one.")
        case (.some(let n), nil): return .samples(n)
        case (nil, .some(let s)): return .latency(seconds: s)
        case (nil, nil): return .latency(seconds: 1)
        }
    }

    /// What `replay` reports: the finished replay and where its results are.
    struct Outcome {
        var replay: RecordingReplay
        var analyzers: StandardAnalyzers
        /// The dialect that read the file (``MotionCore/RecordingDialect/name``).
        var dialect: String
        /// How the file was packed (gzip, zip, folder), or nil.
        var container: RecordingReader.Container?
        /// Whether steps are inferred in the counter's silences (not with `--no-inferred-steps`).
        var inferring = true
        var session: ReplaySession { replay.sessions[0] }
        var statistics: StreamStatistics { session.pipeline.result(of: analyzers.stream) }
        var steps: StepSummary { analyzers.stepSummary(of: session.pipeline, inferring: inferring) }
        var stepVisibility: EventVisibility { session.pipeline.visibility(of: analyzers.steps) }
        /// The activity segments.
        var activity: ActivityTimeline { session.pipeline.result(of: analyzers.activity) }
        /// How late each activity change became visible: its announcing delivery minus the
        /// (back-dated) start of the segment it opened.
        var activityVisibility: EventVisibility? { session.pipeline.visibility(of: analyzers.activity) }
    }

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        let files = args.arguments("FILE")
        guard !files.isEmpty else { throw CLIError.usage("missing FILE") }
        let policy = try policy(args)
        if args.string("publish") != nil {
            guard files.count == 1, files[0] != "-" else { throw CLIError.usage("'--publish' simulates one board: give one FILE (not '-').") }
            for o in ["jobs", "shard"] where args.string(o) != nil { throw CLIError.usage("'--\(o)' does not go with '--publish' (one simulated board).") }
            return try runPublishing(args, &io, path: files[0], policy: policy)
        }
        for o in ["pace"] where args.string(o) != nil { throw CLIError.usage("'--\(o)' needs '--publish URL'.") }
        if args.flag("ndjson") { throw CLIError.usage("'--ndjson' needs '--publish URL' (a simulated board); use --json.") }
        _ = try PublishOptions.configuration(args, session: "", latencySeconds: 0, defaultOutbox: { _ in nil })
        try CSVOutput.checkExclusive(args)
        let input = try InputOptions.parse(args)
        if args.flag("csv") { io.out(CSVOutput.header(csvColumns.map(\.name))) }
        try EachFile.run(files, io: io, folders: EachFile.folders(args, input: input), input: input) { path, localIO, input in
            var bar = ProgressBar(label: "replay \(path)", total: path == "-" ? 0 : CLIFiles.size(path), io: localIO)
            let outcome: Outcome
            do {
                let reader = try input.open(path)
                let (replay, analyzers) = try StandardAnalyzers.replay(reader: reader, policy: policy, progress: { bar.update($0, io: localIO) })
                outcome = Outcome(replay: replay, analyzers: analyzers, dialect: reader.dialect.name, container: reader.container,
                                  inferring: !args.flag("no-inferred-steps"))
            } catch {
                bar.finish(io: localIO)
                throw CLIError.failure("\(error)")
            }
            bar.finish(io: localIO)
            try input.report(outcome.replay.warnings, to: localIO)
            if args.flag("json") {
                localIO.out(json(outcome).serialized())
            } else if args.flag("csv") {
                let object = json(outcome)
                localIO.out(CSVOutput.line(csvColumns.map { column in column.path.reduce(object as JSONValue?) { $0?[$1] } ?? .null }))
            } else {
                localIO.writeOut(text(outcome))
            }
        }
    }

    /// `replay --publish`: the recording as a simulated board (``MotionFleet/SimulatedBoard``).
    static func runPublishing(_ args: ParsedArguments, _ io: inout CommandIO, path: String, policy: DeliveryPolicy) throws {
        if args.flag("json") || args.flag("csv") { throw CLIError.usage("'--\(args.flag("json") ? "json" : "csv")' and '--publish' cannot be combined: use --ndjson.") }
        let pace: SimulatedBoard.Pace
        switch args.string("pace") {
        case nil, "fast": pace = .fast
        case "realtime": pace = .realtime
        case let m?: throw CLIError.usage("The value '\(DiagnosticText.escaped(m.utf8))' is invalid for '--pace': expected 'realtime' or 'fast'.")
        }
        let session = CaptureCommand.newSessionID()
        let latency: Double = switch policy {
        case .latency(let ns): Double(ns) / 1e9
        case .samples: 1
        }
        guard let config = try PublishOptions.configuration(args, session: session, latencySeconds: latency,
                                                            defaultOutbox: { "motionbatch-\($0).outbox" }) else { return }
        let publisher = try PublishOptions.publisher(config, io: io)
        do { try SignalPipe.install([SIGINT, SIGTERM]) } catch { throw CLIError.failure("cannot install the signal handlers: \(error)") }
        var settings = SessionMachine.Settings(session: session)
        settings.inferSteps = !args.flag("no-inferred-steps")
        settings.batching = switch policy {
        case .samples(let n): "samples \(n)"
        case .latency(let ns): "latency \(Double(ns) / 1e9) s"
        }
        let log = ServiceLog.forStandardError(isTerminal: io.stderrIsTerminal)
        let output = SessionOutput(io: io, log: log, ndjson: args.flag("ndjson"), session: session)
        // The recording's sensors are the published samples' columns (as capture's devices are).
        var sampleSensors: SensorSet?
        if config.publishSamples {
            do { sampleSensors = try RecordingReader(path: path).header.sensors } catch { throw CLIError.failure("\(error)") }
        }
        let observer = PublishingObserver(inner: output, publisher: publisher, session: session, samples: sampleSensors)
        var signalled = false
        let recorder: SessionRecorder<PublishingObserver<SessionOutput>>
        do {
            recorder = try SimulatedBoard.run(path: path, policy: policy, pace: pace, settings: settings, observer: observer) {
                if !SignalPipe.take().isEmpty { signalled = true }
                return signalled
            }
        } catch {
            publisher.finish(deadline: MonotonicClock.nanoseconds())
            throw CLIError.failure("\(error)")
        }
        let left = publisher.finish(deadline: MonotonicClock.nanoseconds() + 5_000_000_000)
        if left > 0 {
            io.err("publish: \(left) messages are not acknowledged yet; they stay in the outbox \(config.outboxPath) and are sent by the next run")
        }
        if !args.flag("ndjson"), let s = recorder.machine.summary {
            io.writeOut("board \(config.board), session \(session)\n" + s.text)
        }
    }

    /// The version of the `--json` object (docs/schemas/replay.schema.json).
    static let schema = 1

    /// The `--csv` columns: each a member (or a member's member) of the `--json` object; arrays
    /// of names joined with `;`.
    static let csvColumns: [(name: String, path: [String])] = csvFigures + ActivityClass.allCases.map { c -> (name: String, path: [String]) in
        ("\(c.rawValue)_s", ["activity_time_s", c.rawValue])
    }

    private static let csvFigures: [(name: String, path: [String])] = [
        ("file", ["file"]), ("format", ["format"]), ("container", ["container"]), ("sensors", ["sensors"]),
        ("samples", ["samples"]), ("duration_s", ["duration_s"]), ("effective_rate_hz", ["effective_rate_hz"]),
        ("declared_rate_hz", ["declared_rate_hz"]), ("gap_count", ["gaps", "count"]), ("gap_longest_s", ["gaps", "longest_s"]),
        ("estimated_missing_samples", ["gaps", "estimated_missing_samples"]), ("batches", ["batches"]),
        ("largest_batch", ["largest_batch"]), ("sample_delay_max_s", ["sample_delay_s", "max"]),
        ("sample_delay_mean_s", ["sample_delay_s", "mean"]), ("steps", ["steps"]), ("inferred_steps", ["inferred_steps"]), ("cadence_spm", ["cadence_spm"]),
        ("step_visibility_max_s", ["step_visibility_s", "max"]), ("step_visibility_mean_s", ["step_visibility_s", "mean"]),
        ("activity_visibility_max_s", ["activity_visibility_s", "max"]), ("activity_visibility_mean_s", ["activity_visibility_s", "mean"]),
    ]

    /// The `--json` object. Keys are documented in README.md ("replay --json").
    static func json(_ r: Outcome) -> JSONValue {
        let st = r.statistics
        let steps = r.steps
        let header = r.replay.header
        let delivery = r.session.delivery
        var policyMembers: [(String, JSONValue)] = []
        switch delivery.policy {
        case .samples(let n): policyMembers = [("mode", .string("samples")), ("samples", .number(n))]
        case .latency(let ns): policyMembers = [("mode", .string("latency")), ("latency_s", .number(Double(ns) / 1e9))]
        }
        var members: [(String, JSONValue)] = [
            ("schema", .number(schema)),
            ("file", .string(r.replay.path)),
            ("format", .string(formatName(header.format, dialect: r.dialect))),
            ("container", r.container.map { .string($0.rawValue) } ?? .null),
            ("sensors", .array((header.sensors.contains(.accel) ? [JSONValue.string("accel")] : []) + (header.sensors.contains(.gyro) ? [.string("gyro")] : []))),
            ("samples", .number(st.sampleCount)),
            ("duration_s", .number(st.durationSeconds)),
            ("effective_rate_hz", .number(st.effectiveRateHz)),
            ("declared_rate_hz", .number(header.declaredRate)),
            ("gaps", .object([
                ("count", .number(st.gapCount)),
                ("longest_s", .number(Double(st.longestGap) / 1e9)),
                ("estimated_missing_samples", .int(st.estimatedMissingSamples)),
                ("nominal_period_s", .number(st.nominalPeriod.map { Double($0) / 1e9 })),
            ])),
            ("delivery", .object(policyMembers)),
            ("batches", .number(delivery.deliveries)),
            ("largest_batch", .number(delivery.largestDelivery)),
            ("sample_delay_s", .object([("max", .number(delivery.worstDelayS)), ("mean", .number(delivery.meanDelayS))])),
            ("steps", .number(steps.count)),
            ("step_times_s", .array(steps.timestamps.map { .number(Double($0) / 1e9) })),
            ("cadence_spm", .number(steps.cadence)),
        ]
        members += StepFormatting.inferredMembers(steps)
        members += [
            ("step_visibility_s", visibilityJSON(r.stepVisibility)),
            ("activity_visibility_s", visibilityJSON(r.activityVisibility)),
            ("activity", ActivityFormatting.segmentsJSON(r.activity)),
            ("activity_time_s", ActivityFormatting.timeJSON(r.activity)),
            ("warnings", WarningReport.json(r.replay.warnings)),
        ]
        return .object(members)
    }

    /// `{max, mean}` of `v` in seconds; nulls without events or without the analysis (nil).
    static func visibilityJSON(_ v: EventVisibility?) -> JSONValue {
        .object([("max", .number(v?.worstSeconds)), ("mean", .number(v?.meanSeconds))])
    }

    static func text(_ r: Outcome) -> String {
        let st = r.statistics
        let delivery = r.session.delivery
        func f(_ v: Double?, _ digits: Int = 3) -> String { v.map { formatFixed($0, digits) } ?? "-" }
        var lines: [(String, String)] = [
            ("file", r.replay.path),
            ("format", formatName(r.replay.header.format, dialect: r.dialect) + (r.container.map { " (\($0.rawValue))" } ?? "")),
            ("samples", "\(st.sampleCount)"),
            ("duration", "\(f(st.durationSeconds)) s"),
            ("effective rate", "\(f(st.effectiveRateHz)) Hz"),
            ("gaps", "\(st.gapCount) (longest \(f(Double(st.longestGap) / 1e9)) s, ~\(st.estimatedMissingSamples) samples missing)"),
        ]
        switch delivery.policy {
        case .samples(let n): lines.append(("delivery", "every \(n) samples"))
        case .latency(let ns): lines.append(("delivery", "max latency \(f(Double(ns) / 1e9)) s"))
        }
        lines.append(("batches (wake-ups)", "\(delivery.deliveries) (largest \(delivery.largestDelivery))"))
        lines.append(("sample delay", "at most \(f(delivery.worstDelayS)) s, mean \(f(delivery.meanDelayS)) s (timestamp to delivery)"))
        let steps = r.steps
        lines.append(("steps", "\(steps.count)" + StepFormatting.inferredSuffix(steps) + (steps.cadence.map { " (cadence \(f($0, 1)) steps/min)" } ?? "")))
        if let worst = r.stepVisibility.worstSeconds {
            lines.append(("step visible after", "at most \(f(worst, 2)) s"))
        }
        let activity = r.activity
        lines.append(("activity", "\(activity.segments.count) segments: " + activity.segments.map(\.label.rawValue).joined(separator: ", ")))
        lines.append(("activity time", ActivityFormatting.timeLine(activity)))
        if let worst = r.activityVisibility?.worstSeconds {
            lines.append(("activity visible after", "at most \(f(worst, 2)) s (evidence hold included)"))
        }
        let w = lines.map(\.0.count).max() ?? 0
        return lines.map { $0.0 + String(repeating: " ", count: w - $0.0.count) + "  " + $0.1 }.joined(separator: "\n") + "\n"
    }
}

/// `v` with exactly `digits` decimals (no Foundation formatting needed).
func formatFixed(_ v: Double, _ digits: Int) -> String {
    var out: [UInt8] = []
    appendFixed(v, digits, to: &out)
    return String(decoding: out, as: UTF8.self)
}

/// Appends ``formatFixed(_:_:)``'s text of `v` to `out` (no `String` made: the live view's redraws).
func appendFixed(_ v: Double, _ digits: Int, to out: inout [UInt8]) {
    guard v.isFinite else { out.append(UInt8(ascii: "-")); return }
    var p = 1.0
    for _ in 0..<digits { p *= 10 }
    let scaled = (abs(v) * p).rounded()
    let ip = Int64(scaled / p)
    if v < 0 && scaled != 0 { out.append(UInt8(ascii: "-")) }
    DecimalDigits.append(ip, to: &out)
    guard digits > 0 else { return }
    out.append(UInt8(ascii: "."))
    let frac = Int64(scaled - Double(ip) * p)
    let width = DecimalDigits.count(frac.magnitude) + (frac < 0 ? 1 : 0)
    for _ in 0..<max(0, digits - width) { out.append(UInt8(ascii: "0")) }
    DecimalDigits.append(frac, to: &out)
}

/// `motionbatch-v1` or `plain-csv` for MotionBatch's two CSV dialects, else the dialect's name
/// (`phyphox`, `sensor-logger`, `bangle`, `columns`, `iio`): the input format in output.
func formatName(_ f: RecordingFormat, dialect: String) -> String {
    switch f {
    case .motionbatch(let v): return "motionbatch-v\(v)"
    case .plain: return dialect == "plain" || dialect == "csv" ? "plain-csv" : dialect
    }
}
