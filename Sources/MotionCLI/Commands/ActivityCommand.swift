import MotionAnalysis
import MotionCore

/// `motionbatch activity FILE... [--json]`: the activity segments and time per class of recordings.
enum ActivityCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "activity",
            abstract: "Classify the activity in recordings (segments and time per class, one block per file).",
            discussion: """
            Streams each recording (any dialect, see docs/dialects.md; '-' is standard input) through the \
            analysis pipeline; a file that fails is reported and the others still run (exit status 1 if \
            any failed). Classes: still, \
            walking, running, cycling, vehicle, unknown (docs/activity-classifier.md). Each segment \
            is back-dated to when the activity began; announced_s is the sample time at which the \
            evidence for the change was complete. With --json, one JSON object per file and line: \
            {"schema": 1, "file", "duration_s", "activity" ([{"start_s", "end_s", "label", "confidence" (0-100, \
            mean over the segment), "announced_s"}], contiguous from the first to the last sample), \
            "activity_time_s" ({class: seconds} for all six classes), "changes"}. Times are seconds \
            on the recording's own clock (timestamp_ns / 1e9, or the plain CSV's time_s) \
            (docs/schemas/activity.schema.json). With --csv, a header line and one row per segment: \
            file,start_s,end_s,label,confidence,announced_s.
            """,
            arguments: [ArgumentSpec("FILE", help: "Recording(s) to analyse ('-' for standard input).", repeated: true)],
            options: [
                .flag("json", help: "Print one JSON object per file and line (NDJSON)."),
                .flag("csv", help: "Print CSV: a header line, then one row per segment (file,start_s,end_s,label,confidence,announced_s)."),
                .option("activity-param", value: "NAME=VALUE", help: "Override a classifier parameter for experiments (repeatable; see docs/activity-classifier.md).", repeated: true),
                EachFile.recursiveOption,
            ] + EachFile.parallelOptions + InputOptions.options,
            run: { args, io in
                let files = args.arguments("FILE")
                guard !files.isEmpty else { throw CLIError.usage("missing FILE") }
                let config = try ActivityParameters.configuration(args.strings("activity-param"))
                try CSVOutput.checkExclusive(args)
                let input = try InputOptions.parse(args)
                if args.flag("csv") { io.out(CSVOutput.header(["file"] + segmentColumns)) }
                try EachFile.run(files, io: io, folders: EachFile.folders(args, input: input), input: input) { file, io, input in
                    var bar = ProgressBar(label: "activity \(file)", total: file == "-" ? 0 : CLIFiles.size(file), io: io)
                    defer { bar.finish(io: io) }
                    let (timeline, duration, warnings) = try classify(file, input: input, configuration: config, progress: { bar.update($0, io: io) })
                    bar.finish(io: io)
                    try input.report(warnings, to: io)
                    if args.flag("json") {
                        io.out(json(file: file, timeline: timeline, duration: duration).serialized())
                    } else if args.flag("csv") {
                        if case .array(let segments) = ActivityFormatting.segmentsJSON(timeline) {
                            for segment in segments { io.out(CSVOutput.line([.string(file)] + segmentColumns.map { segment[$0] ?? .null })) }
                        }
                    } else {
                        io.out("\(file): \(formatFixed(duration, 1)) s, \(timeline.segments.count) segments, \(timeline.changes) changes")
                        for l in ActivityFormatting.segmentLines(timeline) { io.out("  " + l) }
                        io.out("  time: " + ActivityFormatting.timeLine(timeline))
                    }
                }
            }
        )
    }

    /// The members of a segment, the `--csv` columns after `file`.
    static let segmentColumns = ["start_s", "end_s", "label", "confidence", "announced_s"]

    /// The version of the `--json` object (docs/schemas/activity.schema.json).
    static let schema = 1

    /// One file's `--json` object.
    static func json(file: String, timeline: ActivityTimeline, duration: Double) -> JSONValue {
        .object([
            ("schema", .number(schema)),
            ("file", .string(file)),
            ("duration_s", .number(duration)),
            ("activity", ActivityFormatting.segmentsJSON(timeline)),
            ("activity_time_s", ActivityFormatting.timeJSON(timeline)),
            ("changes", .number(timeline.changes)),
        ])
    }

    /// Streams one recording through the standard pipeline (results do not depend on the batching).
    /// - Returns: the timeline, the recording's duration in seconds, and the reader's warnings.
    /// - Throws: ``CLIError/failure(_:exitCode:)`` naming the file and line of bad input.
    /// `progress` gets the input bytes read so far (``ProgressBar``).
    static func classify(_ file: String, input: InputOptions = .none, configuration: ActivityClassifierConfiguration,
                         progress: (Int) -> Void = { _ in }) throws(CLIError) -> (ActivityTimeline, Double, [RecordingWarning]) {
        do {
            let (replay, analyzers) = try StandardAnalyzers.replay(reader: try input.open(file), policy: .samples(RecordingReplay.chunkSamples), activity: configuration,
                                                                   progress: progress)
            let pipeline = replay.sessions[0].pipeline
            return (pipeline.result(of: analyzers.activity), pipeline.result(of: analyzers.stream).durationSeconds, replay.warnings)
        } catch {
            throw .failure("\(error)")
        }
    }
}
