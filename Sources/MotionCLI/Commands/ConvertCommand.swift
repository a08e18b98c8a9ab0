#if canImport(Glibc)
import Glibc
#endif
import MotionCore
import MotionSystem

/// `motionbatch convert IN... OUT [--format motionbatch|plain]`: rewrites a recording of any input
/// dialect in MotionBatch's format (or plain CSV), optionally cutting an excerpt and setting header
/// entries. Streams: memory does not grow with the file. Several recordings (several IN, or a
/// folder of recordings: ``EachFile``'s rule) are each converted into the folder OUT.
enum ConvertCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "convert",
            abstract: "Convert a recording of any input format to MotionBatch's format (or plain CSV).",
            discussion: """
            Reads IN (any dialect, recognised from the content or named by --input-format, see
            docs/dialects.md; '-' is standard input) and writes OUT; from an imported format the header
            names it (source: file:NAME (FORMAT)) and its clock.
            --from/--to cut an excerpt, in seconds from IN's first sample; timestamps are kept as they are.
            Header entries of IN are kept (MotionBatch output) and --set adds or replaces entries.
            OUT is written atomically: to a temporary file in its directory, fsynced and renamed over
            OUT when complete (a symlinked OUT keeps its link). If IN turns out to be malformed (the
            error names IN's file, line and column), or on SIGINT/SIGTERM/SIGHUP, no partial file is
            left and an existing OUT is untouched. OUT must not exist unless --force is given, and
            must not be IN itself (compared by device and inode: hard links and symlinks too).
            OUT may be '-' (standard output) or a pipe, FIFO or terminal: written directly, never
            fsynced. The summary line goes to stderr.
            An app's export folder is one recording. Several recordings (several IN, or a folder of
            recordings: each recording inside it, --recursive its sub-folders too; docs/dialects.md,
            "Folders") are each converted into the folder OUT, created if missing: each output is
            named after its input's path below the folder argument (a file argument: its name), the
            extension replaced by .csv (walk.csv.gz: walk.csv; day1/walk.zip: day1/walk.csv), each
            written as above (--force replaces an existing one). No two may get the same name and
            none may be an input (both checked before anything is written). A recording that fails
            is reported and the others are still converted; the exit status is 1 if any failed.
            """,
            arguments: [
                ArgumentSpec("IN", help: "The recording(s) to read: files, export folders, folders of recordings ('-' for standard input).", repeated: true),
                ArgumentSpec("OUT", help: "The file to write ('-' for standard output); with several recordings, the folder to write them into."),
            ],
            options: [
                .option("format", value: "FORMAT", help: "Output format: motionbatch (default) or plain."),
                .option("from", value: "SECONDS", help: "Keep samples at or after this time (seconds from IN's first sample)."),
                .option("to", value: "SECONDS", help: "Keep samples before this time (seconds from IN's first sample)."),
                .option("set", value: "KEY=VALUE", help: "Set a header entry (repeatable), e.g. --set device=lsm6dsl.", repeated: true),
                .flag("no-labels", help: "Drop the label column."),
                .flag("force", help: "Replace OUT (with several recordings: the outputs in OUT) if it exists."),
                EachFile.recursiveOption,
                EachFile.shardOption,
            ] + InputOptions.options,
            run: { args, io in try run(args, &io) }
        )
    }

    /// What to write, the same for every recording converted.
    struct Settings {
        /// `--format plain`.
        var plainOutput: Bool
        /// `--from`, `--to`: seconds from the input's first sample.
        var from: Double?
        var to: Double?
        /// `--set KEY=VALUE`, in order.
        var settings: [(String, String)]
        /// Not `--no-labels`.
        var keepLabels: Bool
        /// `--force`: replace an existing output.
        var force: Bool
        var input: InputOptions
    }

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        let inputs = args.arguments("IN")
        let outputPath = args.argument("OUT")!
        let plainOutput: Bool
        switch args.string("format") ?? "motionbatch" {
        case "motionbatch": plainOutput = false
        case "plain": plainOutput = true
        case let other: throw CLIError.usage("The value '\(other)' is invalid for '--format': expected 'motionbatch' or 'plain'.")
        }
        let from = try args.double("from", rule: InputLimits.duration)
        let to = try args.double("to", rule: InputLimits.duration)
        if let from, let to, to <= from {
            throw CLIError.usage("'--to \(to)' must be after '--from \(from)'.")
        }
        var settings: [(String, String)] = []
        for item in args.strings("set") {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw CLIError.usage("The value '\(item)' is invalid for '--set': expected KEY=VALUE.")
            }
            settings.append((String(item[..<eq]), String(item[item.index(after: eq)...])))
        }
        let inputOptions = try InputOptions.parse(args)
        let given = Settings(plainOutput: plainOutput, from: from, to: to, settings: settings, keepLabels: !args.flag("no-labels"),
                             force: args.flag("force"), input: inputOptions)
        guard inputs.count > 1 || inputs.contains(where: EachFile.isFolderOfRecordings) || args.string("shard") != nil else {
            try EachFile.run(expanded: inputs, io: io) { file in try convert(file, to: outputPath, given, io: io) }
            return
        }
        let plan = try ConvertPlan(inputs: try EachFile.selectedInputs(inputs, folders: EachFile.folders(args, input: inputOptions), io: io), folder: outputPath)
        // Each path once (the plan refused two inputs with one output, hence one path twice).
        let items = Dictionary(plan.items.map { ($0.input.path, $0) }, uniquingKeysWith: { a, _ in a })
        try EachFile.run(expanded: plan.items.map(\.input.path), io: io) { file in
            guard let item = items[file] else { return }
            try convert(file, to: item.output, given, io: io, before: { try plan.createFolders(for: item) })
        }
    }

    /// Converts the recording `input` into `outputPath`; `before` runs once the input has opened,
    /// before the output is (it creates the output's folders).
    static func convert(_ input: String, to outputPath: String, _ given: Settings, io: CommandIO, before: () throws -> Void = {}) throws {
        let plainOutput = given.plainOutput
        let from = given.from
        let to = given.to
        let settings = given.settings
        let inputOptions = given.input
        do {
            let reader = try inputOptions.open(input)
            let source = reader.header
            var metadata = source.metadata
            if source.format == .plain {
                let format = reader.dialect.name == "plain" || reader.dialect.name == "csv" ? "plain CSV" : reader.dialect.name
                let packed = reader.container.map { ", \($0.rawValue)" } ?? ""
                metadata[RecordingKey.source] = metadata[RecordingKey.source] ?? "file:\(input == "-" ? "standard input" : baseName(input)) (\(format)\(packed))"
                metadata[RecordingKey.clock] = metadata[RecordingKey.clock] ?? "relative (time_s of the source file)"
            }
            for (k, v) in settings { metadata[k] = v }
            let keepLabels = source.hasLabels && given.keepLabels
            let header = RecordingHeader(format: plainOutput ? .plain : .current, sensors: source.sensors,
                                         hasLabels: keepLabels, metadata: plainOutput ? [:] : metadata)
            try before()
            let output = try openOutput(outputPath, replace: given.force)
            if let identity = reader.identity, identity == output.identity {
                output.discard()
                throw CLIError.failure("\(OutputFile.displayName(outputPath)) is the input file \(input) itself (same file: \(identity)); write to another file.")
            }
            let dropped = source.metadata.count + settings.count
            if plainOutput && dropped > 0 {
                io.err("warning: plain CSV has no header block; \(dropped) header entries are not written")
            }
            // From here on, a failure or a signal leaves no partial OUT (the writer discards it).
            let writer = try RecordingWriter(output: output, header: header)
            var complete = false
            defer { if !complete { writer.discard() } }
            var first: Int64?
            var written = 0
            var firstWritten: Int64?
            var lastWritten: Int64?
            var done = false
            var droppedEvents = 0
            var bar = ProgressBar(label: "convert \(input)", total: input == "-" ? 0 : CLIFiles.size(input), io: io)
            defer { bar.finish(io: io) }
            while !done, let chunk = try reader.next(maxSamples: 8192) {
                bar.update(reader.inputBytesRead, io: io)
                var lo = 0
                var hi = chunk.samples.count
                if let t0 = first ?? chunk.samples.first?.timestamp {
                    first = t0
                    if let from {
                        let cut = t0.saturatingAdding(Int64((from * 1e9).rounded()))
                        lo = chunk.samples.firstIndex { $0.timestamp >= cut } ?? hi
                    }
                    if let to {
                        let cut = t0.saturatingAdding(Int64((to * 1e9).rounded()))
                        if let end = chunk.samples.firstIndex(where: { $0.timestamp >= cut }) { hi = max(lo, end); done = true }
                    }
                }
                // Rows and event lines in file order: the kept rows are cut at each event; an event
                // is kept when it lies after a kept row and not after the excerpt's end.
                var start = lo
                for event in chunk.events {
                    let at = min(max(event.sampleIndex - chunk.firstSampleIndex, lo), hi)
                    if at > start {
                        try append(chunk, start..<at, labels: keepLabels, to: writer)
                        written += at - start
                        start = at
                    }
                    let inside = written > 0 && (event.sampleIndex - chunk.firstSampleIndex) <= hi
                    if inside && !plainOutput {
                        try writer.append(event: event)
                    } else if inside {
                        droppedEvents += 1
                    }
                }
                if hi > start {
                    try append(chunk, start..<hi, labels: keepLabels, to: writer)
                    written += hi - start
                }
                if lo < hi {
                    firstWritten = firstWritten ?? chunk.samples[lo].timestamp
                    lastWritten = chunk.samples[hi - 1].timestamp
                }
            }
            // An empty recording (without --allow-empty) or, with --strict, any plausibility
            // finding fails here: OUT is discarded, never half-written.
            bar.finish(io: io)
            try inputOptions.report(reader.warnings, to: io)
            try writer.close()
            complete = true
            if droppedEvents > 0 {
                io.err("warning: plain CSV has no event lines; \(droppedEvents) events (pauses, device losses) are not written")
            }
            let span = firstWritten.map { Double(lastWritten! - $0) / 1e9 } ?? 0
            io.err("Wrote \(written) samples (\(formatSeconds(span)) s) to \(DiagnosticText.sanitized(OutputFile.displayName(outputPath))) (\(plainOutput ? "plain CSV" : "MotionBatch format \(RecordingFormat.currentVersion)")).")
        } catch let error as RecordingError {
            throw CLIError.failure("\(error)")
        } catch let error as SystemError {
            throw CLIError.failure("\(error)")
        }
    }

    /// Appends the rows `range` of `chunk` (with their labels when kept) to `writer`.
    private static func append(_ chunk: RecordingChunk, _ range: Range<Int>, labels: Bool, to writer: RecordingWriter) throws {
        let samples = Array(chunk.samples[range])
        try writer.append(SampleBatch(samples: samples, deliveredAt: samples[samples.count - 1].timestamp),
                          labels: labels ? Array(chunk.labels![range]) : nil)
    }

    /// OUT, opened atomically (or as a stream); an existing file without `--force` is a failure
    /// that says how to replace it.
    private static func openOutput(_ path: String, replace: Bool) throws -> OutputFile {
        do {
            return try OutputFile(path: path, mode: .atomic(replace: replace))
        } catch {
            if error.errno == .exists { throw CLIError.failure("\(path): File exists; pass --force to replace it.") }
            throw error
        }
    }

    private static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func formatSeconds(_ s: Double) -> String {
        let r = (s * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
