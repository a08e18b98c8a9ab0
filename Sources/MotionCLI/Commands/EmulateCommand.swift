#if canImport(Glibc)
import Glibc
#endif
import MotionCore
import MotionEmulator

/// `motionbatch emulate RECORDING`: turns a recording into a live IIO accelerometer (and
/// gyroscope) through a virtual HID sensor hub on /dev/uhid.
enum EmulateCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "emulate",
            abstract: "Replay a recording as a virtual HID sensor hub (IIO accel_3d/gyro_3d) through /dev/uhid.",
            discussion: """
            Needs write access to /dev/uhid (root) and the kernel modules uhid, hid-sensor-hub,
            hid-sensor-accel-3d and hid-sensor-gyro-3d (sudo modprobe -a ...). The kernel's drivers
            create IIO devices named accel_3d (and gyro_3d when the recording has gyroscope columns).
            The device honours sampling_frequency (report interval; the recording is resampled) and
            buffer/hwfifo_timeout (report latency: queued samples arrive as one burst per period).
            Playback starts at the recording's first sample when a sensor is first switched on and
            pauses while it is off. Stop with Ctrl-C (SIGINT) or SIGTERM: the device is removed and a
            summary is printed. See docs/emulator.md.
            """,
            arguments: [ArgumentSpec("RECORDING", help: "A recording in any dialect (docs/dialects.md), '-' for standard input.")],
            options: [
                .flag("loop", help: "Restart the recording when it ends (otherwise the device is removed after it ends)."),
                .option("timestamps", value: "MODE", help: "hub: samples carry a hub timestamp (IIO timestamps follow the\nsample schedule); arrival: the kernel stamps arrival time. Default hub."),
                .option("name", value: "NAME", help: "HID device name (default 'MotionBatch virtual IMU')."),
                .option("fifo-capacity", value: "N", help: "Samples the hub FIFO holds per sensor (default 1024)."),
                .option("overflow", value: "POLICY", help: "drop-oldest (default) or drop-newest when the FIFO is full."),
                .option("summary-json", value: "FILE", help: "Write the exit summary as JSON to FILE."),
                .option("status-file", value: "FILE", help: "Keep FILE updated with the current state (JSON) after every\nrequest from the kernel."),
                .option("linger", value: "SECONDS", help: "Keep the device this long after the recording ended (default 1)."),
                .option("uhid", value: "PATH", help: "The uhid device node (default /dev/uhid)."),
                .flag("print-descriptor", help: "Print the HID report descriptor (hex) and exit without creating a device."),
            ] + InputOptions.options,
            run: { args, io in try run(args, io: &io) }
        )
    }

    static func run(_ args: ParsedArguments, io: inout CommandIO) throws {
        let path = args.argument("RECORDING")!
        var config = HubConfiguration()
        config.loop = args.flag("loop")
        switch args.string("timestamps") ?? "hub" {
        case "hub": config.hubTimestamps = true
        case "arrival": config.hubTimestamps = false
        case let other: throw CLIError.usage("The value '\(other)' is invalid for '--timestamps': expected 'hub' or 'arrival'.")
        }
        config.fifoCapacity = try args.int("fifo-capacity", rule: InputLimits.positiveCount.narrowed(to: 1...1_000_000)) ?? 1024
        if let o = args.string("overflow") {
            guard let p = OverflowPolicy(rawValue: o) else {
                throw CLIError.usage("The value '\(o)' is invalid for '--overflow': expected 'drop-oldest' or 'drop-newest'.")
            }
            config.overflow = p
        }
        let linger = try args.double("linger", rule: InputLimits.duration.narrowed(to: 0...3600)) ?? 1
        let name = args.string("name") ?? "MotionBatch virtual IMU"
        let uhidPath = args.string("uhid") ?? "/dev/uhid"

        let recording: Recording
        let input = try InputOptions.parse(args)
        do { recording = try Recording.read(try input.open(path)) } catch { throw CLIError.failure("\(error)") }
        try input.report(recording.warnings, to: io)
        let source: SampleSource
        do {
            source = try SampleSource(samples: recording.samples, hasGyro: recording.header.sensors.contains(.gyro))
        } catch { throw CLIError.failure("\(path): \(error)") }
        let hub = VirtualSensorHub(source: source, configuration: config)

        if args.flag("print-descriptor") {
            io.out(hub.layout.descriptor.map { String($0, radix: 16).leftPadded(2) }.joined(separator: " "))
            return
        }
        do { try EmulatorPreflight.check(uhidPath: uhidPath, needsGyro: source.hasGyro) } catch {
            throw CLIError.failure(error.description)
        }
        let sensors = hub.layout.sensors.map(\.iioName).joined(separator: " + ")
        io.err("emulate: \(path): \(recording.samples.count) samples at \(format(source.nativeRate)) Hz, \(format(Double(source.lastTime) / 1e9)) s; creating '\(name)' (\(sensors), \(config.hubTimestamps ? "hub" : "arrival") timestamps). Stop with Ctrl-C.")
        let errIO = io
        let outcome: EmulatorRunner.Outcome
        do {
            outcome = try EmulatorRunner.run(hub: hub, options: .init(name: name, uhidPath: uhidPath, linger: linger,
                                                                        statusFile: args.string("status-file")),
                                             log: { errIO.err("emulate: " + $0) })
        } catch { throw CLIError.failure(error.description) }

        // Summary.
        let how = outcome.reason == .signal ? "stopped by signal \(outcome.signal ?? 0)" : "recording ended"
        io.out("emulate: \(how) after \(format(outcome.elapsed)) s; device removed")
        for s in outcome.hub.sensors {
            let c = s.counters
            io.out("\(s.kind.iioName): sent \(c.samplesSent) samples in \(c.bursts) deliveries (max burst \(c.maxBurst)), dropped \(c.samplesDropped), discarded \(c.samplesDiscarded); interval \(s.features.reportIntervalMs) ms, latency \(s.features.reportLatencyMs) ms")
        }
        if let file = args.string("summary-json") {
            let json = JSONValue.object([
                ("recording", .object([
                    ("path", .string(path)),
                    ("samples", .int(Int64(recording.samples.count))),
                    ("native_rate_hz", .double(source.nativeRate)),
                    ("duration_s", .double(Double(source.lastTime) / 1e9)),
                    ("has_gyro", .bool(source.hasGyro)),
                ])),
                ("name", .string(name)),
                ("timestamps", .string(config.hubTimestamps ? "hub" : "arrival")),
                ("loop", .bool(config.loop)),
                ("fifo_capacity", .int(Int64(config.fifoCapacity))),
                ("overflow", .string(config.overflow.rawValue)),
                ("exit_reason", .string(outcome.reason.rawValue)),
                ("signal", outcome.signal.map { .int(Int64($0)) } ?? .null),
                ("started", .bool(outcome.started)),
                ("elapsed_s", .double(outcome.elapsed)),
                ("sensors", outcome.hub.sensorsJSON(origin: outcome.origin)),
            ])
            try CLIFiles.write(json.serialized(pretty: true) + "\n", to: file)
        }
    }

    static func format(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int64(r)) : String(r)
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
