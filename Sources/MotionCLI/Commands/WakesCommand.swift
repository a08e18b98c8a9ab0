import MotionCore
import MotionSystem
import WakeCost

/// `motionbatch wakes [RECORDING] --rates 25,50,100,200 --latencies 0,0.1,1,5,10 --board NAME|FILE.json`:
/// the wake-up, CPU, energy, battery and FIFO report for every rate × latency, as a table,
/// `--json`, `--csv` or an `--html FILE` chart; `--measured FILE.json` compares a capture with
/// the model.
enum WakesCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "wakes",
            abstract: "Wake-ups, CPU time, energy, battery life and FIFO overflow for each rate and batch latency.",
            discussion: """
            Three levels of wake-up are counted per hour: device deliveries (interrupts/bursts that
            take the CPU out of idle), scheduler wake-ups of the reading task, and returns to
            userspace. Every board parameter and its source is in docs/wake-cost.md.
            Latency 0 is per-sample delivery. With a RECORDING the stream is also replayed at each
            rate (decimated below its own) and latency through the batcher and the step counter:
            the delay from each sample and each step to its delivery is reported, and the analysis
            results must be identical across latencies.
            """,
            arguments: [ArgumentSpec("RECORDING", help: "Recording to replay at each configuration (optional).", optional: true)],
            options: [
                .option("rates", value: "HZ,...", help: "Sampling rates (default 25,50,100,200)."),
                .option("latencies", value: "S,...", help: "Batch latencies in seconds (default 0,0.1,1,5,10)."),
                .option("board", value: "NAME|FILE", help: "rpi-zero-2w, rpi-4b, rpi-5, beaglebone-black, phone, or a profile FILE.json (default rpi-4b)."),
                .option("battery-mah", value: "N", help: "Battery capacity in mAh (overrides the profile's)."),
                .option("buffering", value: "MODE", help: "hardware (sensor FIFO, default), software (kernel watermark, reader woken by every sample) or timed (per-sample interrupts, reader woken once per batch: capture's default without a FIFO)."),
                .flag("gyro", help: "Enable the gyroscope channels too (sets FIFO bytes per sample)."),
                .option("chips", value: "NAME,...", help: "FIFO chips to judge (default LSM6DS3,BMI323,ADXL372,HID-hub); the first is shaded in --html."),
                .option("hid-fifo-bytes", value: "N", help: "Your HID sensor hub's FIFO size in bytes (default: an assumed 4096)."),
                .option("measured", value: "FILE", help: "Capture-stats JSON to compare with the model (one rate and one latency)."),
                .option("device-deliveries", value: "N", help: "With --measured: the measured device deliveries (e.g. the emulator's burst count)."),
                .flag("json", help: "Print JSON (documented in docs/wake-cost.md)."),
                .flag("csv", help: "Print CSV."),
                .option("html", value: "FILE", help: "Also write a self-contained HTML page with the charts."),
            ],
            run: { args, io in try run(args, &io) })
    }

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        if args.flag("json") && args.flag("csv") { throw CLIError.usage("Choose one of '--json' and '--csv'.") }
        let rates = try args.doubleList("rates", rule: InputLimits.rate) ?? [25, 50, 100, 200]
        let latencies = try args.doubleList("latencies", rule: InputLimits.duration) ?? [0, 0.1, 1, 5, 10]
        var board = try CLIFiles.board(args.string("board") ?? "rpi-4b")
        if let mah = try args.double("battery-mah", rule: BoardProfile.rule(for: "battery_mah")) { board.batteryMAh = mah }
        let bufferingText = args.string("buffering") ?? "hardware"
        guard let buffering = Buffering(rawValue: bufferingText) else {
            throw CLIError.usage("The value '\(bufferingText)' is invalid for '--buffering': expected 'hardware', 'software' or 'timed'.")
        }
        let sensors: SensorSet = args.flag("gyro") ? [.accel, .gyro] : .accel
        var builtInChips = FIFOChip.builtIn
        if let hid = try args.int("hid-fifo-bytes", rule: InputLimits.positiveCount.narrowed(to: 1...1_073_741_824)) {
            builtInChips = builtInChips.map { c in
                guard c.name == FIFOChip.hidSensorHub.name else { return c }
                var d = c
                d.fifoBytes = hid
                d.isAssumed = false
                return d
            }
        }
        var chips = builtInChips
        if let names = args.string("chips") {
            chips = []
            for n in names.split(separator: ",").map({ $0.trimmingCharacters(in: Character(" ")) }) {
                guard let c = builtInChips.first(where: { $0.name.lowercased() == n.lowercased() }) else {
                    throw CLIError.usage("Unknown chip '\(n)' in '--chips'. Known: \(FIFOChip.builtIn.map(\.name).joined(separator: ", ")).")
                }
                chips.append(c)
            }
        }

        if args.string("device-deliveries") != nil && args.string("measured") == nil {
            throw CLIError.usage("'--device-deliveries' goes with '--measured <file>'.")
        }
        if let measuredPath = args.string("measured") {
            try measured(measuredPath, rates: args.string("rates") == nil ? nil : rates,
                         latencies: args.string("latencies") == nil ? nil : latencies,
                         buffering: args.string("buffering") == nil ? nil : buffering,
                         deviceDeliveries: try args.int("device-deliveries", rule: InputLimits.count),
                         sensors: sensors, board: board, json: args.flag("json"), io: &io)
            return
        }

        let predictions = WakeCostModel.sweep(rates: rates, latencies: latencies, buffering: buffering, sensors: sensors, board: board, chips: chips)
        let report = WakeReport(board: board, predictions: predictions)

        var replay: [ReplayResult] = []
        if let recording = args.argument("RECORDING") {
            replay = try WakesReplay.run(recording: recording, rates: rates, latencies: latencies)
        }

        if let htmlPath = args.string("html") {
            var notes = ["Buffering: \(buffering.rawValue); sensors: \(args.flag("gyro") ? "accel+gyro" : "accel"). Red rings: the first chip's FIFO overflows at that setting (samples lost). Model and sources: docs/wake-cost.md."]
            var sections: [(String, [[String]])] = []
            if !replay.isEmpty {
                notes.append(WakesReplay.summary(replay))
                sections.append(("Replay of \(args.argument("RECORDING") ?? "")", WakesReplay.rows(replay)))
            }
            try CLIFiles.write(report.html(title: "MotionBatch wake-up cost: \(board.name)", notes: notes, sections: sections), to: htmlPath)
            io.err("wrote \(OutputFile.displayName(htmlPath))")
        }
        if args.flag("json") {
            io.writeOut(report.json(sensors: sensors, extra: replay.isEmpty ? [] : [("replay", WakesReplay.json(replay))]))
        } else if args.flag("csv") {
            io.writeOut(report.csv())
        } else {
            io.out("Board \(board.name): idle \(fmt(board.idlePowerW)) W, active \(fmt(board.activePowerW)) W, battery \(fmt(board.batteryWh)) Wh usable; buffering \(buffering.rawValue); sensors \(args.flag("gyro") ? "accel+gyro" : "accel").")
            io.writeOut(report.table())
            if !replay.isEmpty {
                io.out("")
                io.writeOut(WakesReplay.table(replay))
            }
        }
    }

    static func fmt(_ v: Double) -> String {
        let s = String(Double((v * 1000).rounded()) / 1000)
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    /// Measured mode: the capture beside the model at the capture's configuration (from the
    /// command line, else from the capture file when it records one).
    static func measured(_ path: String, rates: [Double]?, latencies: [Double]?, buffering: Buffering?, deviceDeliveries: Int?,
                         sensors: SensorSet, board: BoardProfile, json: Bool, io: inout CommandIO) throws {
        var capture = try CLIFiles.capture(path)
        if let d = deviceDeliveries { capture.deviceDeliveries = d }
        if let latencies, latencies.count != 1 { throw CLIError.usage("With '--measured' give the capture's one latency: '--latencies L'.") }
        if let rates, rates.count != 1 { throw CLIError.usage("With '--measured' give at most one rate (default: the capture's).") }
        var config: WakeConfiguration
        if let recorded = capture.configuration {
            config = recorded
            config.sensors = sensors
            if let l = latencies?.first { config.policy = .latency(seconds: l) }
        } else {
            guard let l = latencies?.first else {
                throw CLIError.usage("'\(path)' does not record its configuration: give '--latencies L' (and '--buffering').")
            }
            config = WakeConfiguration(rateHz: capture.rateHz, latencyS: l, buffering: .hardware, sensors: sensors)
        }
        if let r = rates?.first { config.rateHz = r }
        if let b = buffering { config.buffering = b }
        let rate = config.rateHz
        let latency = config.latencyS
        let cmp = MeasuredComparison.compare(capture, configuration: config, board: board)
        let bufferingName = config.isPerSample ? "per-sample" : config.buffering.rawValue
        if json {
            let rows = cmp.rows.map { r in
                "{\"quantity\": \"\(r.quantity)\", \"measured\": \(r.measured.map { "\($0)" } ?? "null"), \"predicted\": \(r.predicted), \"difference\": \(r.difference.map { "\($0)" } ?? "null"), \"difference_percent\": \(r.differencePercent.map { "\($0)" } ?? "null")}"
            }
            io.out("{\"capture\": \"\(path)\", \"board\": \"\(board.name)\", \"rate_hz\": \(rate), \"latency_s\": \(latency), \"buffering\": \"\(bufferingName)\", \"samples\": \(capture.samples), \"rows\": [\(rows.joined(separator: ", "))]}")
            return
        }
        io.out("Capture \(path): \(capture.samples) samples in \(capture.durationS) s (\(fmt(capture.rateHz)) Hz); model: \(board.name), \(fmt(rate)) Hz, latency \(latency) s, \(bufferingName) buffering")
        let header = ["quantity", "measured", "model", "difference", "difference [%]"]
        var rows = [header]
        for r in cmp.rows {
            rows.append([r.quantity, r.measured.map { fmt($0) } ?? "n/a", fmt(r.predicted), r.difference.map { fmt($0) } ?? "n/a",
                         r.differencePercent.map { fmt($0) } ?? "n/a"])
        }
        var widths = [Int](repeating: 0, count: header.count)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        for r in rows {
            io.out(r.enumerated().map { i, c in i == 0 ? c + String(repeating: " ", count: widths[i] - c.count) : String(repeating: " ", count: widths[i] - c.count) + c }.joined(separator: "  "))
        }
    }
}
