import MotionAnalysis
import MotionCore

/// `motionbatch steps FILE... [--json]`: count steps in recordings, one line per file.
enum StepsCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "steps",
            abstract: "Count steps in recordings (one line per file: count, duration, cadence).",
            discussion: """
            Streams each recording (either format) through the step counter. With --json each line is \
            one JSON object: {"file", "steps", "duration_s", "cadence_spm" (median walking cadence, \
            steps/min, null if under two steps), "step_times_s" (seconds from the first sample), \
            "cadence_series" ([{"start_s", "spm"}]: steps per minute in 10 s windows aligned to multiples \
            of 10 s on the sample clock, start relative to the first sample, from the first to the last step)}.
            """,
            arguments: [ArgumentSpec("FILE", help: "Recording(s) to analyse.", repeated: true)],
            options: [
                .flag("json", help: "Print one JSON object per file."),
                .option("param", value: "NAME=VALUE", help: "Override a step-counter parameter for experiments (repeatable; see docs/step-counter.md).", repeated: true),
            ],
            run: { args, io in
                let files = args.arguments("FILE")
                guard !files.isEmpty else { throw CLIError.usage("missing FILE") }
                var config = StepCounterConfiguration()
                for p in args.strings("param") { try config.set(p) }
                for file in files {
                    let (summary, first, duration, warnings) = try count(file, configuration: config)
                    WarningReport.print(warnings, to: io)
                    let cadence = summary.cadence
                    if args.flag("json") {
                        let times = summary.timestamps.map { StepFormatting.jsonNumber(Double($0 - first) / 1e9) }
                        let series = summary.cadenceSeries(window: 10_000_000_000).map {
                            "{\"start_s\":\(StepFormatting.jsonNumber(Double($0.start - first) / 1e9)),\"spm\":\(StepFormatting.jsonNumber($0.stepsPerMinute))}"
                        }
                        io.out("{\"file\":\(StepFormatting.jsonString(file)),\"steps\":\(summary.count),\"duration_s\":\(StepFormatting.jsonNumber(duration)),\"cadence_spm\":\(cadence.map(StepFormatting.jsonNumber) ?? "null"),\"step_times_s\":[\(times.joined(separator: ","))],\"cadence_series\":[\(series.joined(separator: ","))]}")
                    } else {
                        io.out("\(file): \(summary.count) steps in \(StepFormatting.fixed(duration, 1)) s, cadence \(cadence.map { StepFormatting.fixed($0, 1) + " steps/min" } ?? "-")")
                    }
                }
            }
        )
    }

    /// Streams one recording through a ``StepCounter``.
    /// - Returns: the steps, the first timestamp, the duration in seconds, and the reader's warnings.
    static func count(_ file: String, configuration: StepCounterConfiguration = StepCounterConfiguration()) throws -> (StepSummary, Int64, Double, [RecordingWarning]) {
        let reader = try RecordingReader(path: file)
        var counter = try StepCounter(configuration: configuration)
        var steps: [Int64] = []
        var first: Int64?
        var last: Int64 = 0
        while let chunk = try reader.next(maxSamples: 4096) {
            if chunk.samples.isEmpty { continue }
            if first == nil { first = chunk.samples[0].timestamp }
            last = chunk.samples[chunk.samples.count - 1].timestamp
            do { try counter.process(chunk.samples, into: &steps) } catch {
                throw CLIError.failure("\(file): line \(reader.lineNumber): \(error)")
            }
        }
        let start = first ?? 0
        return (StepSummary(timestamps: steps), start, Double(last - start) / 1e9, reader.warnings)
    }
}
