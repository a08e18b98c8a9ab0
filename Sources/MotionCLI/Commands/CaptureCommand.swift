#if canImport(Glibc)
import Glibc
#endif
import MotionAnalysis
import MotionCore
import MotionFleet
import MotionIIO
import MotionSession
import MotionSystem

/// `motionbatch capture`: capture an accelerometer (and gyroscope) into batches through libiio,
/// write a recording, and report what it cost in wake-ups and CPU time.
enum CaptureCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "capture",
            abstract: "Capture an IIO accelerometer/gyroscope in batches into a recording and report wake-ups and CPU time.",
            discussion: """
            Picks the first accelerometer (and a gyroscope on another device, merged by timestamp),
            or the devices named with --device (NAME, NAME@PARENT for one of two identical sensors,
            or an id). The rate is snapped to the nearest available one.
            Batching: --latency SECONDS or --batch N. Devices with a hardware FIFO
            (buffer/hwfifo_timeout) batch in hardware and are read by waiting on the buffer's poll
            fd and draining what is available; others fill the kernel buffer and the reader sleeps
            until each batch is due (--wait timed). Every batch is fed to the analysis as it
            arrives (activity classifier, then the step counter, which counts no steps in a
            vehicle); a hardware step counter (in_steps_input) and hardware activity recognition
            (in_activity_*_input), when present, are reported beside ours. Read one sample per
            wake-up (--batch 1, or no batching) with no recording, --ndjson or --publish, the
            wake-ups' samples are handed on joined, up to 250 ms of them per batch; every
            wake-up is still counted.
            --range picks the full scale from in_accel_scale_available / in_anglvel_scale_available
            (e.g. --range 4g, --range 500dps); samples at full scale are counted as clipped.
            A capture into a recording (-o FILE or --output-dir DIR) runs until SIGINT/SIGTERM
            unless --duration or --samples is given (--duration 0: until stopped; without a
            recording the default is 10 s). SIGUSR1 pauses (buffers disabled, the sensor idle),
            SIGUSR2 resumes; the pause is recorded. With --output-dir, recordings are named by their
            start (UTC when the clock is synchronized), rotated by --rotate, pruned by --keep and
            --max-disk, and interrupted ones found there are recovered first. Each recording gets a
            NAME.summary.json. --reconnect waits for a lost device to come back (device events) and
            continues into a new recording. Stops within milliseconds at any latency, always
            leaving the sensor idle. Logs one line per event on stderr (syslog <N> prefixes under
            systemd's journal); --ndjson prints one JSON object per batch on stdout.
            --publish URL also sends every batch, event and the summary (and with --publish-samples
            each batch's samples) to an MQTT broker through
            an on-disk outbox beside the recording (docs/fleet.md); the network is served in the
            batch wake-ups only, and a broker that is down never stops the capture.
            """,
            options: ContextOptions.options + [
                .option("device", value: "NAME", help: "Device name, NAME@PARENT (the parent device's sysfs path or its end) or id (repeat for accel + gyro). Default: auto.", repeated: true),
                .option("rate", value: "HZ", help: "Sampling rate; the nearest available one is used."),
                .option("latency", value: "SECONDS", help: "Batch by latency (hardware FIFO timeout where present)."),
                .option("batch", value: "N", help: "Batch every N samples (watermark)."),
                .option("duration", value: "SECONDS", help: "Stop after SECONDS (0: until stopped; default: until stopped with a recording, else 10 s unless --samples)."),
                .option("samples", value: "N", help: "Stop after N samples."),
                .option("range", value: "FULLSCALE", help: "Full scale: NUMBERg or NUMBERm/s2 (accelerometer), NUMBERdps or NUMBERrad/s (gyroscope); the smallest available at or above it is used. Repeat for both.", repeated: true),
                .option("output", short: "o", value: "FILE", help: "Write the recording to FILE (continued as FILE-2.csv... after a reconnection)."),
                .flag("overwrite", help: "Replace FILE if it exists."),
                .option("output-dir", value: "DIR", help: "Write recordings named by their start time into DIR (created; locked while the session runs; interrupted recordings there are recovered first)."),
                .option("rotate", value: "SECONDS|SIZE", help: "With --output-dir: start a new recording every SECONDS of samples (90, 15min, 1h, 1d) or at SIZE (100M, 1G); never mid-batch."),
                .option("keep", value: "N", help: "With --output-dir and --rotate: keep at most N recordings (the oldest are deleted)."),
                .option("max-disk", value: "SIZE", help: "With --output-dir and --rotate: keep the recordings within SIZE (e.g. 2G), and delete the oldest to make room when the disk is full."),
                .option("fsync", value: "POLICY", help: "batch (default), close, or SECONDS of sample time between fsyncs (and checkpoints)."),
                .flag("reconnect", help: "When the device is lost, wait for it to come back (device events) and continue into a new recording; without it the capture ends with exit status 1."),
                .flag("ndjson", help: "Print one JSON object per batch, event and the final summary on stdout (schema in docs/session.md)."),
                .option("board", value: "NAME|FILE", help: "Board profile for the summaries' battery estimate: rpi-zero-2w, rpi-4b, rpi-5, beaglebone-black, phone, or FILE.json."),
                .option("stats-json", value: "FILE", help: "Also write the statistics JSON to FILE."),
                .flag("no-repair", help: "Keep kernel timestamps as they are (no burst respreading)."),
                StepFormatting.noInferredOption,
                .flag("no-analysis", help: "Record only: no live step count or activity (less CPU per sample on a small board; replay the recording later for both)."),
                .flag("no-hwfifo", help: "Do not use the hardware FIFO (switch it off; batch with the kernel watermark)."),
                .option("wait", value: "MODE", help: "Without hardware FIFO: timed (default: sleep until each batch is due, one wake-up per batch) or buffer (poll the buffer, woken by every sample)."),
                .option("stall", value: "AFTER:SECONDS", help: "Testing: stop reading once for SECONDS after AFTER seconds (to overflow the kernel buffer)."),
                .flag("json", help: "Print the statistics as JSON (keys documented in docs/iio-reader.md)."),
            ] + PublishOptions.options,
            subcommands: [benchmark],
            run: run
        )
    }

    /// `motionbatch capture benchmark`: the capture's whole per-wake-up path over a simulated
    /// device (``CaptureBenchmark``): CPU per sample and wake-up, allocations per wake-up; or,
    /// with `--machine-only`, the capture machine and decode alone (``MotionIIO/DecodeBenchmark``).
    static var benchmark: CommandSpec {
        CommandSpec(
            name: "benchmark",
            abstract: "Measure the capture's whole per-wake-up path (CPU per sample, allocations per wake-up) over a simulated device.",
            discussion: """
            A simulated 100 Hz hid-sensor accelerometer (a pipe standing in for the IIO buffer, a
            walking-like signal) is captured as `capture -o FILE` does on a terminal: the capture
            machine and its driver (poll, drain, decode, timestamp repair, gaps), the session writing
            and syncing the recording and its checkpoints (in /dev/shm unless --directory), the
            process counters, the live view (to /dev/null; --no-terminal: stderr a file, no live view),
            the coalescer and the analysis. After a
            warm-up, a window of wake-ups is measured: CPU time of the capturing thread per sample
            and per wake-up, and heap allocations per wake-up when the alloc-count shim is loaded
            (LD_PRELOAD; built from scripts/alloc-count/alloc-count.c, see docs/iio-reader.md),
            null otherwise. --machine-only measures the capture machine, demux and conversion alone
            on synthetic scans (--analysis: with the live analysis), without system calls.
            """,
            options: [
                .option("samples", value: "N", help: "Scans in the measured window (default 100000; 1000000 with --machine-only)."),
                .option("warmup", value: "N", help: "Scans before the window (default 6000: a minute at 100 Hz)."),
                .option("batch", value: "N", help: "Batch sizes, comma-separated (default 1,100).", repeated: false),
                .option("directory", value: "DIR", help: "Where the recording is written (default /dev/shm, else $TMPDIR or /tmp)."),
                .flag("no-recording", help: "Write no recording (as `capture` without -o, e.g. kernel test 58); the analysis, reports, counters and live view stay."),
                .flag("no-terminal", help: "Stderr as a file, not a terminal (as under systemd): no live view, so no per-batch reports are made."),
                .flag("machine-only", help: "Only the capture machine and decode on synthetic scans, without system calls or the session."),
                .flag("analysis", help: "With --machine-only: feed every batch to the live analysis, as capture does."),
                .flag("json", help: "Print JSON (docs/schemas/capture-benchmark.schema.json; keys in docs/iio-reader.md)."),
            ],
            run: { args, io in
                let machineOnly = args.flag("machine-only")
                let n = try args.int("samples", rule: InputLimits.positiveCount.narrowed(to: 1...100_000_000)) ?? (machineOnly ? 1_000_000 : 100_000)
                let batchLimit = machineOnly ? 1_000_000 : 10_000
                let batches = try (args.doubleList("batch", rule: InputLimits.positiveCount.narrowed(to: 1...Double(batchLimit))) ?? [1, 100]).map { Int($0) }
                let analysis = args.flag("analysis")
                guard machineOnly else {
                    if analysis { throw CLIError.usage("'--analysis' goes with '--machine-only': the whole path always runs the analysis.") }
                    let warmup = try args.int("warmup", rule: InputLimits.count.narrowed(to: 0...100_000_000)) ?? 6000
                    let directory = args.string("directory") ?? CaptureBenchmark.defaultDirectory
                    var results: [CaptureBenchmark.Result] = []
                    for b in batches {
                        results.append(try CaptureBenchmark.run(batch: b, samples: n, warmup: warmup, directory: directory, recording: !args.flag("no-recording"),
                                                                terminal: !args.flag("no-terminal")))
                    }
                    if args.flag("json") {
                        io.out(CaptureBenchmark.json(results, recording: !args.flag("no-recording"), terminal: !args.flag("no-terminal")).serialized(pretty: true))
                    } else {
                        for r in results { io.out(CaptureBenchmark.text(r)) }
                    }
                    return
                }
                func measure(_ samples: Int, _ batch: Int) -> DecodeBenchmark.Result {
                    guard analysis else { return DecodeBenchmark.run(samples: samples, batch: batch) }
                    var sink = AnalysisSink()
                    return DecodeBenchmark.run(samples: samples, batch: batch, into: &sink)
                }
                _ = measure(min(n, 10_000), 100) // warm-up
                let results = batches.map { measure(n, $0) }
                if args.flag("json") {
                    io.out(JSONValue.object([("schema", .number(1)), ("path", .string("machine")), ("results", .array(results.map { r in .object([
                        ("batch", .number(r.batch)), ("samples", .number(r.samples)),
                        ("cpu_s", .number(Double(r.cpuNanoseconds) / 1e9)), ("ns_per_sample", .number(r.nanosecondsPerSample)),
                    ]) }))]).serialized(pretty: true))
                } else {
                    for r in results {
                        io.out("batch \(r.batch): \(r.samples) samples, CPU \(formatFixed(Double(r.cpuNanoseconds) / 1e9, 3)) s, \(formatFixed(r.nanosecondsPerSample, 1)) ns/sample")
                    }
                }
            }
        )
    }

    /// `capture benchmark --analysis`'s sink: the standard analysis pipeline fed every batch,
    /// per-sample deliveries joined by a ``DeliveryCoalescer`` first (main's capture sink before the
    /// session; the session's own live analysis, ``MotionSession/SessionMachine``, is fed per batch).
    struct AnalysisSink: CaptureSink {
        var analysis: (pipeline: AnalysisPipeline, analyzers: StandardAnalyzers)? = try? StandardAnalyzers.pipeline(declaredRateHz: nil, sensors: .accel)
        var coalescer = DeliveryCoalescer()

        mutating func begin(_ devices: [CaptureStatistics.Device]) {}

        mutating func write(_ batch: SampleBatch, progress: CaptureMachine.Progress) {
            guard analysis != nil, let joined = coalescer.add(batch) else { return }
            do throws(AnalysisFailure) { try analysis!.pipeline.consume(joined) } catch { analysis = nil }
        }

        mutating func close(_ reason: CaptureStopReason, progress: CaptureMachine.Progress) {
            guard analysis != nil else { return }
            do throws(AnalysisFailure) {
                if let rest = coalescer.flush() { try analysis!.pipeline.consume(rest) }
                try analysis!.pipeline.finish()
            } catch { analysis = nil }
        }
    }

    static func batching(_ args: ParsedArguments) throws(CLIError) -> CapturePlan.Batching {
        let batch = try args.int("batch", rule: InputLimits.positiveCount.narrowed(to: 1...1_000_000))
        let latency = try args.double("latency", rule: InputLimits.duration.narrowed(to: 0...3600))
        switch (batch, latency) {
        case (.some, .some): throw .usage("'--batch' and '--latency' cannot be combined: choose one.")
        case (.some(let n), nil): return .samples(n)
        case (nil, .some(let s)): return .latency(seconds: s)
        case (nil, nil): return .none
        }
    }

    static func fsyncPolicy(_ text: String?) throws(CLIError) -> RecordingWriter.FsyncPolicy {
        switch text {
        case nil, "batch": return .everyBatch
        case "close": return .onClose
        case let t?:
            guard let s = DecimalScanner.double(t), InputLimits.duration.contains(s) else {
                throw .usage("The value '\(DiagnosticText.escaped(t.utf8))' is invalid for '--fsync': expected 'batch', 'close' or seconds (\(InputLimits.duration)).")
            }
            return .interval(seconds: s)
        }
    }

    static func stall(_ text: String?) throws(CLIError) -> CaptureMachine.Settings.Stall? {
        guard let t = text else { return nil }
        let p = t.split(separator: ":")
        guard p.count == 2, let a = DecimalScanner.double(String(p[0])), let d = DecimalScanner.double(String(p[1])),
              InputLimits.duration.contains(a), InputLimits.positiveDuration.contains(d) else {
            throw .usage("The value '\(DiagnosticText.escaped(t.utf8))' is invalid for '--stall': expected AFTER:SECONDS, e.g. 2:5 (\(InputLimits.duration)).")
        }
        return CaptureMachine.Settings.Stall(after: a, duration: d)
    }

    /// `--range` values: at most one accelerometer and one gyroscope full scale.
    static func range(_ values: [String]) throws(CLIError) -> CaptureRange {
        var r = CaptureRange()
        for v in values {
            guard let (q, value) = CaptureRange.parse(v), value < 1e12 else {
                throw .usage("The value '\(v)' is invalid for '--range': expected e.g. 4g, 39.2m/s2, 500dps or 8.7rad/s.")
            }
            if q == "accel" {
                guard r.accel == nil else { throw .usage("'--range' names the accelerometer's full scale twice.") }
                r.accel = value
            } else {
                guard r.gyro == nil else { throw .usage("'--range' names the gyroscope's full scale twice.") }
                r.gyro = value
            }
        }
        return r
    }

    /// Chooses the devices: named ones (``MotionIIO/DeviceIdentity/Selector``: `NAME`,
    /// `NAME@PARENT`, an id or a label), or the first IMU / accelerometer plus the first gyroscope.
    /// Two devices answering one name are refused with their parents listed (`NAME@PARENT` picks one).
    static func select(_ sensors: [SensorDescription], names: [String], local: Bool = false) throws(CLIError) -> [SensorDescription] {
        if !names.isEmpty {
            let identities = sensors.map { $0.identity(local: local) }
            var out: [SensorDescription] = []
            for n in names {
                let selector = DeviceIdentity.Selector(n)
                let matching = sensors.indices.filter { selector.selects(identities[$0]) }
                guard let k = matching.first else {
                    let known = sensors.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
                    throw .failure("\(AccessState.deviceAbsent(device: n).message) Motion devices: \(known.isEmpty ? "none" : known).\n\(AccessState.deviceAbsent(device: n).remedy)")
                }
                guard matching.count == 1 else {
                    let list = matching.map { "\(sensors[$0].name)@\(identities[$0].parent ?? "?") (\(sensors[$0].id))" }.joined(separator: ", ")
                    throw .usage("'\(n)' names \(matching.count) devices: \(list). Pick one with --device NAME@PARENT (the parent path or its last components).")
                }
                let s = sensors[k]
                guard s.hasAccel || s.hasGyro else { throw .failure("\(n) is a \(s.kind.rawValue) only; it has no accelerometer or gyroscope channels to capture.") }
                out.append(s)
            }
            guard out.count <= 2, out.filter(\.hasAccel).count <= 1, out.filter(\.hasGyro).count <= 1 else {
                throw .usage("Give at most one accelerometer and one gyroscope with '--device'.")
            }
            return out
        }
        let capturable = sensors.filter { ($0.hasAccel || $0.hasGyro) && $0.isBufferCapable }
        if let imu = capturable.first(where: { $0.kind == .imu }) { return [imu] }
        var out: [SensorDescription] = []
        if let a = capturable.first(where: { $0.kind == .accelerometer }) { out.append(a) }
        if let g = capturable.first(where: { $0.kind == .gyroscope }) { out.append(g) }
        guard !out.isEmpty else { throw .failure("No accelerometer or gyroscope with a buffer found. Run `motionbatch devices` to see what is there.") }
        return out
    }

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        let uri = ContextOptions.uri(args)
        let batching = try batching(args)
        let range = try range(args.strings("range"))
        let rate = try args.double("rate", rule: InputLimits.rate)
        let sampleLimit = try args.int("samples", rule: InputLimits.positiveCount)
        let output = args.string("output")
        let outputDir = args.string("output-dir")
        if output != nil, outputDir != nil { throw CLIError.usage("'--output' and '--output-dir' cannot be combined: choose one.") }
        let recording = output != nil || outputDir != nil
        var duration = try args.double("duration", rule: InputLimits.duration.narrowed(to: 0...31_536_000))
        if duration == 0 {
            duration = nil
        } else if duration == nil, sampleLimit == nil, !recording {
            duration = 10
        }
        let fsync = try fsyncPolicy(args.string("fsync"))
        let stall = try stall(args.string("stall"))
        let plan = try sessionPlan(args, outputDir: outputDir)
        if args.flag("json"), plan.ndjson { throw CLIError.usage("'--json' and '--ndjson' cannot be combined: --ndjson prints the summary as its last line.") }
        let latencySeconds: Double = switch batching {
        case .latency(let s): s
        case .samples(let n): Double(n) / (rate ?? 100)
        case .none: 1
        }
        let publishing = try PublishOptions.configuration(args, session: plan.session, latencySeconds: latencySeconds) { _ in
            outputDir.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + "fleet.outbox" } ?? output.map { $0 + ".outbox" }
        }
        if let p = publishing, let warning = PublishOptions.diskWarning(outboxPath: p.outboxPath, outboxMax: p.settings.outboxMaxBytes,
                                                                         recordingsDir: outputDir, maxDisk: plan.retention.maxDiskBytes) {
            io.err(warning)
        }
        // SIGUSR1/SIGUSR2 pause and resume; installed early so that none arriving during discovery is lost.
        do { try IIOCapture.installSignalHandlers(pauseSignals: true) } catch { throw CLIError.failure("cannot install the signal handlers: \(error)") }
        let context = try ContextOptions.open(args)
        let discovered = SensorDiscovery.discover(in: context)
        let sensors = try select(discovered, names: args.strings("device"), local: context.isLocal)
        // A hardware step counter, when the board has one, is read before and after the capture
        // and reported beside the live count (neither is silently preferred).
        let pedometer = SensorDescription.hardwarePedometer(in: discovered, capturing: sensors)
        var options = CaptureOptions(rate: rate, batching: batching, duration: duration, sampleLimit: sampleLimit,
                                     repairTimestamps: !args.flag("no-repair"), stall: stall)
        options.hardwareFIFO = !args.flag("no-hwfifo")
        options.range = range
        options.pauseSignals = true
        options.reconnect = plan.reconnect
        switch args.string("wait") {
        case nil, "timed": options.timedWait = true
        case "buffer": options.timedWait = false
        case let m?: throw CLIError.usage("The value '\(m)' is invalid for '--wait': expected 'timed' or 'buffer'.")
        }
        if let path = output, !args.flag("overwrite"), access(path, F_OK) == 0 {
            throw CLIError.failure("\(path) already exists; pass --overwrite to replace it.")
        }
        let chipActivity = SensorDescription.hardwareActivity(in: discovered, capturing: sensors)

        let log = ServiceLog.forStandardError(isTerminal: io.stderrIsTerminal)
        var settings = SessionMachine.Settings(session: plan.session)
        settings.output = output.map { .file($0, overwrite: args.flag("overwrite")) } ?? outputDir.map { .directory($0) } ?? .none
        settings.rotation = plan.rotation
        settings.retention = plan.retention
        settings.fsync = fsync
        settings.source = "iio \(uri)"
        settings.requestedRateHz = rate
        settings.batching = switch batching {
        case .none: "none"
        case .samples(let n): "samples \(n)"
        case .latency(let s): "latency \(s) s"
        }
        settings.board = plan.board
        settings.reconnect = plan.reconnect
        settings.analyse = sensors.contains(where: \.hasAccel) && !args.flag("no-analysis")
        settings.inferSteps = !args.flag("no-inferred-steps")
        settings.sensors = sensors.contains(where: \.hasGyro) ? [.accel, .gyro] : .accel
        var sessionOutput = SessionOutput(io: io, log: log, ndjson: plan.ndjson, session: plan.session)
        var lock: FileLock?
        if let dir = outputDir {
            (lock, settings.stored) = try prepareDirectory(dir, board: plan.board, output: &sessionOutput)
        }
        let capture = IIOCapture(context: context, sensors: sensors, options: options)
        let stats: CaptureStatistics
        let machine: SessionMachine
        do {
            if let config = publishing {
                let publisher = try PublishOptions.publisher(config, io: io)
                var recorder = SessionRecorder(settings: settings, observer: PublishingObserver(inner: sessionOutput, publisher: publisher, session: plan.session,
                                                                                                  samples: config.publishSamples ? settings.sensors : nil))
                defer {
                    let left = publisher.finish(deadline: MonotonicClock.nanoseconds() + 5_000_000_000)
                    if left > 0 { io.err("publish: \(left) messages are not acknowledged yet; they stay in the outbox \(config.outboxPath) and are sent by the next run") }
                }
                stats = try capture.run(into: &recorder)
                machine = recorder.machine
            } else {
                var recorder = SessionRecorder(settings: settings, observer: sessionOutput)
                stats = try capture.run(into: &recorder)
                machine = recorder.machine
            }
        } catch let e as CLIError {
            throw e
        } catch let e as CaptureFailure {
            throw CLIError.failure("capture of \(sensors.map(\.name).joined(separator: " + ")) could not start: \(e.description)")
        }
        withExtendedLifetime(lock) {}
        if stats.clippedSamples > 0 {
            let pct = 100 * Double(stats.clippedSamples) / Double(max(1, stats.samples))
            io.err("warning: \(stats.clippedSamples) samples (\(formatFixed(pct, 1)) %) have an axis at full scale (clipped): the motion exceeded the sensor's range; pick a larger one with --range.")
        }
        var hardware: CaptureStatsJSON.Pedometer?
        if let p = pedometer, let start = p.stepCounter?.steps, let ours = machine.steps {
            let end = SensorDiscovery.discover(in: capture.context).first { $0.id == p.id }?.stepCounter?.steps
            if let end, let c = HardwarePedometerComparison(ours: ours, hardwareStart: start, hardwareEnd: end) {
                hardware = CaptureStatsJSON.Pedometer(device: p.name, start: start, end: end, comparison: c)
            } else {
                io.err("warning: the hardware step counter of \(p.name) could not be compared (read \(start) before, \(end.map(String.init) ?? "nothing") after)")
            }
        }
        var hardwareActivity: CaptureStatsJSON.ChipActivity?
        if let d = chipActivity {
            let end = SensorDiscovery.discover(in: capture.context).first { $0.id == d.id }?.activity
            hardwareActivity = CaptureStatsJSON.ChipActivity(device: d.name, start: d.activity, end: end,
                                                             comparison: HardwareActivityComparison(ours: machine.currentActivity, hardwareModifier: end?.current))
        }
        let recordingPath = output ?? outputDir
        let json = CaptureStatsJSON.make(stats, uri: uri, output: recordingPath, steps: machine.steps, pedometer: hardware,
                                         activity: machine.activity, hardwareActivity: hardwareActivity, session: machine.summary)
        if let path = args.string("stats-json") {
            do { try CLIFiles.write(json.serialized(pretty: true) + "\n", to: path) } catch {
                io.err("Error: \(error.message)")
            }
        }
        if args.flag("json") {
            io.out(json.serialized(pretty: true))
        } else if !plan.ndjson {
            io.writeOut(text(stats, output: recordingPath, steps: machine.steps, pedometer: hardware, activity: machine.activity, hardwareActivity: hardwareActivity))
            if recording, let s = machine.summary { io.writeOut("session\n" + s.text.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n") }
        }
        if let f = machine.failure { throw CLIError.failure("capture stopped: \(f). \(stats.samples) samples were captured.") }
        switch stats.stopReason {
        case .lost(let s):
            throw CLIError.failure("\(s.message) \(stats.samples) samples were saved. \(s.remedy)")
        case .failed(let why):
            throw CLIError.failure("capture stopped: \(why). \(stats.samples) samples were saved.")
        default: break
        }
    }

    static func text(_ st: CaptureStatistics, output: String?, steps: Int?, pedometer: CaptureStatsJSON.Pedometer? = nil,
                     activity: ActivityTimeline? = nil, hardwareActivity: CaptureStatsJSON.ChipActivity? = nil) -> String {
        var lines: [(String, String)] = []
        for d in st.devices {
            let p = d.plan
            var cfg = "\(d.actualRate.map { $0.compactText } ?? "?") Hz"
            if let r = p.requestedRate { cfg += " (requested \(r.compactText))" }
            cfg += ", batch \(p.batchSamples), \(p.waitStrategy.rawValue), watermark \(d.watermark.map(String.init) ?? "?"), kernel buffer \(p.kernelBufferScans)"
            if let t = d.hwfifoTimeout { cfg += ", hwfifo_timeout \(formatFixed(t, 3)) s" }
            for r in d.ranges { cfg += ", \(r.quantity) full scale \(r.fullScale.compactText) (scale \((r.scaleReadBack ?? r.scale).compactText))" }
            lines.append((d.name, cfg))
        }
        lines += [
            ("samples", "\(st.samples)"),
            ("lost samples", "\(st.lostSamples)"),
            ("clipped samples", "\(st.clippedSamples)"),
            ("batches", "\(st.batches)"),
            ("userspace returns", "\(st.userspaceReturns)"),
            ("voluntary ctx switches", "\(st.counters.voluntarySwitches)"),
            ("CPU time", "\(formatFixed(Double(st.cpuNanoseconds) / 1e9, 3)) s (user \(formatFixed(Double(st.counters.userCPUNanoseconds) / 1e9, 3)), system \(formatFixed(Double(st.counters.systemCPUNanoseconds) / 1e9, 3)))"),
            ("elapsed", "\(formatFixed(Double(st.elapsedNanoseconds) / 1e9, 3)) s"),
            ("stopped by", st.stopReason.name),
            ("steps", steps.map(String.init) ?? "not counted"),
        ]
        if let p = pedometer { lines.append(("hardware pedometer", "\(p.device): \(p.comparison.summary)")) }
        if let a = activity {
            lines.append(("activity", "\(a.segments.last?.label.rawValue ?? "-") now; " + ActivityFormatting.timeLine(a)))
        }
        if let h = hardwareActivity { lines.append(("hardware activity", "\(h.device): \(h.comparison.summary)")) }
        if let o = output { lines.append(("recording", o)) }
        let w = lines.map(\.0.count).max() ?? 0
        return lines.map { $0.0 + String(repeating: " ", count: w - $0.0.count) + "  " + $0.1 }.joined(separator: "\n") + "\n"
    }
}

/// The capture statistics as JSON (keys documented in docs/iio-reader.md, "capture --json";
/// docs/schemas/capture-stats.schema.json).
enum CaptureStatsJSON {
    /// The version of the object (its `schema` member).
    static let schema = 1

    /// A hardware step counter read before and after the capture.
    struct Pedometer {
        var device: String
        var start: Int
        var end: Int
        var comparison: HardwarePedometerComparison

        var json: JSONValue {
            .object([
                ("device", .string(device)),
                ("start", .int(Int64(start))),
                ("end", .int(Int64(end))),
                ("steps", .int(Int64(comparison.hardware))),
                ("difference", .int(Int64(comparison.difference))),
                ("difference_percent", .number(comparison.differencePercent)),
            ])
        }
    }

    /// A chip's own activity recognition, read before and after the capture.
    struct ChipActivity {
        var device: String
        var start: SensorDescription.Activity?
        var end: SensorDescription.Activity?
        var comparison: HardwareActivityComparison

        static func channels(_ a: SensorDescription.Activity?) -> JSONValue {
            a.map { .object($0.channels.map { ($0.modifier, $0.confidence.map { .int(Int64($0)) } ?? .null) }) } ?? .null
        }

        var json: JSONValue {
            .object([
                ("device", .string(device)),
                ("start_percent", Self.channels(start)),
                ("end_percent", Self.channels(end)),
                ("current", comparison.hardwareModifier.map { .string($0) } ?? .null),
                ("current_class", comparison.hardware.map { .string($0.rawValue) } ?? .null),
                ("ours", comparison.ours.map { .string($0.rawValue) } ?? .null),
                ("agree", comparison.agree.map { .bool($0) } ?? .null),
            ])
        }
    }

    static func make(_ st: CaptureStatistics, uri: String, output: String?, steps: Int?, pedometer: Pedometer? = nil,
                     activity: ActivityTimeline? = nil, hardwareActivity: ChipActivity? = nil, session: SessionSummary? = nil) -> JSONValue {
        let stepsValue: JSONValue = steps.map { JSONValue.int(Int64($0)) } ?? .null
        let pedometerValue: JSONValue = pedometer?.json ?? .null
        let activityValue: JSONValue = activity.map { a in .object([
            ("current", a.segments.last.map { .string($0.label.rawValue) } ?? .null),
            ("segments", ActivityFormatting.segmentsJSON(a)),
            ("time_s", ActivityFormatting.timeJSON(a)),
        ]) } ?? .null
        let hardwareActivityValue: JSONValue = hardwareActivity?.json ?? .null
        let sessionValue: JSONValue = session?.json ?? .null
        return .object([
            ("schema", .number(schema)),
            ("uri", .string(uri)),
            ("output", output.map { .string($0) } ?? .null),
            ("stop_reason", .string(st.stopReason.name)),
            ("samples", .number(st.samples)),
            ("lost_samples", .number(st.lostSamples)),
            ("clipped_samples", .number(st.clippedSamples)),
            ("batches", .number(st.batches)),
            ("userspace_returns", .number(st.userspaceReturns)),
            ("refills", .number(st.refills)),
            ("yields", .number(st.yields)),
            ("split_bursts", .number(st.splitBursts)),
            ("event_wakes", .number(st.eventWakes)),
            ("sched_batch", .bool(st.schedBatch)),
            ("timed_wait", .bool(st.timedWait)),
            ("voluntary_context_switches", .int(st.counters.voluntarySwitches)),
            ("involuntary_context_switches", .int(st.counters.involuntarySwitches)),
            ("cpu_user_s", .number(Double(st.counters.userCPUNanoseconds) / 1e9)),
            ("cpu_system_s", .number(Double(st.counters.systemCPUNanoseconds) / 1e9)),
            ("cpu_s", .number(Double(st.cpuNanoseconds) / 1e9)),
            ("elapsed_s", .number(Double(st.elapsedNanoseconds) / 1e9)),
            ("stop_monotonic_s", .number(st.stopDecidedAt.map { Double($0) / 1e9 })),
            ("steps", stepsValue),
            ("hardware_pedometer", pedometerValue),
            ("activity", activityValue),
            ("hardware_activity", hardwareActivityValue),
            ("session", sessionValue),
            ("devices", .array(st.devices.map { d in .object([
                ("id", .string(d.id)),
                ("name", .string(d.name)),
                ("requested_rate_hz", .number(d.plan.requestedRate)),
                ("rate_hz", .number(d.actualRate)),
                ("batch_samples", .number(d.plan.batchSamples)),
                ("latency_s", .number(d.plan.latencySeconds)),
                ("wait_strategy", .string(d.plan.waitStrategy.rawValue)),
                ("watermark", .number(d.watermark.map(Double.init))),
                ("kernel_buffer_scans", .number(d.plan.kernelBufferScans)),
                ("hwfifo_timeout_s", .number(d.hwfifoTimeout)),
                ("timestamp_clock", d.timestampClock.map { .string($0) } ?? .null),
                ("kernel_timestamps", .bool(d.hasTimestamp)),
                ("samples", .number(d.samples)),
                ("drains_with_data", .number(d.drainsWithData)),
                ("short_batches", .number(d.shortBatches)),
                ("lost_samples", .number(d.lostSamples)),
                ("gaps", .number(d.gaps)),
                ("repaired_samples", .number(d.repairedSamples)),
                ("scale_changes", .number(d.scaleChanges)),
                ("clipped_samples", .number(d.clippedSamples)),
                ("ranges", .array(d.ranges.map { r in .object([
                    ("quantity", .string(r.quantity)), ("requested_full_scale", .number(r.requested)),
                    ("scale", .number(r.scaleReadBack ?? r.scale)), ("full_scale", .number(r.fullScale)),
                ]) })),
            ]) })),
        ])
    }
}
