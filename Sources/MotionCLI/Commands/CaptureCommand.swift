#if canImport(Glibc)
import Glibc
#endif
import MotionAnalysis
import MotionCore
import MotionIIO

/// `motionbatch capture`: capture an accelerometer (and gyroscope) into batches through libiio,
/// write a recording, and report what it cost in wake-ups and CPU time.
enum CaptureCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "capture",
            abstract: "Capture an IIO accelerometer/gyroscope in batches into a recording and report wake-ups and CPU time.",
            discussion: """
            Picks the first accelerometer (and a gyroscope on another device, merged by timestamp),
            or the devices named with --device. The rate is snapped to the nearest available one.
            Batching: --latency SECONDS or --batch N. Devices with a hardware FIFO
            (buffer/hwfifo_timeout) batch in hardware and are read by waiting on the buffer's poll
            fd and draining what is available; others fill the kernel buffer and the reader sleeps
            until each batch is due (--wait timed). Every batch is fed to the step counter as it
            arrives; a hardware step counter (in_steps_input), when present, is reported beside it.
            Stops after --duration or --samples, or on SIGINT/SIGTERM, always leaving the sensor idle.
            """,
            options: [
                .option("uri", value: "URI", help: "IIO context URI: local: (default) or ip:HOST[:PORT]."),
                .option("device", value: "NAME", help: "Device name or id (repeat for accel + gyro). Default: auto.", repeated: true),
                .option("rate", value: "HZ", help: "Sampling rate; the nearest available one is used."),
                .option("latency", value: "SECONDS", help: "Batch by latency (hardware FIFO timeout where present)."),
                .option("batch", value: "N", help: "Batch every N samples (watermark)."),
                .option("duration", value: "SECONDS", help: "Stop after SECONDS (default 10 unless --samples)."),
                .option("samples", value: "N", help: "Stop after N samples."),
                .option("output", short: "o", value: "FILE", help: "Write the recording to FILE."),
                .flag("overwrite", help: "Replace FILE if it exists."),
                .option("fsync", value: "POLICY", help: "batch (default), close, or SECONDS of sample time between fsyncs."),
                .option("stats-json", value: "FILE", help: "Also write the statistics JSON to FILE."),
                .flag("no-repair", help: "Keep kernel timestamps as they are (no burst respreading)."),
                .flag("no-hwfifo", help: "Do not use the hardware FIFO (switch it off; batch with the kernel watermark)."),
                .option("wait", value: "MODE", help: "Without hardware FIFO: timed (default: sleep until each batch is due, one wake-up per batch) or buffer (poll the buffer, woken by every sample)."),
                .option("stall", value: "AFTER:SECONDS", help: "Testing: stop reading once for SECONDS after AFTER seconds (to overflow the kernel buffer)."),
                .flag("json", help: "Print the statistics as JSON (keys documented in docs/iio-reader.md)."),
            ],
            subcommands: [benchmark],
            run: run
        )
    }

    /// `motionbatch capture benchmark`: CPU per sample of demux + conversion + timestamp repair + gap detection.
    static var benchmark: CommandSpec {
        CommandSpec(
            name: "benchmark",
            abstract: "Measure CPU time per sample of the capture path (demux + SI conversion + timestamp repair + gaps), without hardware.",
            options: [
                .option("samples", value: "N", help: "Scans per measurement (default 1000000)."),
                .option("batch", value: "N", help: "Batch sizes, comma-separated (default 1,100).", repeated: false),
                .flag("json", help: "Print JSON: {\"results\": [{\"batch\", \"samples\", \"cpu_s\", \"ns_per_sample\"}]}."),
            ],
            run: { args, io in
                let n = try args.int("samples", rule: InputLimits.positiveCount.narrowed(to: 1...100_000_000)) ?? 1_000_000
                let batches = try (args.doubleList("batch", rule: InputLimits.positiveCount.narrowed(to: 1...1_000_000)) ?? [1, 100]).map { Int($0) }
                _ = DecodeBenchmark.run(samples: min(n, 10_000), batch: 100) // warm-up
                let results = batches.map { DecodeBenchmark.run(samples: n, batch: $0) }
                if args.flag("json") {
                    io.out(JSONValue.object([("results", .array(results.map { r in .object([
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

    /// Where captured batches go: a ``RecordingWriter`` (with `--output`) created once the devices
    /// are configured (so the header states the rate read back and the timestamp clock in use), and
    /// the standard analysis pipeline (``StandardAnalyzers``: the step counter...), fed each batch as
    /// it is delivered (when an accelerometer is captured).
    struct RecordingSink: CaptureSink {
        var make: (([CaptureStatistics.Device]) throws -> RecordingWriter)?
        var writer: RecordingWriter?
        /// The live analysis; nil without an accelerometer, or after an analyzer rejected a batch.
        var analysis: (pipeline: AnalysisPipeline, analyzers: StandardAnalyzers)?
        /// Why the analysis stopped, if it did (the capture goes on).
        var stepProblem: String?

        init(countSteps: Bool) {
            analysis = countSteps ? try? StandardAnalyzers.pipeline(declaredRateHz: nil) : nil
        }

        mutating func begin(_ devices: [CaptureStatistics.Device]) throws { writer = try make?(devices) }

        mutating func write(_ batch: SampleBatch) throws {
            try writer?.append(batch)
            guard analysis != nil else { return }
            do throws(AnalysisFailure) {
                try analysis!.pipeline.consume(batch)
            } catch {
                stop(error)
            }
        }

        mutating func close() throws {
            if analysis != nil {
                do throws(AnalysisFailure) { try analysis!.pipeline.finish() } catch { stop(error) }
            }
            try writer?.close()
        }

        private mutating func stop(_ failure: AnalysisFailure) {
            stepProblem = failure.description
            analysis = nil
        }

        /// Steps counted live, or nil when none were counted (no accelerometer, or an analyzer
        /// rejected a batch: see ``stepProblem``).
        var steps: Int? { analysis.map { $0.pipeline.analyzer($0.analyzers.steps).count } }
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

    static func stall(_ text: String?) throws(CLIError) -> (after: Double, duration: Double)? {
        guard let t = text else { return nil }
        let p = t.split(separator: ":")
        guard p.count == 2, let a = DecimalScanner.double(String(p[0])), let d = DecimalScanner.double(String(p[1])),
              InputLimits.duration.contains(a), InputLimits.positiveDuration.contains(d) else {
            throw .usage("The value '\(DiagnosticText.escaped(t.utf8))' is invalid for '--stall': expected AFTER:SECONDS, e.g. 2:5 (\(InputLimits.duration)).")
        }
        return (a, d)
    }

    /// Chooses the devices: named ones, or the first IMU / accelerometer plus the first gyroscope.
    static func select(_ sensors: [SensorDescription], names: [String]) throws(CLIError) -> [SensorDescription] {
        if !names.isEmpty {
            var out: [SensorDescription] = []
            for n in names {
                guard let s = sensors.first(where: { $0.name == n || $0.id == n || $0.label == n }) else {
                    let known = sensors.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
                    throw .failure("\(AccessState.deviceAbsent(device: n).message) Motion devices: \(known.isEmpty ? "none" : known).\n\(AccessState.deviceAbsent(device: n).remedy)")
                }
                guard s.kind != .stepCounter else { throw .failure("\(n) is a step counter only; it has no accelerometer or gyroscope channels to capture.") }
                out.append(s)
            }
            guard out.count <= 2, out.filter(\.hasAccel).count <= 1, out.filter(\.hasGyro).count <= 1 else {
                throw .usage("Give at most one accelerometer and one gyroscope with '--device'.")
            }
            return out
        }
        let capturable = sensors.filter { $0.kind != .stepCounter && $0.isBufferCapable }
        if let imu = capturable.first(where: { $0.kind == .imu }) { return [imu] }
        var out: [SensorDescription] = []
        if let a = capturable.first(where: { $0.kind == .accelerometer }) { out.append(a) }
        if let g = capturable.first(where: { $0.kind == .gyroscope }) { out.append(g) }
        guard !out.isEmpty else { throw .failure("No accelerometer or gyroscope with a buffer found. Run `motionbatch devices` to see what is there.") }
        return out
    }

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        let uri = args.string("uri") ?? "local:"
        let batching = try batching(args)
        let rate = try args.double("rate", rule: InputLimits.rate)
        let sampleLimit = try args.int("samples", rule: InputLimits.positiveCount)
        var duration = try args.double("duration", rule: InputLimits.positiveDuration.narrowed(to: 0...31_536_000))
        if duration == nil && sampleLimit == nil { duration = 10 }
        let fsync = try fsyncPolicy(args.string("fsync"))
        let stall = try stall(args.string("stall"))
        StopSignals.install()

        let context: IIOContext
        do { context = try IIOContext(uri: uri) } catch {
            var msg = "cannot open IIO context '\(uri)': \(error)"
            if uri.hasPrefix("local"), let s = AccessState.from(errno: error.code, device: nil, path: nil, duringCapture: false) {
                msg += "\n\(s.message)\n\(s.remedy)"
            }
            throw CLIError.failure(msg)
        }
        let discovered = SensorDiscovery.discover(in: context)
        let sensors = try select(discovered, names: args.strings("device"))
        // A hardware step counter, when the board has one, is read before and after the capture
        // and reported beside the live count (neither is silently preferred).
        let pedometer = SensorDescription.hardwarePedometer(in: discovered, capturing: sensors)
        var options = CaptureOptions(rate: rate, batching: batching, duration: duration, sampleLimit: sampleLimit,
                                     repairTimestamps: !args.flag("no-repair"), stall: stall)
        options.hardwareFIFO = !args.flag("no-hwfifo")
        switch args.string("wait") {
        case nil, "timed": options.timedWait = true
        case "buffer": options.timedWait = false
        case let m?: throw CLIError.usage("The value '\(m)' is invalid for '--wait': expected 'timed' or 'buffer'.")
        }

        var sink = RecordingSink(countSteps: sensors.contains(where: \.hasAccel))
        if let path = args.string("output") {
            if !args.flag("overwrite"), access(path, F_OK) == 0 {
                throw CLIError.failure("\(path) already exists; pass --overwrite to replace it.")
            }
            var sensorSet: SensorSet = .accel
            if sensors.contains(where: \.hasGyro) { sensorSet.insert(.gyro) }
            let overwrite = args.flag("overwrite")
            sink.make = { devices in
                var meta: [String: String] = [
                    RecordingKey.device: devices.map(\.name).joined(separator: "+"),
                    RecordingKey.source: "iio \(uri)",
                ]
                if let r = rate { meta[RecordingKey.requestedHz] = r.compactText }
                if let r = devices.first?.actualRate { meta[RecordingKey.actualHz] = r.compactText }
                if let d = devices.first {
                    meta[RecordingKey.clock] = d.hasTimestamp ? "iio \(d.timestampClock ?? "unknown")" : "arrival (monotonic)"
                }
                switch batching {
                case .none: meta[RecordingKey.batching] = "none"
                case .samples(let n): meta[RecordingKey.batching] = "samples \(n)"
                case .latency(let s): meta[RecordingKey.batching] = "latency \(s) s"
                }
                return try RecordingWriter(path: path, header: RecordingHeader(sensors: sensorSet, metadata: meta), fsync: fsync, replaceExisting: overwrite)
            }
        }

        let capture = IIOCapture(context: context, sensors: sensors, options: options)
        let stats: CaptureStatistics
        do {
            stats = try capture.run(into: &sink)
        } catch {
            throw CLIError.failure("capture of \(sensors.map(\.name).joined(separator: " + ")) could not start: \(error.description)")
        }
        if let problem = sink.stepProblem { io.err("warning: step counting stopped: \(problem)") }
        var hardware: CaptureStatsJSON.Pedometer?
        if let p = pedometer, let start = p.stepCounter?.steps, let ours = sink.steps {
            let end = SensorDiscovery.discover(in: context).first { $0.id == p.id }?.stepCounter?.steps
            if let end, let c = HardwarePedometerComparison(ours: ours, hardwareStart: start, hardwareEnd: end) {
                hardware = CaptureStatsJSON.Pedometer(device: p.name, start: start, end: end, comparison: c)
            } else {
                io.err("warning: the hardware step counter of \(p.name) could not be compared (read \(start) before, \(end.map(String.init) ?? "nothing") after)")
            }
        }
        let json = CaptureStatsJSON.make(stats, uri: uri, output: args.string("output"), steps: sink.steps, pedometer: hardware)
        if let path = args.string("stats-json") {
            do { try CLIFiles.write(json.serialized(pretty: true) + "\n", to: path) } catch {
                io.err("Error: \(error.message)")
            }
        }
        if args.flag("json") { io.out(json.serialized(pretty: true)) } else { io.writeOut(text(stats, output: args.string("output"), steps: sink.steps, pedometer: hardware)) }
        switch stats.stopReason {
        case .lost(let d):
            let s = AccessState.lost(device: d)
            throw CLIError.failure("\(s.message) \(stats.samples) samples were saved. \(s.remedy)")
        case .failed(let why):
            throw CLIError.failure("capture stopped: \(why). \(stats.samples) samples were saved.")
        default: break
        }
    }

    static func text(_ st: CaptureStatistics, output: String?, steps: Int?, pedometer: CaptureStatsJSON.Pedometer? = nil) -> String {
        var lines: [(String, String)] = []
        for d in st.devices {
            let p = d.plan
            var cfg = "\(d.actualRate.map { $0.compactText } ?? "?") Hz"
            if let r = p.requestedRate { cfg += " (requested \(r.compactText))" }
            cfg += ", batch \(p.batchSamples), \(p.waitStrategy.rawValue), watermark \(d.watermark.map(String.init) ?? "?"), kernel buffer \(p.kernelBufferScans)"
            if let t = d.hwfifoTimeout { cfg += ", hwfifo_timeout \(formatFixed(t, 3)) s" }
            lines.append((d.name, cfg))
        }
        lines += [
            ("samples", "\(st.samples)"),
            ("lost samples", "\(st.lostSamples)"),
            ("batches", "\(st.batches)"),
            ("userspace returns", "\(st.userspaceReturns)"),
            ("voluntary ctx switches", "\(st.counters.voluntarySwitches)"),
            ("CPU time", "\(formatFixed(Double(st.cpuNanoseconds) / 1e9, 3)) s (user \(formatFixed(Double(st.counters.userCPUNanoseconds) / 1e9, 3)), system \(formatFixed(Double(st.counters.systemCPUNanoseconds) / 1e9, 3)))"),
            ("elapsed", "\(formatFixed(Double(st.elapsedNanoseconds) / 1e9, 3)) s"),
            ("stopped by", st.stopReason.name),
            ("steps", steps.map(String.init) ?? "not counted"),
        ]
        if let p = pedometer { lines.append(("hardware pedometer", "\(p.device): \(p.comparison.summary)")) }
        if let o = output { lines.append(("recording", o)) }
        let w = lines.map(\.0.count).max() ?? 0
        return lines.map { $0.0 + String(repeating: " ", count: w - $0.0.count) + "  " + $0.1 }.joined(separator: "\n") + "\n"
    }
}

/// The capture statistics as JSON (keys documented in docs/iio-reader.md, "capture --json").
enum CaptureStatsJSON {
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

    static func make(_ st: CaptureStatistics, uri: String, output: String?, steps: Int?, pedometer: Pedometer? = nil) -> JSONValue {
        let stepsValue: JSONValue = steps.map { JSONValue.int(Int64($0)) } ?? .null
        let pedometerValue: JSONValue = pedometer?.json ?? .null
        return .object([
            ("uri", .string(uri)),
            ("output", output.map { .string($0) } ?? .null),
            ("stop_reason", .string(st.stopReason.name)),
            ("samples", .number(st.samples)),
            ("lost_samples", .number(st.lostSamples)),
            ("batches", .number(st.batches)),
            ("userspace_returns", .number(st.userspaceReturns)),
            ("refills", .number(st.refills)),
            ("yields", .number(st.yields)),
            ("sched_batch", .bool(st.schedBatch)),
            ("timed_wait", .bool(st.timedWait)),
            ("voluntary_context_switches", .int(st.counters.voluntarySwitches)),
            ("involuntary_context_switches", .int(st.counters.involuntarySwitches)),
            ("cpu_user_s", .number(Double(st.counters.userCPUNanoseconds) / 1e9)),
            ("cpu_system_s", .number(Double(st.counters.systemCPUNanoseconds) / 1e9)),
            ("cpu_s", .number(Double(st.cpuNanoseconds) / 1e9)),
            ("elapsed_s", .number(Double(st.elapsedNanoseconds) / 1e9)),
            ("steps", stepsValue),
            ("hardware_pedometer", pedometerValue),
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
                ("lost_samples", .number(d.lostSamples)),
                ("gaps", .number(d.gaps)),
                ("repaired_samples", .number(d.repairedSamples)),
                ("scale_changes", .number(d.scaleChanges)),
            ]) })),
        ])
    }
}
