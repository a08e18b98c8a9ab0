import MotionAnalysis
import MotionCore
import MotionIIO
import WakeCost

/// `motionbatch wakes [RECORDING] --rates ... --latencies ... --board NAME|FILE.json`: the
/// battery/wake-up comparison report — per rate and latency the wake-ups, CPU time, energy,
/// battery life and FIFO verdicts, the recommended setting for the user's constraints and the
/// per-sample versus batched headline — as a compact table, `--json`, `--csv` or an `--html FILE`
/// page; `--measured FILE.json` compares captures with the model.
enum WakesCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "wakes",
            abstract: "Wake-up and battery cost of each rate and batch latency, and the setting to use.",
            discussion: """
            Three levels of wake-up are counted per hour: device deliveries (interrupts/bursts that
            take the CPU out of idle), scheduler wake-ups of the reading task, and returns to
            userspace. Latency 0 is per-sample delivery. The recommendation is the cheapest setting
            (least energy above idle) whose rate meets the analyses' minimum (12.5 Hz), whose batch
            leaves --fifo-margin of every selected chip's FIFO free, and whose delay is within
            --max-delay: with a RECORDING the measured worst step (or activity) visibility, else the
            model's worst sample latency. The headline compares it with per-sample delivery.
            With a RECORDING the stream is replayed at each rate (decimated below its own) and
            latency through the batcher and the step counter; sensors default to what it holds.
            An empty RECORDING fails unless --allow-empty (then the report is the model's alone).
            Every parameter and its source: docs/wake-cost.md; --json keys: its section 6.
            """,
            arguments: [ArgumentSpec("RECORDING", help: "Recording to replay at each configuration (optional; any dialect, an app's export folder, a folder holding one recording, '-' for standard input).", optional: true)],
            options: [
                .option("rates", value: "HZ,...", help: "Sampling rates (default 12.5,25,50,100,200)."),
                .option("latencies", value: "S,...", help: "Batch latencies in seconds (default 0,0.1,0.2,0.5,1,2,5,10)."),
                .option("board", value: "NAME|FILE", help: "rpi-zero-2w, rpi-4b, rpi-5, beaglebone-black, phone, or a profile FILE.json (default rpi-4b)."),
                .option("battery-mah", value: "N", help: "Battery capacity in mAh (overrides the profile's)."),
                .option("buffering", value: "MODE", help: "hardware (sensor FIFO, default), software (kernel watermark, reader woken by every sample) or timed (per-sample interrupts, reader woken once per batch: capture's default without a FIFO)."),
                .option("sensors", value: "LIST", help: "accel or accel,gyro: the enabled channels, which set the FIFO frame size (default: the recording's, else accel)."),
                .flag("gyro", help: "Same as --sensors accel,gyro."),
                .option("chips", value: "NAME|FILE,...", help: "FIFO chips to judge: built-in names or chip profile FILE.json (default: all built-in; list in docs/wake-cost.md)."),
                .option("fifo-bytes", value: "N", help: "Also judge a chip with an N-byte FIFO of raw 16-bit frames (6 bytes accel, 12 accel+gyro)."),
                .option("hid-fifo-bytes", value: "N", help: "Your HID sensor hub's FIFO size in bytes (default: an assumed 4096)."),
                .option("max-delay", value: "S", help: "Recommend only settings whose steps (and activity changes) become visible within S seconds."),
                .option("fifo-margin", value: "F", help: "Fraction of every FIFO a batch must leave free, 0 to 0.9 (default 0.2)."),
                .option("measured", value: "FILE", help: "Capture-stats JSON to compare with the model (repeatable; drawn on the --html chart).", repeated: true),
                .option("device-deliveries", value: "N", help: "With --measured: the measured device deliveries (e.g. the emulator's burst count)."),
                .flag("json", help: "Print JSON (schema 2, documented in docs/wake-cost.md)."),
                .flag("csv", help: "Print CSV."),
                .option("html", value: "FILE", help: "Also write a self-contained HTML page with the charts."),
            ] + InputOptions.options,
            run: { args, io in try run(args, &io) })
    }

    /// Default rates: the analyses' minimum (12.5 Hz) and common output data rates above it.
    static let defaultRates = [12.5, 25, 50, 100, 200]
    /// Default latencies: per-sample and a 1-2-5 series from 0.1 s to 10 s.
    static let defaultLatencies = [0, 0.1, 0.2, 0.5, 1, 2, 5, 10]

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        if args.flag("json") && args.flag("csv") { throw CLIError.usage("Choose one of '--json' and '--csv'.") }
        var rates = try args.doubleList("rates", rule: InputLimits.rate) ?? defaultRates
        let latencies = try args.doubleList("latencies", rule: InputLimits.duration) ?? defaultLatencies
        var board = try CLIFiles.board(args.string("board") ?? "rpi-4b")
        if let mah = try args.double("battery-mah", rule: BoardProfile.rule(for: "battery_mah")) { board.batteryMAh = mah }
        let bufferingText = args.string("buffering") ?? "hardware"
        guard let buffering = Buffering(rawValue: bufferingText) else {
            throw CLIError.usage("The value '\(bufferingText)' is invalid for '--buffering': expected 'hardware', 'software' or 'timed'.")
        }
        let input = try InputOptions.parse(args)
        let recording = try args.argument("RECORDING").map { try oneRecording($0, input: input, io: io) }
        let open: (() throws -> RecordingReader)?
        do { open = try recording.map { try input.reopenable($0) } } catch { throw CLIError.failure("\(error)") }
        let sensors = try sensorSet(args, open: open)
        let device = try recordingDevice(open)
        let (chips, chipSource) = try chipSelection(args, recordingDevice: device,
                                                    detectedDevices: args.string("chips") == nil ? detectedDevices() : [])
        let margin = try args.double("fifo-margin", rule: ValueRule("FIFO margin", unit: "", 0...0.9)) ?? RecommendationConstraints.defaultFIFOMargin
        let constraints = RecommendationConstraints(maxDelayS: try args.double("max-delay", rule: InputLimits.duration), fifoMargin: margin,
                                                    requirements: AnalysisRequirement.all, chipSource: chipSource)

        if args.string("device-deliveries") != nil && args.strings("measured").isEmpty {
            throw CLIError.usage("'--device-deliveries' goes with '--measured <file>'.")
        }
        if !args.strings("measured").isEmpty {
            try measured(args, rates: rates, latencies: latencies, buffering: buffering, sensors: sensors, board: board,
                         chips: chips, constraints: constraints, io: &io)
            return
        }

        var outcome: WakesReplay.Outcome?
        if let open {
            // The first reader reads the whole recording: its warnings are the recording's.
            var first: RecordingReader?
            // Two passes over the file (its rate, then the sweep): the bar counts both.
            let size = recording == "-" ? 0 : CLIFiles.size(recording!)
            var bar = ProgressBar(label: "wakes \(recording!)", total: 2 * size, io: io)
            defer { bar.finish(io: io) }
            let barIO = io
            do {
                outcome = try WakesReplay.run(open: {
                    let reader = try open()
                    if first == nil { first = reader }
                    return reader
                }, rates: rates, latencies: latencies, progress: { pass, bytes in bar.update((pass - 1) * size + bytes, io: barIO) })
            } catch {
                // An empty recording (no rate to replay) fails as in every command: the plausibility
                // rule's finding; with --allow-empty it is a warning and the report the model's alone.
                guard let warnings = first?.warnings, warnings.contains(where: { $0.kind == .emptyStream }) else { throw error }
                bar.finish(io: io)
                try input.report(warnings, to: io)
            }
            bar.finish(io: io)
            if outcome != nil { try input.report(first?.warnings ?? [], to: io) }
            // Unless --rates asks for more, only the rates the recording holds are swept: a
            // higher rate cannot be replayed, and the model alone would judge it.
            if args.string("rates") == nil, let own = outcome?.rows.map(\.rateHz).max() {
                rates = supportedRates(defaultRates, recordingRateHz: own)
            }
        }
        let predictions = WakeCostModel.sweep(rates: rates, latencies: latencies, buffering: buffering, sensors: sensors, board: board, chips: chips)
        let report = WakeReport(board: board, predictions: predictions, chips: chips,
                                replays: configurationReplays(outcome?.rows ?? [], rates: rates), constraints: constraints)

        if let htmlPath = args.string("html") {
            var notes: [String] = []
            if let outcome { notes.append(WakesReplay.summary(outcome)) }
            try CLIFiles.write(report.html(title: "MotionBatch wake-up cost: \(board.name)" + (recording.map { ", \($0)" } ?? ""), notes: notes), to: htmlPath)
            io.err("wrote \(htmlPath)")
        }
        if args.flag("json") {
            io.writeOut(report.json(extra: outcome.map { [("replay", WakesReplay.json($0))] } ?? []))
        } else if args.flag("csv") {
            io.writeOut(report.csv())
        } else {
            io.writeOut(report.text())
            if let outcome {
                io.out("")
                for line in WakesReplay.summary(outcome).split(separator: "\n") { io.writeOut(TextTable.wrap(String(line))) }
            }
        }
    }

    /// The one recording `argument` names: itself, or for a folder of recordings (not an app's
    /// export: ``EachFile``'s rule) the one inside it.
    /// - Throws: ``CLIError/usage(_:)`` when the folder holds several recordings (wakes replays one).
    static func oneRecording(_ argument: String, input: InputOptions, io: CommandIO) throws -> String {
        guard EachFile.isFolderOfRecordings(argument) else { return argument }
        let files = try EachFile.expand([argument], folders: EachFile.Folders(anyFile: input.dialect != nil), io: io)
        guard files.count > 1 else { return files.first ?? argument }
        let shown = files.prefix(3).map { DiagnosticText.escaped($0.utf8, limit: 80) }.joined(separator: ", ")
        throw CLIError.usage("wakes takes one recording: \(DiagnosticText.escaped(argument.utf8, limit: 120)) is a folder of \(files.count) recordings (\(shown)\(files.count > 3 ? ", ..." : "")); give one of them.")
    }

    /// `--sensors` / `--gyro`, else the recording's sensors, else the accelerometer alone.
    static func sensorSet(_ args: ParsedArguments, open: (() throws -> RecordingReader)?) throws -> SensorSet {
        var chosen: SensorSet?
        if let text = args.string("sensors") {
            switch text.replacingOccurrences(of: " ", with: "").lowercased() {
            case "accel": chosen = .accel
            case "accel,gyro", "gyro,accel": chosen = [.accel, .gyro]
            default: throw CLIError.usage("The value '\(text)' is invalid for '--sensors': expected 'accel' or 'accel,gyro'.")
            }
        }
        if args.flag("gyro") {
            if chosen == .accel { throw CLIError.usage("'--gyro' contradicts '--sensors accel'.") }
            chosen = [.accel, .gyro]
        }
        if let chosen { return chosen }
        guard let open else { return .accel }
        do {
            return try open().header.sensors
        } catch {
            throw CLIError.failure("\(error)")
        }
    }

    /// The rates of `rates` a recording at `recordingRateHz` holds (within 0.1 %), or its own
    /// rate when it holds none of them.
    static func supportedRates(_ rates: [Double], recordingRateHz own: Double) -> [Double] {
        let held = rates.filter { $0 * 0.999 <= own }   // ReplaySweep replays a rate within 0.1 % above its own as its own
        return held.isEmpty ? [(own * 10).rounded() / 10] : held
    }

    /// The device the recording names in its header (`# device:`), if any.
    static func recordingDevice(_ open: (() throws -> RecordingReader)?) throws -> String? {
        guard let open else { return nil }
        do {
            return try open().header.metadata[RecordingKey.device].flatMap { $0.isEmpty ? nil : $0 }
        } catch {
            throw CLIError.failure("\(error)")
        }
    }

    /// The built-in chip an IIO device name stands for (`lsm6dso_accel` is LSM6DSO, `accel_3d`
    /// a HID sensor hub), nil when none does.
    static func chip(forDevice device: String) -> FIFOChip? {
        func key(_ s: String) -> String { String(s.lowercased().filter { $0.isLetter || $0.isNumber }) }
        let d = key(device)
        if d.hasPrefix("accel3d") || d.hasPrefix("gyro3d") { return FIFOChip.hidSensorHub }
        return FIFOChip.builtIn.filter { d.hasPrefix(key($0.name)) }.max { key($0.name).count < key($1.name).count }
    }

    /// The names of this machine's accelerometers and gyroscopes (`wakes` run on the board
    /// itself); none without the IIO subsystem or a local context.
    static func detectedDevices() -> [String] {
        guard AccessProbe.hasIIOSubsystem, let context = try? IIOContext(uri: "local:") else { return [] }
        return SensorDiscovery.discover(in: context).filter { $0.hasAccel || $0.hasGyro }.map(\.name)
    }

    /// `--chips` (names or chip profiles), else the chip of the recording's device, else the chips
    /// of the devices detected on this machine, else every built-in chip; then `--hid-fifo-bytes`
    /// and `--fifo-bytes`. Also says which decided.
    static func chipSelection(_ args: ParsedArguments, recordingDevice: String? = nil,
                              detectedDevices: [String] = []) throws -> ([FIFOChip], String) {
        var chips = FIFOChip.builtIn
        var source = "all \(chips.count) built-in chips, the weakest FIFO decides (name yours with --chips)"
        if let names = args.string("chips") {
            chips = []
            for n in names.split(separator: ",").map({ $0.trimmingCharacters(in: Character(" ")) }) {
                let c = try CLIFiles.chip(n)
                if chips.contains(where: { $0.name == c.name }) { throw CLIError.usage("Chip '\(c.name)' is given twice in '--chips'.") }
                chips.append(c)
            }
            source = chips.map(\.name).joined(separator: ", ") + ", from --chips"
        } else if let device = recordingDevice, let c = chip(forDevice: device) {
            chips = [c]
            source = "\(c.name), from the recording's device \(DiagnosticText.escaped(device.utf8)) (--chips to judge others)"
        } else {
            var found: [(FIFOChip, String)] = []
            for d in detectedDevices { if let c = chip(forDevice: d), !found.contains(where: { $0.0.name == c.name }) { found.append((c, d)) } }
            if !found.isEmpty {
                chips = found.map(\.0)
                source = found.map { "\($0.0.name) (\(DiagnosticText.escaped($0.1.utf8)))" }.joined(separator: ", ")
                    + ", detected on this machine (--chips to judge others)"
            }
        }
        if let hid = try args.int("hid-fifo-bytes", rule: InputLimits.positiveCount.narrowed(to: 1...Double(FIFOChip.maximumFIFOBytes))) {
            chips = chips.map { c in
                guard c.name == FIFOChip.hidSensorHub.name else { return c }
                var d = c
                d.fifoBytes = hid
                d.isAssumed = false
                d.source = "--hid-fifo-bytes \(hid)"
                return d
            }
        }
        if let bytes = try args.int("fifo-bytes", rule: InputLimits.positiveCount.narrowed(to: 6...Double(FIFOChip.maximumFIFOBytes))) {
            chips.append(FIFOChip(name: "custom-\(bytes)B", fifoBytes: bytes, accelFrameBytes: 6, accelGyroFrameBytes: bytes >= 12 ? 12 : nil,
                                  frameLayout: "raw 16-bit x, y, z per sensor, no header", source: "--fifo-bytes \(bytes)",
                                  linuxDriver: "(not known)", linuxBatches: true))
            source += " and --fifo-bytes \(bytes)"
        }
        return (chips, source)
    }

    /// The replayer's rows as the report's per-configuration replays: one per swept rate and
    /// latency (a rate at or above the recording's own stands for the replay at its own rate).
    static func configurationReplays(_ rows: [WakesReplay.Row], rates: [Double]) -> [ConfigurationReplay] {
        guard let own = rows.map(\.rateHz).max() else { return [] }
        var out: [ConfigurationReplay] = []
        for rate in rates {
            let exact = rows.filter { $0.rateHz == rate }
            let group = exact.isEmpty ? rows.filter { r in r.rateHz == own && own <= rate } : exact
            for r in group {
                out.append(ConfigurationReplay(rateHz: rate, replayedRateHz: r.rateHz, latencyS: r.latencyS,
                                               worstSampleDelayS: r.worstDelayS, meanSampleDelayS: r.meanDelayS,
                                               steps: VisibilityDelays(delaysS: r.stepDelaysS),
                                               activity: r.activityDelaysS.map(VisibilityDelays.init)))
            }
        }
        return out
    }

    /// Measured mode: each capture beside the model at the capture's configuration (from the
    /// capture file when it records one, else `--rates` / `--latencies` / `--buffering`); with
    /// `--html`, the default sweep (plus the captures' rates and latencies) with the captures drawn on it.
    static func measured(_ args: ParsedArguments, rates: [Double], latencies: [Double], buffering: Buffering, sensors: SensorSet,
                         board: BoardProfile, chips: [FIFOChip], constraints: RecommendationConstraints, io: inout CommandIO) throws {
        let givenRates = args.string("rates") == nil ? nil : rates
        let givenLatencies = args.string("latencies") == nil ? nil : latencies
        if let givenLatencies, givenLatencies.count != 1 { throw CLIError.usage("With '--measured' give the captures' one latency: '--latencies L'.") }
        if let givenRates, givenRates.count != 1 { throw CLIError.usage("With '--measured' give at most one rate (default: the capture's).") }
        let deliveries = try args.int("device-deliveries", rule: InputLimits.count)
        var points: [MeasuredPoint] = []
        var objects: [JSONValue] = []
        for path in args.strings("measured") {
            var capture = try CLIFiles.capture(path)
            if let d = deliveries { capture.deviceDeliveries = d }
            var config: WakeConfiguration
            if let recorded = capture.configuration {
                config = recorded
                config.sensors = sensors
                if let l = givenLatencies?.first { config.policy = .latency(seconds: l) }
            } else {
                guard let l = givenLatencies?.first else {
                    throw CLIError.usage("'\(path)' does not record its configuration: give '--latencies L' (and '--buffering').")
                }
                config = WakeConfiguration(rateHz: capture.rateHz, latencyS: l, buffering: .hardware, sensors: sensors)
            }
            if let r = givenRates?.first { config.rateHz = r }
            if args.string("buffering") != nil { config.buffering = buffering }
            let cmp = MeasuredComparison.compare(capture, configuration: config, board: board)
            points.append(MeasuredPoint(label: path, capture: capture, configuration: config))
            let bufferingName = config.isPerSample ? "per-sample" : config.buffering.rawValue
            objects.append(.object([
                ("capture", .string(path)), ("board", .string(board.name)), ("rate_hz", .number(config.rateHz)),
                ("latency_s", .number(config.latencyS)), ("buffering", .string(bufferingName)), ("samples", .number(capture.samples)),
                ("rows", .array(cmp.rows.map { r in
                    .object([("quantity", .string(r.quantity)), ("measured", .number(r.measured)), ("predicted", .number(r.predicted)),
                             ("difference", .number(r.difference)), ("difference_percent", .number(r.differencePercent))])
                })),
            ]))
            if !args.flag("json") {
                io.writeOut(TextTable.wrap("Capture \(path): \(capture.samples) samples in \(capture.durationS.compactText) s (\(fmt(capture.rateHz)) Hz); "
                                           + "model: \(board.name), \(fmt(config.rateHz)) Hz, latency \(config.latencyS.compactText) s, \(bufferingName) buffering"))
                let rows = cmp.rows.map { r in
                    [r.quantity, r.measured.map { fmt($0) } ?? "n/a", fmt(r.predicted), r.difference.map { fmt($0) } ?? "n/a",
                     r.differencePercent.map { fmt($0) } ?? "n/a"]
                }
                io.writeOut(TextTable.render(header: [["quantity", "measured", "model", "difference", "difference [%]"]], rows: rows, leftAligned: [0]))
            }
        }
        if args.flag("json") { io.out((objects.count == 1 ? objects[0] : .array(objects)).serialized()) }
        if let htmlPath = args.string("html") {
            let sweepRates = WakeReport.uniqueSorted(defaultRates + points.map(\.configuration.rateHz))
            let sweepLatencies = WakeReport.uniqueSorted(defaultLatencies + points.map(\.configuration.latencyS))
            let predictions = WakeCostModel.sweep(rates: sweepRates, latencies: sweepLatencies, buffering: points.first?.configuration.buffering ?? buffering,
                                                  sensors: sensors, board: board, chips: chips)
            let report = WakeReport(board: board, predictions: predictions, chips: chips, measured: points, constraints: constraints)
            try CLIFiles.write(report.html(title: "MotionBatch wake-up cost: \(board.name), measured captures"), to: htmlPath)
            io.err("wrote \(htmlPath)")
        }
    }

    /// At most three decimals, no trailing `.0`.
    static func fmt(_ v: Double) -> String { ((v * 1000).rounded() / 1000).compactText }
}
