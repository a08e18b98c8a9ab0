import MotionCore
#if canImport(Glibc)
import Glibc
#endif

/// Where captured batches go (e.g. a recording writer). `close` is called once, on every path.
public protocol CaptureSink {
    /// Called once the devices are configured and streaming, before the first batch, with the
    /// configuration actually applied (rate read back, timestamp clock, FIFO timeout).
    mutating func begin(_ devices: [CaptureStatistics.Device]) throws
    /// Receives one batch (one wake-up's worth of samples).
    mutating func write(_ batch: SampleBatch) throws
    /// Flushes and syncs; called once at the end.
    mutating func close() throws
}

/// What to capture and when to stop.
public struct CaptureOptions: Sendable {
    /// Requested rate, Hz (nil keeps the device's).
    public var rate: Double?
    /// Batching.
    public var batching: CapturePlan.Batching
    /// Stop after this many seconds of streaming (monotonic clock).
    public var duration: Double?
    /// Stop after this many samples.
    public var sampleLimit: Int?
    /// Respread bunched FIFO-burst timestamps (on by default).
    public var repairTimestamps: Bool
    /// Use the hardware FIFO where the device has one (on by default).
    public var hardwareFIFO: Bool = true
    /// Timed waiting for per-sample devices batched by the kernel watermark (batch >= 2, local
    /// context): sleep until each batch is due instead of polling the buffer, which the kernel
    /// wakes on every sample. On by default; off: `motionbatch capture --wait buffer`.
    public var timedWait: Bool = true
    /// For tests: after `stallAfter` seconds, stop reading for `stallFor` seconds once (to overflow the kernel buffer).
    public var stall: (after: Double, duration: Double)?

    /// Creates options.
    public init(rate: Double? = nil, batching: CapturePlan.Batching = .none, duration: Double? = nil, sampleLimit: Int? = nil,
                repairTimestamps: Bool = true, stall: (after: Double, duration: Double)? = nil) {
        self.rate = rate
        self.batching = batching
        self.duration = duration
        self.sampleLimit = sampleLimit
        self.repairTimestamps = repairTimestamps
        self.stall = stall
    }
}

/// A capture that could not start or ended on an error.
public struct CaptureFailure: Error, Sendable, CustomStringConvertible {
    /// The access state found fresh after the error, when it explains it.
    public var state: AccessState?
    /// The underlying libiio error, if any.
    public var error: IIOError?
    /// Other explanation.
    public var detail: String?

    /// One paragraph: message, remedy, the failing call.
    public var description: String {
        var parts: [String] = []
        if let s = state { parts.append(s.message); if !s.remedy.isEmpty { parts.append(s.remedy) } }
        if let d = detail { parts.append(d) }
        if let e = error { parts.append("(\(e))") }
        return parts.joined(separator: " ")
    }
}

/// Captures one accelerometer and/or gyroscope (one IMU device, or an accel and a gyro device
/// merged by timestamp) into batches, driving a ``CaptureSession``. Owns the buffers; every
/// exit path destroys them, restores `hwfifo_timeout`, and closes the sink.
public final class IIOCapture {
    /// The context the devices belong to.
    public let context: IIOContext
    /// Devices captured.
    public let sensors: [SensorDescription]
    /// Options.
    public let options: CaptureOptions
    /// The session state machine (inspectable after ``run(into:)``).
    public private(set) var session = CaptureSession()

    private final class Stream {
        let sensor: SensorDescription
        let device: IIODevice
        let plan: CapturePlan
        var buffer: IIOBuffer?
        var decoder: ScanDecoder
        var repair: TimestampRepair?
        var gaps: GapDetector?
        var report: CaptureStatistics.Device
        var originalHWFIFOTimeout: String?
        var originalClock: String?
        var pollFD: Int32 = -1
        var lastScaleCheck: Int64?
        var scratch: [Sample] = []
        /// Sampling period, ns (from the rate read back, or the planned one).
        var period: Int64?
        /// Timed waiting: decoded samples held until a whole batch is there.
        var pending: [Sample] = []
        /// Timed waiting: when the batch is due.
        var dueClock: BatchDueClock?
        init(sensor: SensorDescription, device: IIODevice, plan: CapturePlan, decoder: ScanDecoder, report: CaptureStatistics.Device) {
            self.sensor = sensor; self.device = device; self.plan = plan; self.decoder = decoder; self.report = report
        }
    }
    private var streams: [Stream] = []

    /// Prepares a capture of `sensors` (one IMU, or accelerometer + gyroscope) in `context`.
    public init(context: IIOContext, sensors: [SensorDescription], options: CaptureOptions) {
        self.context = context
        self.sensors = sensors
        self.options = options
    }

    /// Runs the capture until the duration, the sample count, a signal (``StopSignals``) or an error.
    /// - Returns: statistics, with ``CaptureStatistics/stopReason``.
    /// - Throws: ``CaptureFailure`` when it cannot start (access state) — after releasing everything.
    public func run<S: CaptureSink>(into sink: inout S) throws(CaptureFailure) -> CaptureStatistics {
        var stats = CaptureStatistics()
        _ = session.handle(.start)
        var failure: CaptureFailure?
        do throws(CaptureFailure) {
            try prepare()
            _ = session.handle(.prepared)
            try startStreaming()
            do { try sink.begin(streams.map(\.report)) } catch {
                throw CaptureFailure(state: nil, error: nil, detail: "the recording could not be created: \(error)")
            }
        } catch {
            failure = error
            _ = session.handle(.stop(.failed(error.description)))
        }
        if failure == nil {
            stats = stream(into: &sink)
            _ = session.handle(.stop(stats.stopReason))
        }
        // releaseBuffers
        release()
        stats.devices = streams.map(\.report)
        for action in session.handle(.released) where action == .closeRecording {
            do { try sink.close() } catch {
                if failure == nil { failure = CaptureFailure(state: nil, error: nil, detail: "closing the recording failed: \(error)") }
            }
        }
        _ = session.handle(.recordingClosed)
        if let f = failure { throw f }
        return stats
    }

    // MARK: preparing

    private func accessFailure(_ sensor: SensorDescription, _ error: IIOError?, holding: Bool) -> CaptureFailure {
        let probed = context.isLocal ? AccessProbe.check(id: sensor.id, name: sensor.name, holdingBuffer: holding) : nil
        let state = AccessState.explaining(error, device: sensor.name, probed: probed, duringCapture: holding)
        return CaptureFailure(state: state, error: error, detail: nil)
    }

    private func prepare() throws(CaptureFailure) {
        guard !sensors.isEmpty else { throw CaptureFailure(state: nil, error: nil, detail: "no accelerometer or gyroscope to capture") }
        for sensor in sensors {
            if context.isLocal {
                let state = AccessProbe.check(id: sensor.id, name: sensor.name, holdingBuffer: false)
                guard state == .available else { throw CaptureFailure(state: state, error: nil, detail: nil) }
            }
            guard let device = context.device(named: sensor.id) else {
                throw CaptureFailure(state: .deviceAbsent(device: sensor.name), error: nil, detail: nil)
            }
            let plan: CapturePlan
            do { plan = try CapturePlan.make(for: sensor, rate: options.rate, batching: options.batching, hasPollDescriptor: context.isLocal, hardwareFIFO: options.hardwareFIFO) }
            catch { throw CaptureFailure(state: nil, error: nil, detail: error.description) }
            do throws(IIOError) {
                try configure(sensor, device, plan)
            } catch {
                throw accessFailure(sensor, error, holding: false)
            }
        }
        let timeout = streams.map(\.plan.contextTimeoutMs).max() ?? 2000
        do { try context.setTimeout(milliseconds: timeout) } catch { throw CaptureFailure(state: nil, error: error, detail: nil) }
    }

    private func configure(_ sensor: SensorDescription, _ device: IIODevice, _ plan: CapturePlan) throws(IIOError) {
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
        // Settings changed below are put back if a later step fails (on success the stream
        // remembers them and `release` puts them back).
        var originalClock: String?
        var original: String?
        var configured = false
        defer {
            if !configured {
                if let o = original { _ = try? device.writeBufferAttribute("hwfifo_timeout", o) }
                if let c = originalClock { _ = try? device.writeAttribute("current_timestamp_clock", c) }
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
        let layout = ScanLayout(channels: layoutChannels)
        let conversions = Self.readConversions(device)
        let decoder = ScanDecoder(layout: layout) { id in conversions[id] ?? (scale: 1, offset: 0) }
        try device.setKernelBuffersCount(UInt32(plan.kernelBuffersCount))
        let report = CaptureStatistics.Device(
            id: sensor.id, name: sensor.name, plan: plan, actualRate: actual, hwfifoTimeout: fifoActual, watermark: nil,
            timestampClock: clock, hasTimestamp: layout.element("timestamp") != nil)
        let stream = Stream(sensor: sensor, device: device, plan: plan, decoder: decoder, report: report)
        stream.originalHWFIFOTimeout = original
        stream.originalClock = originalClock
        if let r = actual ?? plan.rate, r > 0 {
            let period = Int64((1e9 / r).rounded())
            stream.period = period
            if options.repairTimestamps { stream.repair = TimestampRepair(period: period, expectedBurst: plan.expectedBurst) }
            stream.gaps = GapDetector(period: period)
        }
        streams.append(stream)
        configured = true
    }

    /// Scale and offset of each motion channel (`*_scale`, `*_offset`), read fresh.
    /// Each sysfs file is read once, however many channels share it (`in_accel_scale`).
    static func readConversions(_ device: IIODevice) -> [String: (scale: Double, offset: Double)] {
        var out: [String: (scale: Double, offset: Double)] = [:]
        var files: [String: Double?] = [:]
        func read(_ c: IIOChannel, _ attr: String) -> Double? {
            guard c.attributeNames.contains(attr) else { return nil }
            let file = c.attributeFilename(attr) ?? "\(c.id)_\(attr)"
            if let v = files[file] { return v }
            let v = AttributeText.double(try? c.readAttribute(attr))
            files[file] = v
            return v
        }
        for c in device.channels where c.id.hasPrefix("accel_") || c.id.hasPrefix("anglvel_") {
            out[c.id] = (read(c, "scale") ?? c.formatScale ?? 1, read(c, "offset") ?? 0)
        }
        return out
    }

    private func startStreaming() throws(CaptureFailure) {
        for s in streams {
            do throws(IIOError) {
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
                    s.pollFD = try buffer.pollDescriptor()
                }
                s.report.watermark = AttributeText.int(try? s.device.readBufferAttribute("watermark"))
                if buffer.step != s.decoder.layout.scanBytes {
                    throw IIOError(code: EINVAL, call: "iio_buffer_step", message: "scan size \(buffer.step) differs from the computed layout (\(s.decoder.layout.scanBytes) bytes)", subject: s.device.id)
                }
            } catch {
                // Once the buffer exists we hold the character device: probing it would say busy.
                throw accessFailure(s.sensor, error, holding: s.buffer != nil)
            }
        }
    }

    // MARK: streaming

    private func stream<S: CaptureSink>(into sink: inout S) -> CaptureStatistics {
        var stats = CaptureStatistics()
        var merger = streams.count == 2 ? SampleMerger() : nil
        // A batching reader needs no wake-up latency: SCHED_BATCH stops it from preempting the
        // producer of a FIFO burst when the burst's first sample wakes it (measured: bursts then
        // arrive in two parts and cost two wake-ups). No privilege is needed.
        // The previous policy is put back when streaming ends (`IIOCapture` is a library type).
        var previousScheduler: (policy: Int32, param: sched_param)?
        if streams.contains(where: { $0.plan.waitStrategy == .pollDrain && ($0.plan.expectedBurst ?? 0) > 1 }) {
            var param = sched_param(sched_priority: 0)
            let schedBatch: Int32 = 3 // SCHED_BATCH (<sched.h> with _GNU_SOURCE)
            var previousParam = sched_param()
            let previousPolicy = sched_getscheduler(0)
            if previousPolicy >= 0, sched_getparam(0, &previousParam) == 0,
               sched_setscheduler(0, schedBatch, &param) == 0 {
                stats.schedBatch = true
                previousScheduler = (previousPolicy, previousParam)
            }
        }
        defer {
            if var previous = previousScheduler { _ = sched_setscheduler(0, previous.policy, &previous.param) }
        }
        let start = MonotonicClock.nanoseconds()
        let before = ProcessCounters.now()
        let deadline = options.duration.map { start + Int64($0 * 1e9) }
        // Wait without a poll timeout where possible (a timeout re-arms a kernel timer at every
        // wake-up): removal is seen on a uevent socket, the deadline comes as one SIGALRM.
        let uevents: UEventMonitor? = context.isLocal ? UEventMonitor() : nil
        // Poll a pipe the SIGIO handler writes to rather than the netlink socket itself (as
        // libiio polls an eventfd), keeping the socket's poll callback off the per-sample
        // wake-up path (see UEventMonitor; the measured effect is not conclusive).
        uevents?.enableNotification()
        defer { uevents?.disableNotification() }
        let untimed = (uevents?.fd ?? -1) >= 0 && (options.duration.map { StopSignals.alarm(after: $0) } ?? true)
        defer { if options.duration != nil { StopSignals.cancelAlarm() } }
        // Timed waiting for per-sample devices batched by the kernel watermark (no hardware
        // FIFO): the kernel wakes a poll waiter on EVERY pushed sample whatever the watermark
        // (measured: ~1 voluntary switch per sample, and that wake-up is most of the reader's
        // CPU time, test 55). So instead of sitting in poll on the buffer, the reader sleeps until
        // the batch is due (N periods after the previous drain) on the uevent socket alone, which
        // no sample wakes, then drains without blocking: one wake-up per batch. Removal still ends
        // the sleep at once (uevent); a batch found short waits for the missing periods only.
        // The kernel buffer holds >= 4 batches and >= 2 s, so a late timer loses nothing.
        let timed = options.timedWait && untimed && streams.allSatisfy {
            $0.plan.waitStrategy == .pollWatermark && $0.plan.expectedBurst == nil && $0.plan.batchSamples > 1 && $0.period != nil
        }
        stats.timedWait = timed
        if timed {
            for s in streams { s.dueClock = BatchDueClock(batchSamples: s.plan.batchSamples, period: s.period!, start: start) }
        }
        var stalled = false
        var reason: CaptureSession.StopReason?
        // The poll set and timeout, built once (the loop runs once per sample at batch 1).
        var fds = streams.map { pollfd(fd: $0.pollFD, events: Int16(POLLIN), revents: 0) }
        if untimed, let u = uevents { fds.append(pollfd(fd: u.pollFD, events: Int16(POLLIN), revents: 0)) }
        let waitTimeoutMs = Int32(clamping: Int64(streams.map(\.plan.contextTimeoutMs).max() ?? 2000))

        func emit(_ samples: [Sample]) {
            var batch = samples
            if let limit = options.sampleLimit, stats.samples + batch.count >= limit {
                batch = Array(batch.prefix(limit - stats.samples))
                reason = .sampleCount
            }
            guard !batch.isEmpty else { return }
            stats.samples += batch.count
            stats.batches += 1
            do { try sink.write(SampleBatch(samples: batch, deliveredAt: batch.last!.timestamp)) }
            catch { reason = .failed("writing the recording failed: \(error)") }
        }

        func collect(_ s: Stream, _ raw: [Sample], final: Bool) -> [Sample] {
            // Mutated in place: a local copy would share `held` with `s.repair` and copy it on
            // every append (copy-on-write), once per drain.
            var out = raw
            if s.repair != nil {
                out = s.repair!.push(raw)
                if final { out += s.repair!.finish() }
                s.report.repairedSamples = s.repair!.repairedSamples
            }
            if s.gaps != nil {
                if (s.repair?.repairedRuns ?? 0) > 0 { s.gaps!.factor = max(s.gaps!.factor, GapDetector.burstJoinFactor) }
                for x in out { _ = s.gaps!.push(x.timestamp) }
                s.report.lostSamples = s.gaps!.lostSamples
                s.report.gaps = s.gaps!.gapCount
            }
            return out
        }

        func deliver(_ perStream: [(Stream, [Sample])]) {
            if merger != nil {
                var out: [Sample] = []
                for (s, samples) in perStream {
                    out += s.sensor.hasAccel ? merger!.pushAccel(samples) : merger!.pushGyro(samples)
                }
                emit(out)
            } else {
                emit(perStream.flatMap(\.1))
            }
        }

        /// Drains one stream without blocking; returns decoded samples, or a stop reason.
        func drain(_ s: Stream) -> [Sample] {
            guard let buffer = s.buffer else { return [] }
            var raw: [Sample] = []
            while true {
                do throws(IIOError) {
                    stats.refills += 1
                    guard let bytes = try buffer.refillAvailable(), bytes > 0 else { break }
                    s.report.drainsWithData += 1
                    recheckScale(s)
                    let first = raw.count
                    _ = buffer.withUnsafeBytes { s.decoder.decode($0, into: &raw) }
                    if !s.report.hasTimestamp {
                        let now = MonotonicClock.nanoseconds()
                        for i in first..<raw.count { raw[i].timestamp = now }
                    }
                    if s.plan.waitStrategy == .blockingRefill { break }
                    // A short read emptied the kernel buffer: no need for a refill that says EAGAIN.
                    if bytes < buffer.capacity * max(1, s.decoder.layout.scanBytes) { break }
                    // A one-scan buffer (batch 1, per-sample delivery) is always full after a read,
                    // so the test above cannot tell; a second refill would nearly always say
                    // EAGAIN, one wasted read(2) per sample. A scan still queued makes the next poll
                    // return at once instead.
                    if buffer.capacity == 1 { break }
                } catch {
                    if error.code == EAGAIN { break }
                    let f = accessFailure(s.sensor, error, holding: true)
                    if case .lost(let d)? = f.state { reason = .lost(d) } else { reason = .failed(f.description) }
                    break
                }
            }
            s.report.samples += raw.count
            s.report.lastDrainScans = raw.count
            return collect(s, raw, final: false)
        }

        while reason == nil {
            if let sig = StopSignals.pending { reason = .signal(sig); break }
            let now = MonotonicClock.nanoseconds()
            if let d = deadline, now >= d { reason = .duration; break }
            if let st = options.stall, !stalled, Double(now - start) / 1e9 >= st.after {
                stalled = true
                var ts = timespec(tv_sec: Int(st.duration), tv_nsec: Int((st.duration - st.duration.rounded(.down)) * 1e9))
                var rest = timespec()
                while nanosleep(&ts, &rest) != 0 && errno == EINTR && StopSignals.pending == nil { ts = rest }
            }
            if timed, let u = uevents {
                // Rounded up to whole ms (poll's resolution): late by < 1 ms, never early.
                let ms = streams.map { $0.dueClock!.waitMilliseconds(at: now) }.min() ?? 0
                if ms > 0 {
                    var fd = pollfd(fd: u.pollFD, events: Int16(POLLIN), revents: 0)
                    let r = poll(&fd, 1, ms)
                    stats.userspaceReturns += 1
                    if r < 0 {
                        if errno == EINTR { continue }
                        reason = .failed("poll: \(IIOError.describe(errno))")
                        break
                    }
                    if r > 0 {
                        if u.drain() {
                            // A device went away: is it ours? Ask fresh.
                            for s in streams {
                                let state = AccessProbe.check(id: s.sensor.id, name: s.sensor.name, holdingBuffer: true)
                                if case .lost(let d) = state { reason = .lost(d); break }
                            }
                        }
                        continue
                    }
                }
                let t = MonotonicClock.nanoseconds()
                var ready: [(Stream, [Sample])] = []
                for s in streams where s.dueClock!.due <= t {
                    s.pending += drain(s)
                    // Count the scans read (the timestamp repair may hold some back for a while).
                    if s.dueClock!.drained(s.report.lastDrainScans, at: t) {
                        ready.append((s, s.pending))
                        s.pending = []
                    }
                }
                if !ready.isEmpty { deliver(ready) }
                continue
            }
            if streams.contains(where: { $0.plan.waitStrategy == .blockingRefill }) {
                stats.userspaceReturns += 1
                deliver(streams.map { ($0, drain($0)) })
                continue
            }
            for i in fds.indices { fds[i].revents = 0 }
            var timeout = waitTimeoutMs
            if let d = deadline { timeout = min(timeout, Int32(clamping: max(0, (d - now) / 1_000_000 + 1))) }
            if untimed { timeout = -1 }
            let r = poll(&fds, nfds_t(fds.count), timeout)
            stats.userspaceReturns += 1
            if r < 0 {
                if errno == EINTR { continue }
                reason = .failed("poll: \(IIOError.describe(errno))")
                break
            }
            if r == 0 {
                // Timeout: quiet device or lost device? Ask fresh.
                if let d = deadline, MonotonicClock.nanoseconds() >= d { continue }
                if context.isLocal {
                    for s in streams {
                        let state = AccessProbe.check(id: s.sensor.id, name: s.sensor.name, holdingBuffer: true)
                        if case .lost(let d) = state { reason = .lost(d); break }
                    }
                }
                continue
            }
            if untimed, let u = uevents, fds[streams.count].revents != 0, u.drain() {
                // A device went away: is it ours? Ask fresh.
                for s in streams {
                    let state = AccessProbe.check(id: s.sensor.id, name: s.sensor.name, holdingBuffer: true)
                    if case .lost(let d) = state { reason = .lost(d); break }
                }
            }
            var ready: [(Stream, [Sample])] = []
            for (i, s) in streams.enumerated() where fds[i].revents != 0 {
                if fds[i].revents & Int16(POLLIN) != 0 {
                    var got = drain(s)
                    // A hardware-FIFO burst is pushed sample by sample; woken by its first sample,
                    // the reader can run mid-burst (measured on the emulated hub: 1 sample, then
                    // the rest ms later, costing a second wake-up). While the burst is incomplete
                    // and each yield brings more, yield so the producer finishes it, then drain.
                    if s.plan.waitStrategy == .pollDrain, let n = s.plan.expectedBurst {
                        var lastCount = s.report.lastDrainScans
                        var total = lastCount
                        var rounds = 0
                        while reason == nil, lastCount > 0, total < n, rounds < 16 {
                            sched_yield()
                            stats.yields += 1
                            rounds += 1
                            got += drain(s)
                            lastCount = s.report.lastDrainScans
                            total += lastCount
                        }
                    }
                    ready.append((s, got))
                } else {
                    let state = AccessProbe.check(id: s.sensor.id, name: s.sensor.name, holdingBuffer: true)
                    reason = state == .available ? .failed("poll reported an error on \(s.sensor.id)") : .lost(s.sensor.name)
                }
            }
            deliver(ready)
        }
        // Timed waiting: what was read but not yet delivered, plus what the kernel holds.
        if timed, reason != .sampleCount {
            if reason == .duration || reason.map({ if case .signal = $0 { true } else { false } }) == true {
                for s in streams { s.pending += drain(s) }
            }
            if streams.contains(where: { !$0.pending.isEmpty }) {
                deliver(streams.map { ($0, $0.pending) })
                for s in streams { s.pending = [] }
            }
        }
        // Flush what the state machines hold.
        if merger != nil {
            var out: [Sample] = []
            for s in streams {
                let tail = collect(s, [], final: true)
                out += s.sensor.hasAccel ? merger!.pushAccel(tail) : merger!.pushGyro(tail)
            }
            out += merger!.finish()
            if reason != .sampleCount { emit(out) }
        } else if reason != .sampleCount {
            emit(streams.flatMap { collect($0, [], final: true) })
        }
        stats.counters = ProcessCounters.now().since(before)
        stats.elapsedNanoseconds = MonotonicClock.nanoseconds() - start
        stats.stopReason = reason ?? .duration
        return stats
    }

    /// Re-reads the scale at most once per second of stream; rebuilds the decoder when it changed.
    private func recheckScale(_ s: Stream) {
        let now = MonotonicClock.nanoseconds()
        guard let last = s.lastScaleCheck else { s.lastScaleCheck = now; return }
        if now - last < 1_000_000_000 { return }
        s.lastScaleCheck = now
        let conversions = Self.readConversions(s.device)
        let fresh = ScanDecoder(layout: s.decoder.layout) { id in conversions[id] ?? (scale: 1, offset: 0) }
        if fresh.accel != s.decoder.accel || fresh.gyro != s.decoder.gyro {
            s.decoder = fresh
            s.report.scaleChanges += 1
        }
    }

    /// Destroys buffers (disabling them), restores `hwfifo_timeout` and the timestamp clock,
    /// leaving the sensor idle. Idempotent.
    private func release() {
        for s in streams {
            s.buffer?.destroy()
            s.buffer = nil
            if let original = s.originalHWFIFOTimeout {
                _ = try? s.device.writeBufferAttribute("hwfifo_timeout", original)
                s.originalHWFIFOTimeout = nil
            }
            if let clock = s.originalClock {
                _ = try? s.device.writeAttribute("current_timestamp_clock", clock)
                s.originalClock = nil
            }
        }
    }
}
