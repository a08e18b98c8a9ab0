import MotionAnalysis
import MotionCore

/// `motionbatch epochs FILE|DIR... [--per day|hour|minute] [--csv|--json]`: research summaries per
/// epoch (steps, cadence, minutes per activity class, ENMO, MAD, wear time by GGIR's non-wear
/// rule), and `epochs --merge` to join the outputs of `--shard` runs.
enum EpochsCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "epochs",
            abstract: "Summarise recordings per day, hour or minute: steps, cadence, activity, ENMO, MAD, wear time.",
            discussion: """
            Streams each recording (any dialect; a folder is each recording inside it) through the \
            analysis and prints one row per epoch holding samples: steps; the median cadence over the \
            minutes of at least 20 steps and the peak 1-minute cadence; minutes per activity class; ENMO \
            (mean of max(0, |a| - 1 g)) and MAD (mean amplitude deviation of 5 s windows), in mg; and \
            wear time by GGIR's non-wear rule (a 15-minute block is non-wear when the 60-minute window \
            centred on it has, on at least 2 of 3 axes, a standard deviation below 13 mg and a range below \
            50 mg; --nonwear-* change it). Epochs follow the local clock: for a device file whose zone is \
            known (or given with --tz) the device's local day; for a device-local file its own clock; for \
            any other file with Unix times, UTC days (or --tz's); a relative clock counts days from 0. With \
            --per day a day is valid when it holds at least --min-wear-hours of wear. --json prints one \
            object per file and line (NDJSON, docs/schemas/epochs.schema.json); --csv a header line and \
            one row per epoch. --merge FILE... joins the --csv or --json outputs of --shard runs into \
            what one run over the same folder prints (rows by file in byte order). docs/research.md.
            """,
            arguments: [ArgumentSpec("FILE", help: "Recording(s) or folder(s) to summarise ('-' for standard input); with --merge, the outputs to join.", repeated: true)],
            options: [
                .option("per", value: "EPOCH", help: "Epoch length: day (default), hour or minute."),
                .flag("json", help: "Print one JSON object per file and line (NDJSON)."),
                .flag("csv", help: "Print CSV: a header line, then one row per epoch."),
                .option("min-wear-hours", value: "H", help: "With --per day: a day is valid with at least H hours of wear (default 16)."),
                .option("nonwear-sd", value: "MG", help: "Non-wear: the standard deviation criterion in mg (default 13)."),
                .option("nonwear-range", value: "MG", help: "Non-wear: the range criterion in mg (default 50)."),
                .option("nonwear-axes", value: "N", help: "Non-wear: axes that must meet both criteria (default 2 of 3)."),
                .option("nonwear-window", value: "MIN", help: "Non-wear: the window centred on each 15-minute block, minutes, a multiple of 15 (default 60)."),
                .flag("calibrate", help: "Auto-calibrate first (GGIR's sphere fit on still 10 s windows; a second pass over the file), applied to ENMO, MAD and non-wear when it fits; reported on stderr and in --json."),
                .flag("merge", help: "Join the --csv or --json outputs of --shard runs (the FILEs) into one, rows by file in byte order."),
                StepFormatting.noInferredOption,
                EachFile.recursiveOption,
            ] + EachFile.parallelOptions + InputOptions.options,
            run: { args, io in
                let files = args.arguments("FILE")
                guard !files.isEmpty else { throw CLIError.usage("missing FILE") }
                try CSVOutput.checkExclusive(args)
                if args.flag("merge") { return try EpochsMerge.run(files, args: args, io: io) }
                let settings = try Settings(args)
                let input = try InputOptions.parse(args)
                if args.flag("csv") { io.out(CSVOutput.header(csvColumns)) }
                try EachFile.run(files, io: io, folders: EachFile.folders(args, input: input), input: input) { file, io, input in
                    var bar = ProgressBar(label: "epochs \(file)", total: file == "-" ? 0 : CLIFiles.size(file), io: io)
                    defer { bar.finish(io: io) }
                    let (report, warnings) = try summarise(file, input: input, settings: settings, progress: { bar.update($0, io: io) })
                    bar.finish(io: io)
                    try input.report(warnings, to: io)
                    if let c = report.calibration { io.err(EpochsReport.calibrationLine(file: file, c)) }
                    if args.flag("json") {
                        io.out(report.json(settings: settings).serialized())
                    } else if args.flag("csv") {
                        for row in report.rows(settings: settings) { io.out(CSVOutput.line(row)) }
                    } else {
                        for line in report.text(settings: settings) { io.out(line) }
                    }
                }
            }
        )
    }

    /// The options of a run.
    struct Settings {
        var length = EpochLength.day
        var minimumWearHours = 16.0
        var nonWear = NonWearRule()
        var calibrate = false
        /// Whether steps are inferred in the counter's silences during gait (`--no-inferred-steps`).
        var inferSteps = true

        init(_ args: ParsedArguments) throws(CLIError) {
            calibrate = args.flag("calibrate")
            inferSteps = !args.flag("no-inferred-steps")
            if let p = args.string("per") {
                guard let l = EpochLength(rawValue: p) else {
                    throw .usage("The value '\(DiagnosticText.escaped(p.utf8))' is invalid for '--per': expected 'day', 'hour' or 'minute'.")
                }
                length = l
            }
            if let h = try args.double("min-wear-hours", rule: ValueRule("hours", unit: "h", 0...24)) { minimumWearHours = h }
            if let v = try args.double("nonwear-sd", rule: ValueRule("standard deviation", unit: "mg", 0...1000, excludingLower: true)) { nonWear.standardDeviation = v / 1000 }
            if let v = try args.double("nonwear-range", rule: ValueRule("range", unit: "mg", 0...16000, excludingLower: true)) { nonWear.range = v / 1000 }
            if let v = try args.int("nonwear-axes", rule: ValueRule("axes", unit: "", 1...3)) { nonWear.axes = v }
            if let v = try args.int("nonwear-window", rule: ValueRule("window", unit: "min", 15...1440)) { nonWear.windowMinutes = v }
            if let why = nonWear.invalidReason { throw .usage("The non-wear rule is invalid: \(why).") }
            if args.string("min-wear-hours") != nil && length != .day { throw .usage("'--min-wear-hours' goes with '--per day'.") }
        }
    }

    /// The `--csv` columns (one row per epoch).
    static let csvColumns = ["file", "start", "start_s", "samples", "data_min", "wear_min", "nonwear_min", "steps", "inferred_steps",
                             "cadence_median_spm", "cadence_peak_spm"] + ActivityClass.allCases.map { "\($0.rawValue)_min" }
        + ["enmo_mg", "mad_mg", "valid_day"]

    /// The version of the `--json` object (docs/schemas/epochs.schema.json).
    static let schema = 1

    /// Streams one recording through the standard analyzers and the acceleration metrics.
    /// - Throws: ``CLIError/failure(_:exitCode:)`` naming the file and line of bad input.
    static func summarise(_ file: String, input: InputOptions, settings: Settings,
                          progress: (Int) -> Void = { _ in }) throws(CLIError) -> (EpochsReport, [RecordingWarning]) {
        do {
            let open = try input.reopenable(file)
            var calibration: AccelerationCalibration?
            if settings.calibrate {
                var still: AnalyzerHandle<StillWindowAnalyzer>?
                let first = try RecordingReplay.run(reader: try open()) { header in
                    var pipeline = AnalysisPipeline()
                    still = pipeline.add(StillWindowAnalyzer())
                    return [ReplaySession(policy: .samples(RecordingReplay.chunkSamples), pipeline: pipeline, labelled: false)]
                }
                let means = first.sessions[0].pipeline.result(of: still!).values
                calibration = AccelerationCalibration.fit(means.map { ($0.x, $0.y, $0.z) })
            }
            var handles: (StandardAnalyzers, AnalyzerHandle<AccelerationMetricsAnalyzer>)?
            let replay = try RecordingReplay.run(reader: try open(), progress: progress) { header in
                var (pipeline, standard) = try StandardAnalyzers.pipeline(for: header)
                let metrics = pipeline.add(AccelerationMetricsAnalyzer(calibration: calibration))
                handles = (standard, metrics)
                return [ReplaySession(policy: .samples(RecordingReplay.chunkSamples), pipeline: pipeline, labelled: header.hasLabels)]
            }
            let (standard, metricsHandle) = handles!
            let pipeline = replay.sessions[0].pipeline
            let metrics = pipeline.result(of: metricsHandle)
            let clock = EpochsClock(header: replay.header, firstTimestamp: metrics.minutes.first.map(\.start), zone: input.dialectOptions.timeZone)
            let summary = EpochSummary(length: settings.length, utcOffsetSeconds: clock.offsetSeconds, metrics: metrics,
                                       steps: pipeline.result(of: standard.steps).timestamps,
                                       inferred: settings.inferSteps ? standard.stepSummary(of: pipeline).inferred?.times ?? [] : [],
                                       timeline: pipeline.result(of: standard.activity), nonWear: settings.nonWear)
            return (EpochsReport(file: file, clock: clock, summary: summary, calibration: calibration), replay.warnings)
        } catch let e as CLIError {
            throw e
        } catch {
            throw .failure("\(error)")
        }
    }
}

/// How a recording's clock maps to local days (docs/research.md, "Local days").
struct EpochsClock: Equatable {
    /// `utc` (Unix time; days are local with ``offsetSeconds``), `device-local` (the numbers are
    /// local wall time), or `relative` (not a calendar: days count from the clock's zero).
    var basis: String
    /// Added to the recording's clock to get local time, s.
    var offsetSeconds: Int

    /// 2000-01-01T00:00:00Z: a timestamp from then on is read as Unix time when the file does not
    /// say what its clock is.
    static let calendarFrom: Int64 = 946_684_800_000_000_000

    init(header: RecordingHeader, firstTimestamp: Int64?, zone: UTCOffset?) {
        switch header.metadata[RecordingKey.timeBasis] {
        case DeviceTimeBasis.utc?:
            basis = "utc"
            let text = header.metadata[RecordingKey.utcOffset].map { String($0.split(separator: " ").first ?? "") } ?? ""
            offsetSeconds = UTCOffset(parsing: text)?.seconds ?? zone?.seconds ?? 0
        case DeviceTimeBasis.deviceLocal?:
            basis = "device-local"
            offsetSeconds = 0
        default:
            if let t = firstTimestamp, t >= Self.calendarFrom {
                basis = "utc"
                offsetSeconds = zone?.seconds ?? 0
            } else {
                basis = "relative"
                offsetSeconds = 0
            }
        }
    }

    /// The local start of an epoch as text: `2021-12-20T00:00:00-06:00` (utc), `2021-12-20T00:00:00`
    /// (device-local), nil (relative: `start_s` says it).
    func label(_ start: Int64) -> String? {
        switch basis {
        case "relative": return nil
        case "device-local": return String(UTCTime.iso8601(start).dropLast())
        default:
            let local = String(UTCTime.iso8601(start &+ Int64(offsetSeconds) * 1_000_000_000).dropLast())
            return local + (offsetSeconds == 0 ? "Z" : UTCOffset(seconds: offsetSeconds).description)
        }
    }
}

/// One file's epochs, formatted three ways.
struct EpochsReport {
    var file: String
    var clock: EpochsClock
    var summary: EpochSummary
    /// The auto-calibration, when `--calibrate` asked for it.
    var calibration: AccelerationCalibration?

    /// The stderr line saying what `--calibrate` did.
    static func calibrationLine(file: String, _ c: AccelerationCalibration) -> String {
        let name = DiagnosticText.escaped(file.utf8, limit: 120)
        guard c.isApplied else { return "\(name): auto-calibration not applied: \(c.reason ?? "")" }
        func f(_ xs: [Double], _ d: Int) -> String { xs.map { StepFormatting.fixed($0, d) }.joined(separator: " ") }
        return "\(name): auto-calibration applied (\(c.windows) still windows): offset \(f(c.offset, 4)) g, scale \(f(c.scale, 4)); error \(StepFormatting.fixed(c.errorBefore * 1000, 1)) -> \(StepFormatting.fixed(c.errorAfter * 1000, 1)) mg"
    }

    /// The `--json` member of the calibration (null when not asked for).
    var calibrationJSON: JSONValue {
        guard let c = calibration else { return .null }
        return .object([
            ("applied", .bool(c.isApplied)),
            ("reason", c.reason.map(JSONValue.string) ?? .null),
            ("still_windows", .number(c.windows)),
            ("offset_g", .array(c.offset.map { Self.rounded($0, 1e6) })),
            ("scale", .array(c.scale.map { Self.rounded($0, 1e6) })),
            ("error_before_mg", Self.rounded(c.errorBefore * 1000)),
            ("error_after_mg", Self.rounded(c.errorAfter * 1000)),
        ])
    }

    private static func rounded(_ x: Double, _ digits: Double = 1000) -> JSONValue { .number((x * digits).rounded() / digits) }

    /// Whether an epoch is a valid day (nil unless epochs are days).
    private func valid(_ e: Epoch, _ settings: EpochsCommand.Settings) -> Bool? {
        summary.length == .day ? e.wearHours >= settings.minimumWearHours : nil
    }

    /// An epoch's inferred steps, null when not inferred (`--no-inferred-steps`).
    private func inferred(_ e: Epoch, _ settings: EpochsCommand.Settings) -> JSONValue { settings.inferSteps ? .number(e.inferredSteps) : .null }

    /// The `--csv` rows.
    func rows(settings: EpochsCommand.Settings) -> [[JSONValue]] {
        summary.epochs.map { e in
            [.string(file), clock.label(e.start).map(JSONValue.string) ?? .null, .number(Double(e.start) / 1e9), .number(e.samples),
             .number(e.dataMinutes), .number(e.wearMinutes), .number(e.nonWearMinutes), .number(e.steps), inferred(e, settings),
             .number(e.cadenceMedian), .number(e.cadencePeak)]
                + e.activityMinutes.map { Self.rounded($0) }
                + [Self.rounded(e.enmo), Self.rounded(e.mad), valid(e, settings).map(JSONValue.bool) ?? .null]
        }
    }

    /// The `--json` object.
    func json(settings: EpochsCommand.Settings) -> JSONValue {
        let epochs: [JSONValue] = summary.epochs.map { e in
            .object([
                ("start", clock.label(e.start).map(JSONValue.string) ?? .null),
                ("start_s", .number(Double(e.start) / 1e9)),
                ("samples", .number(e.samples)),
                ("data_min", .number(e.dataMinutes)),
                ("wear_min", .number(e.wearMinutes)),
                ("nonwear_min", .number(e.nonWearMinutes)),
                ("steps", .number(e.steps)),
                ("inferred_steps", inferred(e, settings)),
                ("cadence_median_spm", .number(e.cadenceMedian)),
                ("cadence_peak_spm", .number(e.cadencePeak)),
                ("activity_min", .object(ActivityClass.allCases.map { ($0.rawValue, Self.rounded(e.activityMinutes[$0.index])) })),
                ("enmo_mg", Self.rounded(e.enmo)),
                ("mad_mg", Self.rounded(e.mad)),
                ("valid_day", valid(e, settings).map(JSONValue.bool) ?? .null),
            ])
        }
        return .object([
            ("schema", .number(EpochsCommand.schema)),
            ("file", .string(file)),
            ("per", .string(summary.length.rawValue)),
            ("clock", .string(clock.basis)),
            ("utc_offset_s", clock.basis == "utc" ? .number(clock.offsetSeconds) : .null),
            ("nonwear_rule", .object([
                ("sd_mg", .number(settings.nonWear.standardDeviation * 1000)),
                ("range_mg", .number(settings.nonWear.range * 1000)),
                ("axes", .number(settings.nonWear.axes)),
                ("window_min", .number(settings.nonWear.windowMinutes)),
            ])),
            ("min_wear_hours", summary.length == .day ? .number(settings.minimumWearHours) : .null),
            ("valid_days", summary.length == .day ? .number(summary.validDays(minimumWearHours: settings.minimumWearHours)) : .null),
            ("calibration", calibrationJSON),
            ("epochs", .array(epochs)),
        ])
    }

    /// The text output: a line for the file, then a table.
    func text(settings: EpochsCommand.Settings) -> [String] {
        var out: [String] = []
        let n = summary.epochs.count
        var head = "\(file): \(n) \(summary.length.rawValue)\(n == 1 ? "" : "s") (\(clock.basis == "relative" ? "relative clock" : clock.basis == "utc" ? "local time, UTC\(clock.offsetSeconds == 0 ? "" : UTCOffset(seconds: clock.offsetSeconds).description)" : "device-local time"))"
        if summary.length == .day {
            head += ", \(summary.validDays(minimumWearHours: settings.minimumWearHours)) valid (>= \(StepFormatting.fixed(settings.minimumWearHours, 1)) h wear)"
        }
        out.append(head)
        out.append("  " + ["start".padding(25), "wear h".leftPadding(7), "steps".leftPadding(7), "cad.med".leftPadding(8), "cad.peak".leftPadding(8),
                           "still".leftPadding(7), "walk".leftPadding(7), "run".leftPadding(7), "cycle".leftPadding(7), "vehicle".leftPadding(7),
                           "unknown".leftPadding(7), "ENMO mg".leftPadding(8), "MAD mg".leftPadding(8)].joined(separator: " "))
        for e in summary.epochs {
            let start = clock.label(e.start) ?? (StepFormatting.fixed(Double(e.start) / 1e9, 0) + " s")
            var cells = [start.padding(25), StepFormatting.fixed(e.wearHours, 2).leftPadding(7), String(e.steps).leftPadding(7),
                         (e.cadenceMedian.map { StepFormatting.fixed($0, 1) } ?? "-").leftPadding(8), String(e.cadencePeak).leftPadding(8)]
            cells += e.activityMinutes.map { StepFormatting.fixed($0, 1).leftPadding(7) }
            cells += [StepFormatting.fixed(e.enmo, 1).leftPadding(8), StepFormatting.fixed(e.mad, 1).leftPadding(8)]
            out.append("  " + cells.joined(separator: " "))
        }
        out.append("  (activity columns in minutes; cad. = cadence, steps/min)")
        let inferred = summary.epochs.reduce(0) { $0 + $1.inferredSteps }
        if settings.inferSteps && inferred > 0 { out.append("  (+\(inferred) steps inferred in the counter's silences during gait, not in the steps column)") }
        return out
    }
}

extension String {
    /// The string padded with spaces on the left to `width` characters.
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
