import MotionCore
import MotionSystem
import Testing
@testable import MotionIIO

/// A scripted kernel and sensor answering ``CaptureMachine``'s actions on a virtual clock, so
/// every transition is exercised without libiio or QEMU. Samples "arrive" in each stream's
/// kernel buffer at given times (per sample, or in bursts that may be split); waits advance the
/// clock to the next arrival of a polled stream, the wait's `until`, or a scripted event.
struct FakeKernel {
    struct Arrival { var time: Int64; var sample: Sample }
    var now: Int64 = 1_000_000_000
    /// Per stream: samples not yet arrived, in time order.
    var future: [[Arrival]]
    /// Per stream: arrived, not drained.
    var kernel: [[Sample]]
    var signals: [(time: Int64, control: CaptureMachine.Control)] = []
    var removalAt: Int64?
    var addAt: Int64?
    /// The removed device is back at this time without a device event (found by a retry).
    var quietReturnAt: Int64?
    var drainFailure: (stream: Int, at: Int64, error: SystemError)?
    var probeAnswer: AccessState = .available
    var prepareFailure: CaptureFailure?
    var setups: [CaptureMachine.StreamSetup]
    var deliveryFailsAt: Int?

    // What happened.
    var batches: [SampleBatch] = []
    var marks: [CaptureMachine.Mark] = []
    /// Samples delivered before each mark.
    var samplesBeforeMarks: [Int] = []
    var actions: [String] = []
    var waits: [CaptureMachine.Wait] = []
    var released = 0, closed = 0, yields = 0, paused = 0
    /// The collections asked for: `(upTo, until)`.
    var collects: [(upTo: Int, until: Int64)] = []
    var streaming = false
    var finishedAt: Int64?

    init(setups: [CaptureMachine.StreamSetup], arrivals: [[Arrival]]) {
        self.setups = setups
        future = arrivals
        kernel = Array(repeating: [], count: arrivals.count)
    }

    var delivered: [Sample] { batches.flatMap(\.samples) }

    mutating func arrive(upTo t: Int64) {
        for i in future.indices {
            while let a = future[i].first, a.time <= t { kernel[i].append(a.sample); future[i].removeFirst() }
        }
    }

    /// Runs the machine to completion (bounded), returning it.
    mutating func run(_ settings: CaptureMachine.Settings, maxSteps: Int = 200_000) -> CaptureMachine {
        var m = CaptureMachine(settings: settings)
        var action = m.handle(.start, at: now)
        for _ in 0..<maxSteps {
            guard let event = answer(action) else { finishedAt = now; return m }
            action = m.handle(event, at: now)
        }
        Issue.record("the machine did not finish in \(maxSteps) steps (last action \(action))")
        return m
    }

    mutating func answer(_ action: CaptureMachine.Action) -> CaptureMachine.Event? {
        switch action {
        case .prepare:
            actions.append("prepare")
            if let f = prepareFailure { return .failed(f) }
            // Removed and not back yet (an add event, or quietly at `quietReturnAt`).
            if let r = removalAt, now >= r, !(quietReturnAt.map { now >= $0 } ?? false) {
                return .failed(.access(.deviceAbsent(device: "accel_3d"), error: nil))
            }
            return .prepared(setups)
        case .startStreaming, .resumeStreaming:
            actions.append("start")
            streaming = true
            return .streaming
        case .wait(let w):
            waits.append(w)
            return .woke(wait(w))
        case .awaitDevice(let until):
            actions.append("await")
            var candidates = [until, addAt, signals.first?.time].compactMap { $0 }
            candidates = candidates.filter { $0 >= now }
            now = max(now, candidates.min() ?? now + 1_000_000_000)
            var wake = CaptureMachine.Wake()
            if let a = addAt, a <= now { wake.deviceAdded = true; addAt = nil; removalAt = nil }
            takeSignals(&wake)
            return .woke(wake)
        case let .drain(i, _):
            actions.append("drain\(i)")
            arrive(upTo: now)
            if let f = drainFailure, f.stream == i, now >= f.at { return .drained(.init(samples: [], failure: f.error)) }
            let got = kernel[i]
            kernel[i] = []
            return .drained(.init(samples: got))
        case let .collect(i, _, upTo, until):
            // As the driver: a drain, then waits on this stream alone (the timer at `until`)
            // and drains while nothing else wakes it.
            actions.append("collect\(i)")
            collects.append((upTo, until))
            arrive(upTo: now)
            if let f = drainFailure, f.stream == i, now >= f.at { return .drained(.init(samples: [], failure: f.error)) }
            var got = kernel[i]
            kernel[i] = []
            var d = CaptureMachine.Drain(samples: [])
            var reads = got.isEmpty ? 0 : 1
            while got.count < upTo {
                let wake = wait(CaptureMachine.Wait(streams: .stream(i), until: until))
                if wake == CaptureMachine.Wake(readable: .stream(i)) {
                    d.wakeups += 1
                    reads += 1
                    got += kernel[i]
                    kernel[i] = []
                    if now >= until { break }
                    continue
                }
                if wake == CaptureMachine.Wake() { d.wakeups += 1 } else { d.interruption = wake }
                break
            }
            d.samples = got
            d.readsWithData = reads
            return .drained(d)
        case .yield:
            yields += 1
            now += 1_000_000 // the producer runs for 1 ms
            return .yielded
        case .probe:
            actions.append("probe")
            if let r = removalAt, now >= r { return .probed(.lost(device: "accel_3d")) }
            return .probed(probeAnswer)
        case .deliver(let b):
            if let n = deliveryFailsAt, batches.count == n { return .deliveryFailed(.recording(stage: .write, detail: "disk full")) }
            batches.append(b)
            return .delivered
        case .mark(let m):
            marks.append(m)
            samplesBeforeMarks.append(delivered.count)
            return .marked
        case .pauseStreaming:
            paused += 1
            streaming = false
            return .paused
        case .release:
            released += 1
            streaming = false
            actions.append("release")
            return .released
        case .closeRecording:
            closed += 1
            actions.append("close")
            return .recordingClosed(nil)
        case .finished:
            return nil
        }
    }

    mutating func takeSignals(_ wake: inout CaptureMachine.Wake) {
        while let s = signals.first, s.time <= now { wake.controls.append(s.control); signals.removeFirst() }
    }

    mutating func wait(_ w: CaptureMachine.Wait) -> CaptureMachine.Wake {
        var wake = CaptureMachine.Wake()
        if let u = w.until, u <= now {
            takeSignals(&wake)
            return wake
        }
        // Earliest of: an arrival on a polled stream (only while streaming), until, a signal, a removal.
        var t = w.until ?? Int64.max
        if streaming {
            for i in future.indices where w.streams.has(i) {
                if !kernel[i].isEmpty { t = now; break }
                if let a = future[i].first { t = min(t, a.time) }
            }
        }
        if let s = signals.first { t = min(t, s.time) }
        if let r = removalAt, r > now || (r <= now && !removalReported) { t = min(t, max(r, now)) }
        precondition(t < Int64.max, "a wait that never ends")
        now = max(now, t)
        arrive(upTo: now)
        for i in kernel.indices where w.streams.has(i) && !kernel[i].isEmpty { wake.readable.insert(.stream(i)) }
        takeSignals(&wake)
        if let r = removalAt, now >= r, !removalReported { wake.deviceRemoved = true; removalReported = true }
        return wake
    }
    var removalReported = false

    // MARK: fixtures

    static let ms: Int64 = 1_000_000

    static func sample(_ i: Int, t: Int64) -> Sample {
        Sample(timestamp: t, accel: Vector3(Double(i), 0, 9.8), gyro: .zero)
    }

    /// `n` samples every `period` from `start`, each arriving when stamped.
    static func perSample(_ n: Int, period: Int64 = 10 * ms, start: Int64 = 1_000_000_000) -> [Arrival] {
        (0..<n).map { i in Arrival(time: start + Int64(i + 1) * period, sample: sample(i, t: start + Int64(i + 1) * period)) }
    }

    /// Bursts of `burst` samples (hub timestamps spaced by the period) arriving every `burst`
    /// periods; the first `split` samples of each burst arrive 8 ms before the rest.
    static func bursts(_ count: Int, burst: Int, period: Int64 = 10 * ms, split: Int = 0, start: Int64 = 1_000_000_000) -> [Arrival] {
        var out: [Arrival] = []
        for b in 0..<count {
            let end = start + Int64((b + 1) * burst) * period
            for k in 0..<burst {
                let idx = b * burst + k
                let ts = end - Int64(burst - 1 - k) * period
                let arrival = k < split ? end + 1 * ms : end + 2 * ms
                out.append(Arrival(time: arrival, sample: sample(idx, t: ts)))
            }
        }
        return out
    }

    static func plan(batch: Int, strategy: CapturePlan.WaitStrategy, burst: Int? = nil, watermark: Int? = nil) -> CapturePlan {
        CapturePlan(requestedRate: 100, rate: 100, batchSamples: batch, latencySeconds: Double(batch) / 100,
                    hwfifoTimeout: strategy == .pollDrain && batch > 1 ? Double(batch) / 100 : nil, waitStrategy: strategy,
                    bufferCapacity: batch, kernelWatermark: watermark ?? (strategy == .pollDrain ? 1 : batch),
                    kernelBuffersCount: 4, contextTimeoutMs: 3000, expectedBurst: burst)
    }

    static func setup(_ plan: CapturePlan, id: String = "iio:device0", name: String = "accel_3d", accel: Bool = true, timestamps: Bool = true) -> CaptureMachine.StreamSetup {
        CaptureMachine.StreamSetup(
            report: CaptureStatistics.Device(id: id, name: name, plan: plan, actualRate: 100, hwfifoTimeout: plan.hwfifoTimeout,
                                             watermark: plan.kernelWatermark, timestampClock: "monotonic", hasTimestamp: timestamps),
            period: 10 * ms, hasAccel: accel)
    }
}

@Suite("CaptureMachine")
struct CaptureMachineTests {
    typealias K = FakeKernel
    static let ms = K.ms
    static let second: Int64 = 1_000_000_000

    func settings(duration: Double? = nil, samples: Int? = nil) -> CaptureMachine.Settings {
        CaptureMachine.Settings(duration: duration, sampleLimit: samples)
    }

    @Test func lifecycleEndsReleasedAndClosedWithEverySampleInOrder() {
        var k = K(setups: [K.setup(K.plan(batch: 1, strategy: .pollWatermark))], arrivals: [K.perSample(300)])
        let m = k.run(settings(duration: 2.5))
        #expect(m.state == .saved)
        #expect(k.actions.first == "prepare" && k.actions.suffix(2) == ["release", "close"])
        #expect(k.released == 1 && k.closed == 1)
        #expect(m.statistics.stopReason == .duration)
        // 2.5 s at 100 Hz: 250 samples, each its own batch (batch 1), in order, none lost.
        #expect(k.delivered.count == 250)
        #expect(k.delivered.map(\.timestamp) == K.perSample(250).map(\.sample.timestamp))
        #expect(m.statistics.samples == 250 && m.statistics.lostSamples == 0)
        #expect(m.statistics.batches == k.batches.count)
        #expect(m.statistics.elapsedNanoseconds == 2_500_000_000)
    }

    @Test func timedWaitWakesOncePerBatchAndDeliversWholeBatches() {
        var k = K(setups: [K.setup(K.plan(batch: 100, strategy: .pollWatermark))], arrivals: [K.perSample(1000)])
        let m = k.run(settings(duration: 5.2))
        #expect(m.mode == .timed && m.statistics.timedWait)
        // Waits never include the buffer (the kernel would wake them per sample).
        #expect(k.waits.allSatisfy { $0.streams.isEmpty })
        // Batches of exactly 100 while streaming, the rest (20) drained and delivered at the stop.
        #expect(k.batches.dropLast().allSatisfy { $0.count == 100 })
        #expect(k.delivered.count == 520)
        // One wake-up per batch, plus the deadline.
        #expect(m.statistics.userspaceReturns <= 5 + 2)
        // The first batch is due N periods and half a period after the start.
        let firstDue: Int64 = 1_000_000_000 + 1_005 * Self.ms
        #expect(k.waits.first?.until == firstDue)
    }

    @Test func aShortTimedBatchIsHandedOverWhenDueAndTheLateSamplesComeWithTheNext() {
        // The producer stalls: samples 95... arrive together at 1.030 s after the start.
        var arrivals = K.perSample(600)
        for i in 95..<102 { arrivals[i].time = max(arrivals[i].time, 1_000_000_000 + 1_030 * Self.ms) }
        var k = K(setups: [K.setup(K.plan(batch: 100, strategy: .pollWatermark))], arrivals: [arrivals])
        let m = k.run(settings(samples: 300))
        // The first drain (at 1.005 s) finds 95: handed over; the next wait is a whole batch later.
        let untils = k.waits.compactMap(\.until)
        #expect(untils.count >= 2 && untils[1] - untils[0] == 1_000 * Self.ms)
        #expect(k.batches.first?.count == 95)
        #expect(m.statistics.devices.first?.shortBatches == 1)
        // One return per batch interval: the stall cost no wake-up.
        #expect(m.statistics.userspaceReturns <= 3 + 1)
        #expect(k.delivered.map(\.timestamp) == K.perSample(300).map(\.sample.timestamp))
    }

    @Test func burstsAreDrainedWholeYieldingToTheProducer() {
        // Hardware FIFO at latency 1 s: bursts of 100 whose first sample arrives 8 ms early.
        let plan = K.plan(batch: 100, strategy: .pollDrain, burst: 100)
        var k = K(setups: [K.setup(plan)], arrivals: [K.bursts(5, burst: 100, split: 1)])
        let m = k.run(settings(samples: 500))
        #expect(m.mode == .buffers)
        #expect(k.batches.map(\.count) == [100, 100, 100, 100, 100])
        #expect(k.yields >= 5 && m.statistics.yields == k.yields)
        #expect(m.statistics.splitBursts == 0)
        #expect(m.statistics.stopReason == .sampleCount)
        #expect(k.delivered.map(\.timestamp) == K.bursts(5, burst: 100).map(\.sample.timestamp))
    }

    @Test func yieldingStopsAfterSixteenRoundsWhenTheBurstStaysShort() {
        let plan = K.plan(batch: 100, strategy: .pollDrain, burst: 100)
        // Only 50 samples per burst arrive (a sensor delivering half batches).
        var arrivals: [K.Arrival] = []
        for b in 0..<3 {
            let start: Int64 = 1_000_000_000 + Int64(b) * Self.second
            let at: Int64 = start + Self.second
            for a in K.perSample(50, start: start) { arrivals.append(K.Arrival(time: at, sample: a.sample)) }
        }
        var k = K(setups: [K.setup(plan)], arrivals: [arrivals])
        let m = k.run(settings(duration: 3.5))
        // Each burst: one drain with data, then a yield and an empty drain ends the rounds.
        #expect(k.batches.map(\.count) == [50, 50, 50])
        #expect(m.statistics.yields == 3)
        // Each burst ended incomplete: three split bursts (the next half is a new burst, a
        // latency later, not the rest of this one).
        #expect(m.statistics.splitBursts == 3)
    }

    @Test(arguments: [7, 100, 250, 999])
    func theSampleLimitCutsTheLastBatchAndStopsWithoutAFlush(limit: Int) {
        var k = K(setups: [K.setup(K.plan(batch: 100, strategy: .pollWatermark))], arrivals: [K.perSample(2000)])
        let m = k.run(settings(samples: limit))
        #expect(k.delivered.count == limit)
        #expect(m.statistics.samples == limit)
        #expect(m.statistics.stopReason == .sampleCount)
        #expect(k.released == 1 && k.closed == 1)
    }

    /// Prompt stop: a signal arriving during a 10 s batch wait ends it at once, and what the
    /// kernel holds is drained and delivered.
    @Test(arguments: [0.35, 4.2, 9.99])
    func aSignalEndsATenSecondWaitAtOnce(after seconds: Double) {
        var k = K(setups: [K.setup(K.plan(batch: 1000, strategy: .pollWatermark))], arrivals: [K.perSample(3000)])
        let at = 1_000_000_000 + Int64(seconds * 1e9)
        k.signals = [(at, .stop(signal: 15))]
        let m = k.run(settings(duration: 60))
        #expect(m.statistics.stopReason == .signal(15))
        // The signal's wake-up is the outside's, not a batch's.
        #expect(m.statistics.eventWakes == 1)
        #expect(k.finishedAt == at)
        #expect(m.statistics.elapsedNanoseconds == Int64(seconds * 1e9))
        // Everything that had arrived by then was delivered (final drain).
        #expect(k.delivered.count == K.perSample(3000).filter { $0.time <= at }.count)
    }

    @Test func theDeadlineEndsAHardwareFIFOWaitAtOnce() {
        let plan = K.plan(batch: 1000, strategy: .pollDrain, burst: 1000)
        var k = K(setups: [K.setup(plan)], arrivals: [K.bursts(3, burst: 1000)])
        let m = k.run(settings(duration: 12.5))
        #expect(m.statistics.stopReason == .duration)
        #expect(k.finishedAt == 1_000_000_000 + 12_500 * Self.ms)
        // Every wait on the buffer carries the deadline: no poll timeout per wake-up.
        #expect(k.waits.allSatisfy { $0.until == 1_000_000_000 + 12_500 * Self.ms })
        #expect(k.batches.map(\.count) == [1000])
    }

    @Test func aRemovedDeviceIsProbedFoundLostAndWhatWasHeldIsSaved() {
        var k = K(setups: [K.setup(K.plan(batch: 100, strategy: .pollWatermark))], arrivals: [K.perSample(1000)])
        k.removalAt = 1_000_000_000 + 2_345 * Self.ms
        let m = k.run(settings(duration: 30))
        #expect(m.statistics.stopReason == .lost(.lost(device: "accel_3d")))
        #expect(k.actions.contains("probe"))
        #expect(k.finishedAt == k.removalAt)
        // Samples of the batch being filled when the device went (held in pending) are not dropped
        // unless never read: two whole batches were delivered before the removal.
        #expect(k.delivered.count >= 200)
        #expect(k.released == 1 && k.closed == 1)
    }

    @Test func aDrainErrorOnAPresentDeviceFailsWithTheSystemError() {
        var k = K(setups: [K.setup(K.plan(batch: 1, strategy: .pollWatermark))], arrivals: [K.perSample(500)])
        let e = SystemError(.ioError, call: "iio_buffer_refill", subject: "iio:device0")
        k.drainFailure = (0, 1_500_000_000, e)
        let m = k.run(settings(duration: 30))
        #expect(m.statistics.stopReason == .failed(.system(e)))
        #expect(m.startFailure == nil)
        #expect(k.released == 1 && k.closed == 1)
    }

    @Test func aBusyDeviceFoundByTheProbeAfterADrainErrorIsAnAccessFailure() {
        var k = K(setups: [K.setup(K.plan(batch: 1, strategy: .pollWatermark))], arrivals: [K.perSample(500)])
        let e = SystemError(.busy, call: "iio_buffer_refill")
        k.drainFailure = (0, 1_200_000_000, e)
        k.probeAnswer = .busy(device: "accel_3d")
        let m = k.run(settings(duration: 30))
        #expect(m.statistics.stopReason == .failed(.access(.busy(device: "accel_3d"), error: e)))
    }

    @Test func aRemoteConnectionErrorIsADisconnection() {
        var s = settings(duration: 30)
        s.remoteURI = "ip:127.0.0.1:30431"
        var k = K(setups: [K.setup(K.plan(batch: 100, strategy: .blockingRefill))], arrivals: [K.perSample(1000)])
        k.drainFailure = (0, 1_500_000_000, SystemError(.connectionReset, call: "iio_buffer_refill"))
        k.probeAnswer = .available
        // A blocking refill waits for its samples: model it by draining every 1 s.
        var m = CaptureMachine(settings: s)
        var action = m.handle(.start, at: k.now)
        var steps = 0
        while steps < 10_000, let event = k.answer(action) {
            if case .drain = action { k.now += Self.second }
            action = m.handle(event, at: k.now)
            steps += 1
        }
        #expect(m.mode == .blocking)
        #expect(m.statistics.stopReason == .lost(.disconnected(uri: "ip:127.0.0.1:30431")))
    }

    @Test func aFailureWhilePreparingStillReleasesAndCloses() {
        var k = K(setups: [], arrivals: [[]])
        k.prepareFailure = .access(.permissionDenied(device: "accel_3d", path: "/dev/iio:device0"), error: nil)
        let m = k.run(settings(duration: 1))
        #expect(m.startFailure == k.prepareFailure)
        #expect(k.actions == ["prepare", "release", "close"])
        #expect(m.state == .saved)
    }

    @Test func aFailingSinkStopsTheCaptureAsFailed() {
        var k = K(setups: [K.setup(K.plan(batch: 100, strategy: .pollWatermark))], arrivals: [K.perSample(1000)])
        k.deliveryFailsAt = 2
        let m = k.run(settings(duration: 30))
        #expect(m.statistics.stopReason == .failed(.recording(stage: .write, detail: "disk full")))
        #expect(k.batches.count == 2 && k.released == 1 && k.closed == 1)
    }

    @Test func pauseDisablesTheBuffersAndTheGapIsNotCountedAsLost() {
        var k = K(setups: [K.setup(K.plan(batch: 1, strategy: .pollWatermark))], arrivals: [K.perSample(1000)])
        k.signals = [(1_000_000_000 + 2 * Self.second + 5 * Self.ms, .pause), (1_000_000_000 + 5 * Self.second + 5 * Self.ms, .resume)]
        let m = k.run(settings(duration: 8))
        #expect(k.paused == 1)
        #expect(k.marks == [.paused(at: 1_000_000_000 + 2 * Self.second + 5 * Self.ms), .resumed(at: 1_000_000_000 + 5 * Self.second + 5 * Self.ms)])
        // While paused no wait includes a buffer.
        #expect(m.statistics.lostSamples == 0 && m.statistics.devices[0].gaps == 0)
        // The samples that arrived while paused are what the kernel held when resumed (the fake
        // kernel keeps them): delivered after the resume, none bridged as lost.
        #expect(m.statistics.stopReason == .duration)
    }

    /// A pause in the middle of a timed batch: the samples the kernel holds are read and
    /// delivered before the pause (none is dropped with the buffers), and the resumption's mark is
    /// the time it was asked for (the first samples after it are stamped later).
    @Test func aPauseDeliversWhatTheKernelHoldsFirst() {
        var k = K(setups: [K.setup(K.plan(batch: 100, strategy: .pollWatermark))], arrivals: [K.perSample(1000)])
        let pauseAt = 1_000_000_000 + 2 * Self.second + 505 * Self.ms
        let resumeAt = 1_000_000_000 + 4 * Self.second + 5 * Self.ms
        k.signals = [(pauseAt, .pause), (resumeAt, .resume)]
        let m = k.run(settings(duration: 8))
        #expect(m.statistics.timedWait)
        #expect(k.marks == [.paused(at: pauseAt), .resumed(at: resumeAt)])
        // Every sample that arrived before the pause was delivered before its mark.
        let arrivedBefore = K.perSample(1000).filter { $0.time <= pauseAt }.count
        #expect(k.samplesBeforeMarks.first == arrivedBefore)
        #expect(k.delivered.prefix(arrivedBefore).map(\.timestamp) == K.perSample(1000).prefix(arrivedBefore).map(\.sample.timestamp))
    }

    @Test func aLostDeviceIsAwaitedWithReconnectAndStreamingResumes() {
        var s = settings(duration: 10)
        s.reconnect = true
        var k = K(setups: [K.setup(K.plan(batch: 100, strategy: .pollWatermark))], arrivals: [K.perSample(1000)])
        k.removalAt = 1_000_000_000 + 3 * Self.second + 50 * Self.ms
        k.addAt = 1_000_000_000 + 6 * Self.second
        let m = k.run(s)
        #expect(k.marks.count == 2)
        guard case let .deviceLost(lostAt, state) = k.marks.first else { Issue.record("first mark \(String(describing: k.marks.first))"); return }
        #expect(state == .lost(device: "accel_3d"))
        #expect(k.marks.last == .deviceBack(at: 1_000_000_000 + 6 * Self.second, lostAt: lostAt))
        // The first start, an attempt at once after the release (too early), one after the 1 s
        // back-off (still absent), one at the add event.
        #expect(k.actions.filter { $0 == "prepare" }.count == 4)
        #expect(m.reconnectAttempts == 3)
        #expect(k.released == 2 && k.closed == 1)
        #expect(m.statistics.stopReason == .duration)
    }

    /// A device that comes back without an event (a lost netlink message) is found by the
    /// retries, 1 s, 2 s, 4 s... after each failed attempt, not by a busy loop.
    @Test func aDeviceBackWithoutAnEventIsFoundByBackedOffRetries() {
        var s = settings(duration: 20)
        s.reconnect = true
        var k = K(setups: [K.setup(K.plan(batch: 100, strategy: .pollWatermark))], arrivals: [K.perSample(2000)])
        let removal = 1_000_000_000 + 3 * Self.second + 50 * Self.ms
        k.removalAt = removal
        k.quietReturnAt = removal + 5 * Self.second
        let m = k.run(s)
        let prepares = k.actions.filter { $0 == "prepare" }.count
        // At once (fails), after 1 s (fails), after 2 s more (fails), after 4 s more (succeeds).
        #expect(prepares == 5)
        guard case .deviceBack(let back, _) = k.marks.last else { Issue.record("no deviceBack mark: \(k.marks)"); return }
        #expect(back >= removal + 7 * Self.second && back < removal + 8 * Self.second)
        #expect(m.statistics.stopReason == .duration)
    }

    /// Without reconnect a lost device ends the capture: no mark, the reason says lost.
    @Test func withoutReconnectALostDeviceStopsTheCapture() {
        var k = K(setups: [K.setup(K.plan(batch: 100, strategy: .pollWatermark))], arrivals: [K.perSample(1000)])
        k.removalAt = 1_000_000_000 + 3 * Self.second + 50 * Self.ms
        let m = k.run(settings(duration: 10))
        #expect(k.marks.isEmpty)
        #expect(m.statistics.stopReason == .lost(.lost(device: "accel_3d")))
        #expect(k.actions.filter { $0 == "prepare" }.count == 1)
    }

    @Test func blockingRefillsCheckForSignalsBetweenRoundsWithoutBlocking() {
        var k = K(setups: [K.setup(K.plan(batch: 100, strategy: .blockingRefill))], arrivals: [K.perSample(2000)])
        var m = CaptureMachine(settings: settings(duration: 30))
        var action = m.handle(.start, at: k.now)
        k.signals = [(1_000_000_000 + 3 * Self.second + 1, .stop(signal: 2))]
        var steps = 0
        while steps < 10_000, let event = k.answer(action) {
            if case .drain = action { k.now += Self.second } // a refill of 100 scans blocks for 1 s
            if case .wait(let w) = action { #expect(w.until ?? .max <= k.now) } // checks only
            action = m.handle(event, at: k.now)
            steps += 1
        }
        #expect(m.mode == .blocking)
        #expect(m.statistics.stopReason == .signal(2))
        #expect(!k.actions.dropFirst(k.actions.lastIndex(of: "release").map { _ in 0 } ?? 0).isEmpty)
        // No final drain for a blocking backend (it would block).
        #expect(k.actions.suffix(2) == ["release", "close"])
    }

    @Test func twoDevicesAreMergedOnTheAccelerometersTimestamps() {
        let plan = K.plan(batch: 100, strategy: .pollWatermark)
        let gyro = K.perSample(400, start: 1_000_000_000 + 3 * Self.ms)
        var k = K(setups: [K.setup(plan), K.setup(plan, id: "iio:device1", name: "gyro_3d", accel: false)],
                  arrivals: [K.perSample(400), gyro])
        let m = k.run(settings(duration: 3.9))
        #expect(m.statistics.devices.count == 2)
        let ts = k.delivered.map(\.timestamp)
        #expect(ts == K.perSample(ts.count).map(\.sample.timestamp))
        #expect(ts.count >= 380)
    }

    @Test func samplesWithoutTimestampsGetTheDrainTime() {
        var k = K(setups: [K.setup(K.plan(batch: 1, strategy: .pollWatermark), timestamps: false)], arrivals: [K.perSample(50)])
        var s = settings(duration: 0.3)
        s.repairTimestamps = false
        _ = k.run(s)
        #expect(k.delivered.count == 29 || k.delivered.count == 30)
        #expect(k.delivered.allSatisfy { $0.timestamp % (10 * Self.ms) == 0 })
    }

    /// Results do not depend on how the driver splits waits: the same stream through timed
    /// waiting and through buffer waiting gives the same samples.
    @Test func deliveredSamplesDoNotDependOnTheWaitMode() {
        var timed = K(setups: [K.setup(K.plan(batch: 50, strategy: .pollWatermark))], arrivals: [K.perSample(700)])
        var s = settings(duration: 6)
        let a = timed.run(s)
        s.timedWait = false
        var buffer = K(setups: [K.setup(K.plan(batch: 50, strategy: .pollWatermark))], arrivals: [K.perSample(700)])
        let b = buffer.run(s)
        #expect(a.mode == .timed && b.mode == .buffers)
        #expect(timed.delivered == buffer.delivered)
        #expect(timed.batches.count < buffer.batches.count)
    }

    @Test func anAnswerThatDoesNotFitIsIgnored() {
        var m = CaptureMachine(settings: settings(duration: 1))
        #expect(m.handle(.delivered, at: 0).isFinished && m.state == .idle)
        var n = CaptureMachine(settings: settings(duration: 1))
        _ = n.handle(.start, at: 0)
        _ = n.handle(.prepared([K.setup(K.plan(batch: 1, strategy: .pollWatermark))]), at: 0)
        _ = n.handle(.streaming, at: 0)
        if case .wait = n.handle(.yielded, at: 1) {} else { Issue.record("an unexpected yield did not lead back to a wait") }
        #expect(n.state == .active)
    }
}

extension CaptureMachine.Action {
    var isFinished: Bool { if case .finished = self { true } else { false } }
}
