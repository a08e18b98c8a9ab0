import MotionCore
import MotionSystem
#if canImport(Glibc)
import Glibc
#endif

/// The driver of a ``CaptureMachine`` over libiio: it performs each action the machine asks for
/// (configure, create buffers, wait in `poll` on the buffers, the ``SignalPipe`` and a
/// ``MonotonicTimer``, drain, probe, deliver to the sink, release) and answers with the result and
/// the time. Every decision (when to wait, drain, hold, deliver, flush and stop) is the
/// machine's. Captures one accelerometer and/or gyroscope (one IMU device, or an accel and a gyro
/// device merged by timestamp). Owns the buffers; every exit path destroys them, restores
/// `hwfifo_timeout`, the timestamp clock and the scale, and closes the sink.
public final class IIOCapture {
    /// The context the devices belong to (a fresh one after a local device was re-plugged).
    public private(set) var context: IIOContext
    /// Devices captured (found again by ``identities`` after a reconnection).
    public private(set) var sensors: [SensorDescription]
    /// The stable identity of each captured device (name, parent device, label), read when the
    /// capture starts: how a re-plugged device is found again whatever its new `iio:deviceN`.
    public private(set) var identities: [DeviceIdentity] = []
    /// Options.
    public let options: CaptureOptions
    /// The machine (inspectable after ``run(into:)``).
    public private(set) var machine: CaptureMachine

    private final class Stream {
        let sensor: SensorDescription
        let device: IIODevice
        let plan: CapturePlan
        // Read on every drain, from `run`'s thread only: no dynamic exclusivity checks.
        @exclusivity(unchecked) var buffer: IIOBuffer?
        /// The simulated device's buffer (``SimulatedDevice``), in place of ``buffer``.
        @exclusivity(unchecked) var simulated: SimulatedBuffer?
        @exclusivity(unchecked) var decoder: ScanDecoder
        var report: CaptureStatistics.Device
        var period: Int64?
        var originalHWFIFOTimeout: String?
        var originalClock: String?
        /// `(channel, attribute, text)` of scales changed by `--range`, to put back.
        var originalScales: [(IIOChannel, String)] = []
        var pollIndex = -1
        /// The buffer's descriptor for a collection's blocking reads (``IIOCapture/readRun``): a
        /// local libiio buffer's, whose refill is this `read(2)`; -1 otherwise.
        var readFD: Int32 = -1
        /// The decoder's scale and offset files, re-read once a second (``ScaleWatch``).
        @exclusivity(unchecked) var scaleWatch: ScaleWatch?
        /// The samples array handed to the machine by the last drain: reused (no allocation per
        /// drain) once the machine has delivered them and let go of it.
        @exclusivity(unchecked) var scratch: [Sample] = []
        /// A collection's scan bytes, copied per wake-up and decoded together (``stage``).
        @exclusivity(unchecked) var staging: [UInt8] = []
        init(sensor: SensorDescription, device: IIODevice, plan: CapturePlan, decoder: ScanDecoder, report: CaptureStatistics.Device) {
            self.sensor = sensor; self.device = device; self.plan = plan; self.decoder = decoder; self.report = report
        }
    }
    // Read on every wake-up, from `run`'s thread only: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var streams: [Stream] = []
    private var uevents: UEventSocket?
    @exclusivity(unchecked) private var timer: MonotonicTimer?
    // Waited on once per sample at batch 1, only from `run`'s thread and never re-entrantly:
    // no dynamic exclusivity check (a runtime call per wait) is needed.
    @exclusivity(unchecked) private var bufferPoll = PollSet()
    /// ``MotionSystem/SignalPipe/received`` when the signal pipe was last emptied: a signal
    /// counted since then ends a collection's blocking reads before they start (``readRun``).
    @exclusivity(unchecked) private var signalsSeen: UInt64 = 0
    /// The thread that runs the capture, ready for blocking reads (``readRun``; made on first use).
    private var reader: InterruptibleRead.Reader?
    @exclusivity(unchecked) private var quietPoll = PollSet()
    private var bufferPollSignal = -1, bufferPollTimer = -1, quietPollSignal = -1, quietPollTimer = -1
    @exclusivity(unchecked) private var watcher: DescriptorWatcher?
    private var previousScheduler: Scheduler.Policy?
    @exclusivity(unchecked) private var countersAtStart: ProcessCounters?
    private var countersAtEnd: ProcessCounters?
    /// The last reading handed to the sink with a delivery, and when (monotonic ns).
    @exclusivity(unchecked) private var lastCounters: (at: Int64, value: ProcessCounters)?
    private var schedBatch = false
    /// The simulated device standing in for the hardware (``init(simulating:options:)``).
    private let simulation: SimulatedDevice?

    /// Whether the buffers have a poll descriptor (the local backend, or the simulated device).
    private var pollable: Bool { simulation != nil || context.isLocal }

    /// The monotonic clock, ns (the simulated device's when there is one).
    private func clock() -> Int64 {
        if let simulation { return simulation.now }
        return MonotonicClock.nanoseconds()
    }

    /// How often a delivery's process counters are read afresh (monotonic ns). Reading them
    /// (then `/proc/thread-self/status` and `getrusage`) for every delivery made a per-sample capture
    /// (`--batch 1`) cost 15x `iio_readdev` under QEMU TCG (kernel test 58) instead of 2x; between
    /// readings a delivery carries the last one, at most this old.
    static let countersInterval: Int64 = 1_000_000_000

    /// The process counters since the start for a delivery at `now`: read afresh at most once
    /// per ``countersInterval``, else the last reading.
    private func deliveryCounters(at now: Int64) -> ProcessCounters? {
        guard let a = countersAtStart else { return nil }
        if let last = lastCounters, now - last.at < Self.countersInterval { return last.value }
        let value = ProcessCounters.now().since(a)
        lastCounters = (now, value)
        return value
    }

    /// The signals that stop a capture.
    public static let stopSignals = [SIGINT, SIGTERM]

    /// Prepares a capture of `sensors` (one IMU, or accelerometer + gyroscope) in `context`.
    public init(context: IIOContext, sensors: [SensorDescription], options: CaptureOptions) {
        self.context = context
        self.sensors = sensors
        self.options = options
        simulation = nil
        machine = CaptureMachine(settings: CaptureMachine.Settings())
    }

    /// Prepares a capture of a ``SimulatedDevice`` (the capture benchmark): the driver runs as
    /// over a local device, with the device's pipe for the buffer, its table for attribute values
    /// and its clock for the monotonic clock; configuration writes are skipped.
    public init(simulating device: SimulatedDevice, options: CaptureOptions) {
        context = device.context
        sensors = [device.sensor]
        self.options = options
        simulation = device
        machine = CaptureMachine(settings: CaptureMachine.Settings())
    }

    /// Installs the stop signals' handlers (``SignalPipe``) early, so that a SIGINT/SIGTERM
    /// arriving while devices are discovered is not lost: the first wait sees it.
    public static func installSignalHandlers(pauseSignals: Bool = false) throws(SystemError) {
        try SignalPipe.install(stopSignals + (pauseSignals ? [SIGUSR1, SIGUSR2] : []))
    }

    /// Runs the capture until the duration, the sample count, a signal, a lost device or an error.
    /// - Returns: statistics, with ``CaptureStatistics/stopReason``.
    /// - Throws: ``CaptureFailure`` when it cannot start (after releasing everything).
    public func run<S: CaptureSink>(into sink: inout S) throws(CaptureFailure) -> CaptureStatistics {
        reader = nil  // made again on this thread when a collection first reads
        var settings = CaptureMachine.Settings(duration: options.duration, sampleLimit: options.sampleLimit)
        settings.repairTimestamps = options.repairTimestamps
        settings.timedWait = options.timedWait
        settings.stall = options.stall
        settings.remoteURI = pollable ? nil : context.uri
        settings.reconnect = options.reconnect
        settings.joinSamples = max(1, sink.maxJoinedSamples)
        settings.joinNanoseconds = min(max(sink.maxJoinNanoseconds, 1_000_000), 1_000_000_000)
        do throws(SystemError) {
            try Self.installSignalHandlers(pauseSignals: options.pauseSignals && context.isLocal)
            timer = try MonotonicTimer()
        } catch {
            throw .system(error)
        }
        if pollable {
            uevents = try? UEventSocket()
            do throws(SystemError) { try uevents?.notifyThroughSignalPipe() } catch { uevents = nil }
        }
        settings.removalEvents = uevents != nil
        // The machine lives in a local while it runs (a stored property of this class would be
        // accessed with a dynamic exclusivity check per action); ``machine`` is set at the end.
        var machine = CaptureMachine(settings: settings)
        defer { self.machine = machine }
        var now = clock()
        var action = machine.handle(.start, at: now)
        loop: while true {
            let event: CaptureMachine.Event
            switch action {
            case .prepare: event = prepare()
            case .startStreaming: event = startStreaming(&sink)
            case .wait(let w): event = wait(w, requestedAt: now)
            case let .drain(i, recheck): event = .drained(drain(i, recheckScale: recheck, deadline: machine.deadline))
            case let .collect(i, recheck, upTo, until):
                event = .drained(drain(i, recheckScale: recheck, deadline: machine.deadline, collect: (upTo, until)))
            case .yield:
                Scheduler.yield()
                event = .yielded
            case .probe(let i): event = .probed(probe(streams[i]))
            case .deliver(let batch):
                let now = clock()
                var progress = machine.progress(at: now)
                if sink.wantsProcessCounters { progress.counters = deliveryCounters(at: now) }
                do { try sink.write(batch, progress: progress); event = .delivered } catch {
                    event = .deliveryFailed(.recording(stage: .write, detail: "\(error)"))
                }
            case .mark(let m):
                do { try sink.mark(m); event = .marked } catch {
                    event = .deliveryFailed(.recording(stage: .write, detail: "\(error)"))
                }
            case .pauseStreaming:
                for s in streams { s.buffer?.destroy(); s.buffer = nil; s.readFD = -1; s.simulated?.destroy(); s.simulated = nil }
                event = .paused
            case .resumeStreaming: event = createBuffers()
            case .awaitDevice(let until): event = awaitDevice(until)
            case .release:
                // Released to wait for a lost device: device events stay on.
                release(final: machine.state != .lost)
                event = .released
            case .closeRecording:
                var progress = machine.progress(at: clock())
                if sink.wantsProcessCounters, let a = countersAtStart { progress.counters = (countersAtEnd ?? ProcessCounters.now()).since(a) }
                do { try sink.close(machine.stopReason ?? .duration, progress: progress); event = .recordingClosed(nil) } catch {
                    event = .recordingClosed(.recording(stage: .close, detail: "\(error)"))
                }
            case .finished: break loop
            }
            now = clock()
            action = machine.handle(event, at: now)
        }
        if let f = machine.startFailure { throw f }
        var stats = machine.statistics
        if let a = countersAtStart, let b = countersAtEnd { stats.counters = b.since(a) }
        stats.schedBatch = schedBatch
        for i in stats.devices.indices where i < streams.count {
            // Read back after the buffers were created (the machine got the setups before).
            stats.devices[i].ranges = streams[i].report.ranges
            stats.devices[i].watermark = streams[i].report.watermark
        }
        return stats
    }

    // MARK: preparing

    private func accessFailure(_ sensor: SensorDescription, _ error: SystemError?, holding: Bool) -> CaptureFailure {
        let probed = context.isLocal ? AccessProbe.check(id: sensor.id, name: sensor.name, holdingBuffer: holding) : nil
        if let state = AccessState.explaining(error, device: sensor.name, probed: probed, duringCapture: holding,
                                              remoteURI: context.isLocal ? nil : context.uri) {
            return .access(state, error: error)
        }
        return error.map { .system($0) } ?? .access(.deviceAbsent(device: sensor.name), error: nil)
    }

    private func prepare() -> CaptureMachine.Event {
        guard !sensors.isEmpty else { return .failed(.noSensors) }
        if let simulation { return prepareSimulated(simulation) }
        if identities.isEmpty {
            identities = sensors.map { $0.identity(local: context.isLocal) }
        } else if let failure = refind() {
            return .failed(failure)
        }
        // After a reconnection the old streams were released: configure anew.
        streams.removeAll()
        if let q = options.range.accel == nil ? nil : "accel", !sensors.contains(where: \.hasAccel) { return .failed(.range(.noDevice(quantity: q))) }
        if options.range.gyro != nil, !sensors.contains(where: \.hasGyro) { return .failed(.range(.noDevice(quantity: "anglvel"))) }
        for sensor in sensors {
            if context.isLocal {
                let state = AccessProbe.check(id: sensor.id, name: sensor.name, holdingBuffer: false)
                guard state == .available else { return .failed(.access(state, error: nil)) }
            }
            guard let device = context.device(named: sensor.id) else {
                return .failed(.access(.deviceAbsent(device: sensor.name), error: nil))
            }
            let plan: CapturePlan
            do { plan = try CapturePlan.make(for: sensor, rate: options.rate, batching: options.batching, hasPollDescriptor: context.isLocal, hardwareFIFO: options.hardwareFIFO) }
            catch { return .failed(.plan(error)) }
            do throws(CaptureFailure) {
                try configure(sensor, device, plan)
            } catch {
                return .failed(error)
            }
        }
        let timeout = streams.map(\.plan.contextTimeoutMs).max() ?? 2000
        do { try context.setTimeout(milliseconds: max(timeout, context.operationTimeoutMs ?? 0)) } catch { return .failed(.system(error)) }
        return .prepared(streams.map { CaptureMachine.StreamSetup(report: $0.report, period: $0.period, hasAccel: $0.sensor.hasAccel) })
    }

    /// After the devices were lost: a fresh context (libiio lists a local context's devices once,
    /// when it is created) and each device found again by its identity, whatever its new id.
    /// - Returns: the failure when a device is not (yet) back.
    private func refind() -> CaptureFailure? {
        let fresh: IIOContext
        do { fresh = try IIOContext(uri: context.uri) } catch {
            return .access(context.isLocal ? .noIIOSubsystem : .unreachable(uri: context.uri), error: error)
        }
        if let t = context.operationTimeoutMs { try? fresh.setTimeout(milliseconds: t) }
        let found = SensorDiscovery.discover(in: fresh)
        let candidates = found.map { $0.identity(local: fresh.isLocal) }
        var chosen: [SensorDescription] = []
        for identity in identities {
            switch identity.find(in: candidates) {
            case .success(let i): chosen.append(found[i])
            case .failure(.absent): return .access(.deviceAbsent(device: identity.name), error: nil)
            case .failure(.ambiguous):
                // Two devices match equally (identical hubs re-plugged at once): wait, do not guess.
                return .access(.deviceAbsent(device: identity.description), error: nil)
            }
        }
        context = fresh
        sensors = chosen
        for (k, s) in chosen.enumerated() { identities[k].id = s.id }
        return nil
    }

    private func configure(_ sensor: SensorDescription, _ device: IIODevice, _ plan: CapturePlan) throws(CaptureFailure) {
        // Settings changed below are put back if a later step fails (on success the stream
        // remembers them and `release` puts them back).
        var originalClock: String?
        var original: String?
        var originalScales: [(IIOChannel, String)] = []
        var configured = false
        var rangeFailure: CaptureFailure?
        defer {
            if !configured {
                if let o = original { _ = try? device.writeBufferAttribute("hwfifo_timeout", o) }
                if let c = originalClock { _ = try? device.writeAttribute("current_timestamp_clock", c) }
                for (c, text) in originalScales { _ = try? c.writeAttribute("scale", text) }
            }
        }
        do throws(SystemError) {
            // Rate: write, then read back the actual.
            var actual = sensor.samplingFrequency
            if let rate = plan.rate, let attr = sensor.samplingFrequencyAttribute {
                let text = rate.compactText
                if attr == "sampling_frequency" {
                    try device.writeAttribute(attr, text)
                    actual = AttributeText.double(try? device.readAttribute(attr))
                } else if let c = device.channels.first(where: { ($0.id.hasPrefix("accel") || $0.id.hasPrefix("anglvel")) && $0.attributeNames.contains("sampling_frequency") }) {
                    try c.writeAttribute("sampling_frequency", text)
                    actual = AttributeText.double(try? c.readAttribute("sampling_frequency"))
                }
            }
            // Timestamp clock: monotonic where writable.
            var clock = sensor.timestampClock
            if let c = clock, c != "monotonic" {
                if (try? device.writeAttribute("current_timestamp_clock", "monotonic")) != nil {
                    originalClock = c
                    clock = AttributeText.clock(try? device.readAttribute("current_timestamp_clock"))
                }
            }
            // Hardware FIFO latency.
            var fifoActual: Double?
            if let t = plan.hwfifoTimeout, sensor.fifo.hasTimeout {
                let before = try? device.readBufferAttribute("hwfifo_timeout")
                try device.writeBufferAttribute("hwfifo_timeout", t.compactText)
                original = before
                fifoActual = AttributeText.double(try? device.readBufferAttribute("hwfifo_timeout"))
            }
            // Channels: the motion axes and the timestamp; nothing else.
            var layoutChannels: [(id: String, index: Int, format: ScanElementFormat)] = []
            for c in device.channels where c.isScanElement && !c.isOutput {
                let wanted = c.id.hasPrefix("accel_") || c.id.hasPrefix("anglvel_") || c.id == "timestamp"
                if wanted, let f = c.format {
                    c.enable()
                    layoutChannels.append((c.id, c.index, f))
                } else {
                    c.disable()
                }
            }
            let applied: [CaptureRange.Applied]
            switch applyRange(sensor, device, &originalScales) {
            case .success(let a): applied = a
            case .failure(let f): rangeFailure = f; return
            }
            try device.setKernelBuffersCount(UInt32(plan.kernelBuffersCount))
            let stream = makeStream(sensor, device, plan, layoutChannels, actualRate: actual, hwfifoTimeout: fifoActual, clock: clock, ranges: applied)
            stream.originalHWFIFOTimeout = original
            stream.originalClock = originalClock
            stream.originalScales = originalScales
            streams.append(stream)
            configured = true
        } catch {
            throw accessFailure(sensor, error, holding: false)
        }
        if let f = rangeFailure { throw f }
    }

    /// The stream of a configured device: its scan layout (the enabled channels), the decoder with
    /// the scales and offsets read fresh, the report of what was applied, the period.
    private func makeStream(_ sensor: SensorDescription, _ device: IIODevice, _ plan: CapturePlan,
                            _ layoutChannels: [(id: String, index: Int, format: ScanElementFormat)],
                            actualRate actual: Double?, hwfifoTimeout fifoActual: Double?, clock: String?,
                            ranges applied: [CaptureRange.Applied]) -> Stream {
        let layout = ScanLayout(channels: layoutChannels)
        let conversions = Self.readConversions(device, values: attributeValues)
        let decoder = ScanDecoder(layout: layout) { id in conversions[id] ?? (scale: 1, offset: 0) }
        var report = CaptureStatistics.Device(
            id: sensor.id, name: sensor.name, plan: plan, actualRate: actual, hwfifoTimeout: fifoActual, watermark: nil,
            timestampClock: clock, hasTimestamp: layout.element("timestamp") != nil)
        report.ranges = applied
        report.identity = identities.first { $0.id == sensor.id || ($0.id == nil && $0.name == sensor.name) }
        let stream = Stream(sensor: sensor, device: device, plan: plan, decoder: decoder, report: report)
        if let r = actual ?? plan.rate, r > 0 { stream.period = Int64((1e9 / r).rounded()) }
        stream.scaleWatch = ScaleWatch(decoder: decoder, device: device, local: simulation == nil && context.isLocal, table: simulation?.values)
        return stream
    }

    /// Where attribute values are read: libiio, or the simulated device's table.
    private var attributeValues: SensorDiscovery.AttributeSource {
        simulation.map { .table($0.values) } ?? .live
    }

    /// ``prepare()`` for a simulated device: planned as a local device with a poll descriptor,
    /// its rate, FIFO timeout and clock taken as applied (nothing is written).
    private func prepareSimulated(_ device: SimulatedDevice) -> CaptureMachine.Event {
        streams.removeAll()
        let sensor = device.sensor
        guard let iio = context.device(named: sensor.id) else { return .failed(.access(.deviceAbsent(device: sensor.name), error: nil)) }
        let plan: CapturePlan
        do { plan = try CapturePlan.make(for: sensor, rate: options.rate, batching: options.batching, hasPollDescriptor: true, hardwareFIFO: options.hardwareFIFO) }
        catch { return .failed(.plan(error)) }
        let layoutChannels = sensor.scanChannels.compactMap { c -> (id: String, index: Int, format: ScanElementFormat)? in
            guard c.id.hasPrefix("accel_") || c.id.hasPrefix("anglvel_") || c.id == "timestamp", let f = c.format else { return nil }
            return (c.id, c.index ?? 0, f)
        }
        streams.append(makeStream(sensor, iio, plan, layoutChannels, actualRate: plan.rate ?? device.rateHz,
                                  hwfifoTimeout: sensor.fifo.hasTimeout ? plan.hwfifoTimeout : nil, clock: sensor.timestampClock, ranges: []))
        if identities.isEmpty { identities = [sensor.identity(local: false)] }
        return .prepared(streams.map { CaptureMachine.StreamSetup(report: $0.report, period: $0.period, hasAccel: $0.sensor.hasAccel) })
    }

    /// `--range`: writes the scale whose full scale is the smallest at or above the one asked for.
    private func applyRange(_ sensor: SensorDescription, _ device: IIODevice, _ originalScales: inout [(IIOChannel, String)]) -> Result<[CaptureRange.Applied], CaptureFailure> {
        var applied: [CaptureRange.Applied] = []
        for (quantity, requested) in [("accel", options.range.accel), ("anglvel", options.range.gyro)] {
            guard let requested, let c = device.channels.first(where: { $0.id.hasPrefix(quantity + "_") && !$0.isOutput }), let f = c.format else { continue }
            guard c.attributeNames.contains("scale_available"), let list = try? c.readAttribute("scale_available") else {
                return .failure(.range(.notSelectable(device: sensor.name, quantity: quantity)))
            }
            let rawMax = CaptureRange.rawMax(f)
            let tokens = list.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
            guard let choice = CaptureRange.choose(requested: requested, available: tokens, rawMax: rawMax) else {
                return .failure(.range(.notSelectable(device: sensor.name, quantity: quantity)))
            }
            if let before = try? c.readAttribute("scale") { originalScales.append((c, before)) }
            do { try c.writeAttribute("scale", choice.text) } catch { return .failure(accessFailure(sensor, error, holding: false)) }
            let back = AttributeText.double(try? c.readAttribute("scale"))
            applied.append(CaptureRange.Applied(quantity: quantity, requested: requested, scale: choice.scale, scaleReadBack: back,
                                           fullScale: (back ?? choice.scale) * rawMax))
        }
        return .success(applied)
    }

    /// Scale and offset of each motion channel (`*_scale`, `*_offset`), read fresh.
    /// Each sysfs file is read once, however many channels share it (`in_accel_scale`).
    static func readConversions(_ device: IIODevice, values: SensorDiscovery.AttributeSource = .live) -> [String: (scale: Double, offset: Double)] {
        var out: [String: (scale: Double, offset: Double)] = [:]
        var files: [String: Double?] = [:]
        func read(_ c: IIOChannel, _ attr: String) -> Double? {
            guard c.attributeNames.contains(attr) else { return nil }
            let file = c.attributeFilename(attr) ?? "\(c.id)_\(attr)"
            if let v = files[file] { return v }
            let v = AttributeText.double(values.read(device, .channel(c, attr)))
            files[file] = v
            return v
        }
        for c in device.channels where c.id.hasPrefix("accel_") || c.id.hasPrefix("anglvel_") {
            out[c.id] = (read(c, "scale") ?? c.formatScale ?? 1, read(c, "offset") ?? 0)
        }
        return out
    }

    // MARK: streaming

    /// Creates the buffers (and, the first time, the poll sets, the scheduler policy and the
    /// sink), reporting `.streaming` or the failure.
    private func startStreaming<S: CaptureSink>(_ sink: inout S) -> CaptureMachine.Event {
        let created = createBuffers()
        guard case .streaming = created else { return created }
        if streams.contains(where: { $0.plan.waitStrategy == .pollDrain && ($0.plan.expectedBurst ?? 0) > 1 }), previousScheduler == nil {
            // A batching reader needs no wake-up latency: SCHED_BATCH stops it from preempting
            // the producer of a FIFO burst when the burst's first sample wakes it (measured:
            // bursts then arrive in two parts and cost two wake-ups). Put back at release.
            previousScheduler = Scheduler.switchTo(.batch)
            schedBatch = previousScheduler != nil
        }
        do { try sink.begin(streams.map(\.report)) } catch {
            return .failed(.recording(stage: .create, detail: "\(error)"))
        }
        if countersAtStart == nil { countersAtStart = ProcessCounters.now() }
        return .streaming
    }

    private func createBuffers() -> CaptureMachine.Event {
        bufferPoll = PollSet()
        quietPoll = PollSet()
        for s in streams {
            if let simulation {
                do throws(SystemError) {
                    let buffer = try SimulatedBuffer(device: simulation, capacity: s.plan.bufferCapacity)
                    s.simulated = buffer
                    s.pollIndex = bufferPoll.add(buffer.pollDescriptor)
                    s.report.watermark = s.plan.kernelWatermark
                    if buffer.step != s.decoder.layout.scanBytes {
                        return .failed(.layoutMismatch(device: s.device.id, bufferStep: buffer.step, computedStep: s.decoder.layout.scanBytes))
                    }
                } catch {
                    return .failed(.system(error))
                }
                continue
            }
            do throws(SystemError) {
                let buffer = try IIOBuffer(device: s.device, capacity: s.plan.bufferCapacity)
                s.buffer = buffer
                if s.plan.waitStrategy != .blockingRefill {
                    if s.plan.kernelWatermark != s.plan.bufferCapacity {
                        // libiio wrote watermark = capacity; re-arm with the planned one.
                        try s.device.writeBufferAttribute("enable", "0")
                        try s.device.writeBufferAttribute("watermark", String(s.plan.kernelWatermark))
                        try s.device.writeBufferAttribute("enable", "1")
                    }
                    try buffer.setBlocking(false)
                    let fd = try buffer.pollDescriptor()
                    s.pollIndex = bufferPoll.add(fd)
                    s.readFD = context.isLocal ? fd : -1
                }
                s.report.watermark = AttributeText.int(try? s.device.readBufferAttribute("watermark"))
                if buffer.step != s.decoder.layout.scanBytes {
                    return .failed(.layoutMismatch(device: s.device.id, bufferStep: buffer.step, computedStep: s.decoder.layout.scanBytes))
                }
            } catch {
                // Once the buffer exists we hold the character device: probing it would say busy.
                return .failed(accessFailure(s.sensor, error, holding: s.buffer != nil))
            }
        }
        bufferPollSignal = bufferPoll.add(SignalPipe.descriptor)
        quietPollSignal = quietPoll.add(SignalPipe.descriptor)
        if let t = timer {
            bufferPollTimer = bufferPoll.add(t.fd)
            quietPollTimer = quietPoll.add(t.fd)
        }
        return .streaming
    }

    private func controls(_ signals: [Int32], into wake: inout CaptureMachine.Wake) {
        for s in signals {
            switch s {
            case SIGINT, SIGTERM: wake.controls.append(.stop(signal: s))
            case SIGUSR1 where options.pauseSignals: wake.controls.append(.pause)
            case SIGUSR2 where options.pauseSignals: wake.controls.append(.resume)
            case SIGIO:
                for e in uevents?.receive() ?? [] {
                    if e.action == "remove" { wake.deviceRemoved = true }
                    // An IIO device appeared, or udev finished applying its rules to one.
                    if e.action == "add", e.subsystem == "iio" || e.devpath.contains("/iio:device") { wake.deviceAdded = true }
                }
            default: break
            }
        }
    }

    /// Carries out a wait the machine asked for at monotonic time `requestedAt` (a `until` at or
    /// before it means: only check).
    private func wait(_ w: CaptureMachine.Wait, requestedAt: Int64) -> CaptureMachine.Event {
        var wake = CaptureMachine.Wake()
        let withBuffers = !w.streams.isEmpty
        let check = w.until.map { $0 <= requestedAt } ?? false
        if !check, watcher == nil { try? timer?.arm(at: w.until) }
        let n: Int
        if withBuffers {
            n = (try? bufferPoll.wait(timeoutMilliseconds: check ? 0 : -1)) ?? 0
        } else {
            n = (try? quietPoll.wait(timeoutMilliseconds: check ? 0 : -1)) ?? 0
        }
        guard n > 0 else { return .woke(wake) }
        if withBuffers { return .woke(woken(from: bufferPoll, signal: bufferPollSignal, timer: bufferPollTimer).wake) }
        wake = woken(from: quietPoll, signal: quietPollSignal, timer: quietPollTimer, buffers: false).wake
        return .woke(wake)
    }

    /// What the last wait on `set` returned, as the machine's ``CaptureMachine/Wake``: the
    /// controls taken from the signal pipe, the timer acknowledged (`timerFired`), and with
    /// `buffers` each stream's buffer readable or errored.
    private func woken(from set: PollSet, signal: Int, timer tim: Int, buffers: Bool = true) -> (wake: CaptureMachine.Wake, timerFired: Bool) {
        var wake = CaptureMachine.Wake()
        var fired = false
        if !set.returned(signal).isEmpty { signalsSeen = SignalPipe.received; controls(SignalPipe.take(), into: &wake) }
        if tim >= 0, !set.returned(tim).isEmpty { _ = timer?.acknowledge(); fired = true }
        if buffers {
            for (i, s) in streams.enumerated() where s.pollIndex >= 0 {
                let r = set.returned(s.pollIndex)
                if r.contains(.readable) { wake.readable.insert(.stream(i)) }
                else if !r.isEmpty { wake.errored.insert(.stream(i)) }
            }
        }
        return (wake, fired)
    }

    private func awaitDevice(_ until: Int64?) -> CaptureMachine.Event {
        var wake = CaptureMachine.Wake()
        try? timer?.arm(at: until)
        guard (try? quietPoll.wait()) ?? 0 > 0 else { return .woke(wake) }
        if !quietPoll.returned(quietPollSignal).isEmpty { signalsSeen = SignalPipe.received; controls(SignalPipe.take(), into: &wake) }
        if quietPollTimer >= 0, !quietPoll.returned(quietPollTimer).isEmpty { _ = timer?.acknowledge() }
        return .woke(wake)
    }

    /// Blocking refills (no poll fd, `ip:`): a thread watches the signals and the machine's
    /// deadline (the timer) and cancels the refills, so that a stop does not wait for a batch.
    private func startWatcher(deadline: Int64?) {
        guard watcher == nil else { return }
        let cancellers = streams.compactMap { $0.buffer?.canceller }
        if let t = timer, let d = deadline { try? t.arm(at: d) }
        watcher = try? DescriptorWatcher(descriptors: [SignalPipe.descriptor] + (timer.map { [$0.fd] } ?? [])) {
            for c in cancellers { c.cancel() }
        }
    }

    /// Drains stream `i`: non-blocking refills until the kernel buffer is empty, or one blocking
    /// refill; with `collect` (``CaptureMachine/Action/collect(stream:recheckScale:upTo:until:)``)
    /// it then waits on the same set (the timer armed at `until`) and drains again while only this
    /// buffer wakes the process, up to `upTo` samples. Those wake-ups are counted; a wake with
    /// anything else in it ends the collection and is handed back as the drain's interruption.
    private func drain(_ i: Int, recheckScale: Bool, deadline: Int64?, collect: (upTo: Int, until: Int64)? = nil) -> CaptureMachine.Drain {
        let s = streams[i]
        if let buffer = s.buffer { return drain(s, i, from: buffer, recheckScale: recheckScale, deadline: deadline, collect: collect) }
        if let buffer = s.simulated { return drain(s, i, from: buffer, recheckScale: recheckScale, deadline: deadline, collect: collect) }
        return CaptureMachine.Drain(samples: [], refills: 0)
    }

    /// ``drain(_:recheckScale:deadline:collect:)`` from libiio's buffer or the simulated one
    /// (specialised for each: no existential on the per-wake-up path).
    private func drain<B: CaptureBuffer>(_ s: Stream, _ i: Int, from buffer: B, recheckScale: Bool, deadline: Int64?,
                                         collect: (upTo: Int, until: Int64)?) -> CaptureMachine.Drain {
        if s.plan.waitStrategy == .blockingRefill { startWatcher(deadline: deadline) }
        let changed = recheckScale ? self.recheckScale(s) : false
        // Reuse the last drain's array: unique again once the machine delivered it.
        var raw = s.scratch
        s.scratch = []
        raw.removeAll(keepingCapacity: true)
        var d = CaptureMachine.Drain(samples: [], refills: 0, scaleChanged: changed)
        refill(s, from: buffer, into: &raw, &d)
        if let c = collect, !d.failed, raw.count < c.upTo, s.pollIndex >= 0, (try? timer?.arm(at: c.until)) != nil {
            while raw.count < c.upTo {
                // The common wake-ups (only this buffer readable): each scan's bytes copied aside,
                // all decoded at once when another wake-up or the count ends the run.
                let ended = stage(s, from: buffer, upTo: c.upTo - raw.count, until: c.until, into: &raw, &d)
                if d.failed { break }
                guard let n = ended else { continue }
                guard n > 0 else { d.wakeups += 1; break }
                let (wake, timedOut) = woken(from: bufferPoll, signal: bufferPollSignal, timer: bufferPollTimer)
                if wake == CaptureMachine.Wake(readable: .stream(i)) {
                    // Data with the time limit: read it, and end.
                    d.wakeups += 1
                    refill(s, from: buffer, into: &raw, &d)
                    if d.failed || timedOut { break }
                    continue
                }
                // Anything else (or nothing: the time limit, a spurious return) ends it.
                if wake == CaptureMachine.Wake() { d.wakeups += 1 } else { d.interruption = wake }
                break
            }
        }
        s.scratch = raw
        d.samples = raw
        return d
    }

    /// A collection's common wake-ups: with a descriptor to read (``readRun``), blocking reads;
    /// otherwise (``MotionSystem/PollSet/waitWhile(onlyReadable:_:)``) while only `s`'s buffer
    /// wakes the process, one non-blocking refill per wake-up whose scan bytes are copied into
    /// `s.staging`, up to `upTo` scans. Then the staged scans are decoded into `raw` in one pass.
    /// No decode, array growth or reference counting per wake-up: a one-scan refill's path is
    /// `poll`, libiio's refill and a copy.
    /// - Returns: the ready count of the wake-up that ended the run (its events in `bufferPoll`),
    ///   or nil when the count was reached or a refill failed (`d.failure`); a refill that finds
    ///   nothing (`EAGAIN`) waits again.
    private func stage<B: CaptureBuffer>(_ s: Stream, from buffer: B, upTo: Int, until: Int64, into raw: inout [Sample], _ d: inout CaptureMachine.Drain) -> Int? {
        let step = s.decoder.layout.scanBytes
        precondition(buffer.capacity == 1 && step > 0 && upTo > 0, "staging is for one-scan refills")
        if s.staging.count < upTo * step { s.staging = [UInt8](repeating: 0, count: upTo * step) }
        if s.readFD >= 0, let run = readRun(s, upTo: upTo, until: until, into: &raw, &d) { return run }
        var scans = 0, refills = 0
        var failure: SystemError?
        let (wakeups, ended) = s.staging.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            return bufferPoll.waitWhile(onlyReadable: s.pollIndex) {
                refills += 1
                let got: Int?
                do throws(SystemError) { got = try buffer.refillAvailable() } catch {
                    failure = error
                    return false
                }
                guard let n = got, n >= step else { return true }  // EAGAIN: woken for nothing
                buffer.withUnsafeBytes { src in base.advanced(by: scans * step).copyMemory(from: src.baseAddress!, byteCount: step) }
                scans += 1
                return scans < upTo
            }
        }
        d.wakeups += wakeups
        d.refills += refills
        d.readsWithData += scans
        if let failure { d.failure = failure }
        decodeStaged(s, scans: scans, into: &raw, &d)
        return ended
    }

    /// A collection's wake-ups as blocking `read(2)` calls on the buffer's descriptor
    /// (``MotionSystem/InterruptibleRead``): one system call per sample instead of `poll` and a
    /// refill (kernel test 58). The reads go straight into `s.staging` (what libiio's refill of a
    /// local buffer does: a `read` of whole scans); a signal or the deadline `until` makes the
    /// descriptor non-blocking again and ends the run, and one `poll` that does not block then
    /// says what woke the process, as the `poll` of a waiting collection would have.
    /// - Returns: nil when no run could start (another one in the process; the caller polls),
    ///   else ``stage``'s result.
    private func readRun(_ s: Stream, upTo: Int, until: Int64, into raw: inout [Sample], _ d: inout CaptureMachine.Drain) -> Int?? {
        let step = s.decoder.layout.scanBytes, fd = s.readFD
        if reader == nil { reader = InterruptibleRead.Reader() }
        guard let reader, InterruptibleRead.begin(fd, on: reader, until: until, signalsBefore: signalsSeen) else { return nil }
        var scans = 0, reads = 0, returns = 0
        var failure: SystemError?
        s.staging.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            while scans < upTo {
                let n = Glibc.read(fd, base.advanced(by: scans * step), (upTo - scans) * step)
                reads += 1
                if n > 0 {
                    returns += 1
                    scans += n / step  // the kernel hands out whole scans
                    if InterruptibleRead.interrupted { break }
                    continue
                }
                if n == 0 { break }
                let e = Errno.current
                if e == .interrupted, !InterruptibleRead.interrupted { continue }
                if e != .wouldBlock && e != .interrupted { failure = SystemError(e, call: "read", subject: s.device.id) }
                break
            }
        }
        InterruptibleRead.end()
        d.wakeups += returns
        d.refills += reads
        d.readsWithData += returns
        decodeStaged(s, scans: scans, into: &raw, &d)
        if let failure {
            d.failure = failure
            return .some(nil)
        }
        if scans >= upTo { return .some(nil) }
        // Ended by a signal or the deadline (or a spurious look): what is ready now. A pipe found
        // empty means every signal counted before this look was taken already.
        let counted = SignalPipe.received
        let ready = (try? bufferPoll.wait(timeoutMilliseconds: 0)) ?? 0
        if bufferPoll.returned(bufferPollSignal).isEmpty { signalsSeen = counted }
        return .some(ready)
    }

    /// Decodes the first `scans` scans of `s.staging` into `raw` (the clipped count into `d`).
    private func decodeStaged(_ s: Stream, scans: Int, into raw: inout [Sample], _ d: inout CaptureMachine.Drain) {
        guard scans > 0 else { return }
        let step = s.decoder.layout.scanBytes
        var clipped = 0
        s.staging.withUnsafeBytes { _ = s.decoder.decode(UnsafeRawBufferPointer(rebasing: $0[0..<(scans * step)]), into: &raw, clipped: &clipped) }
        d.clippedSamples += clipped
    }

    /// The refills of one drain of `s` from `buffer`: decoded samples appended to `raw`, the
    /// counts and a failure added to `d` (whose samples are set by the caller).
    private func refill<B: CaptureBuffer>(_ s: Stream, from buffer: B, into raw: inout [Sample], _ d: inout CaptureMachine.Drain) {
        var refills = 0, reads = 0, clipped = 0
        var failure: SystemError?
        let blocking = s.plan.waitStrategy == .blockingRefill
        let decoder = s.decoder
        let full = buffer.capacity * max(1, decoder.layout.scanBytes)
        while true {
            refills += 1
            let bytes: Int
            do throws(SystemError) {
                if blocking { bytes = try buffer.refill() } else {
                    guard let b = try buffer.refillAvailable() else { break }
                    bytes = b
                }
            } catch {
                // A refill cancelled to stop (network backend) is not an error.
                if !(watcher?.fired ?? false) { failure = error }
                break
            }
            guard bytes > 0 else { break }
            reads += 1
            buffer.withUnsafeBytes { _ = decoder.decode($0, into: &raw, clipped: &clipped) }
            if blocking { break }
            // A short read emptied the kernel buffer: no need for a refill that says EAGAIN.
            // A one-scan buffer (batch 1) is always full after a read, so that test cannot tell;
            // a second refill would nearly always say EAGAIN, one wasted read(2) per sample; a
            // scan still queued makes the next poll return at once instead.
            if bytes < full || buffer.capacity == 1 { break }
        }
        d.refills += refills
        d.readsWithData += reads
        d.clippedSamples += clipped
        if let failure { d.failure = failure }
    }

    private func probe(_ s: Stream) -> AccessState? {
        if simulation != nil { return .available }
        return context.isLocal ? AccessProbe.check(id: s.sensor.id, name: s.sensor.name, holdingBuffer: true) : nil
    }

    /// Re-reads the scale; rebuilds the decoder when it changed. The files are read through the
    /// stream's ``ScaleWatch`` (no allocation); only when it sees a change are they read again the
    /// general way and a new decoder built.
    private func recheckScale(_ s: Stream) -> Bool {
        if s.scaleWatch != nil, !s.scaleWatch!.changed(from: s.decoder) { return false }
        let conversions = Self.readConversions(s.device, values: attributeValues)
        let fresh = ScanDecoder(layout: s.decoder.layout) { id in conversions[id] ?? (scale: 1, offset: 0) }
        guard fresh.accel != s.decoder.accel || fresh.gyro != s.decoder.gyro else { return false }
        s.decoder = fresh
        return true
    }

    /// Destroys buffers (disabling them), restores `hwfifo_timeout`, the timestamp clock, the
    /// scale and the scheduling policy, leaving the sensor idle. Idempotent.
    /// - Parameter final: the capture ends (device events off, counters read); otherwise it waits
    ///   for a lost device to come back.
    private func release(final: Bool = true) {
        watcher?.stop()
        watcher = nil
        if final, countersAtStart != nil, countersAtEnd == nil { countersAtEnd = ProcessCounters.now() }
        for s in streams {
            s.buffer?.destroy()
            s.buffer = nil
            s.readFD = -1
            s.simulated?.destroy()
            s.simulated = nil
            if let original = s.originalHWFIFOTimeout {
                _ = try? s.device.writeBufferAttribute("hwfifo_timeout", original)
                s.originalHWFIFOTimeout = nil
            }
            if let clock = s.originalClock {
                _ = try? s.device.writeAttribute("current_timestamp_clock", clock)
                s.originalClock = nil
            }
            for (c, text) in s.originalScales { _ = try? c.writeAttribute("scale", text) }
            s.originalScales = []
        }
        if let p = previousScheduler { try? Scheduler.set(p); previousScheduler = nil }
        if final { uevents?.stopNotifying() }
        try? timer?.arm(at: nil)
    }
}

/// What a drain reads from: libiio's buffer (``IIOBuffer``) or the simulated device's
/// (``SimulatedBuffer``). The drain is generic over it, specialised for each.
protocol CaptureBuffer: AnyObject {
    /// Scans per refill.
    var capacity: Int { get }
    /// A blocking refill: bytes read.
    func refill() throws(SystemError) -> Int
    /// A non-blocking refill: bytes read, nil when nothing is available.
    func refillAvailable() throws(SystemError) -> Int?
    /// The last refill's bytes.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension IIOBuffer: CaptureBuffer {}
extension SimulatedBuffer: CaptureBuffer {}
