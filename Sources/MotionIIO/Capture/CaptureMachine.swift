import MotionCore
import MotionSystem

/// The capture as a pure state machine, in the shape of ``VirtualSensorHub``: it is given the
/// time and the result of each action it asked for (a wait's wake-up, a drain's samples, a
/// probe's access state, a delivery) and answers with the one next ``Action``. It does no I/O
/// and reads no clock; ``IIOCapture`` is the driver that carries the actions out.
///
/// Life: `idle → preparing → active ⇄ paused → stopping → saved`; a lost device goes
/// `active → lost → stopping`, or with ``Settings/reconnect`` `lost → reconnecting → preparing →
/// active`. Every path ends with ``Action/release`` (buffers destroyed, settings restored) and
/// ``Action/closeRecording`` before ``Action/finished``.
///
/// Waiting (one of three modes, chosen from the plans when streaming starts):
/// - **buffers**: wait on the buffers' poll fds (hardware FIFO, batch 1, `--wait buffer`); drain
///   each readable buffer without blocking; a hardware-FIFO burst found short is completed by
///   yielding to its producer and draining again (at most 16 rounds while each brings more).
/// - **timed**: per-sample devices batched by the kernel watermark sleep until each batch is due
///   (``BatchDueClock``) and then drain: one wake-up per batch instead of one per sample.
/// - **blocking**: backends without a poll fd (`ip:`) refill N scans per stream, checking for
///   signals and the deadline between rounds (the driver cancels a refill to stop at once).
///
/// A stop (deadline, SIGINT/SIGTERM, sample count, a lost device, an error) drains what the
/// kernel still holds (deadline and signals, not for `ip:`), delivers what is held, flushes the
/// timestamp repair and the merger, then releases. Results never depend on how the driver's
/// waits are split: only the times given and the drains' contents matter.
public struct CaptureMachine: Sendable {
    /// Where the capture is.
    public enum State: String, Hashable, Sendable {
        /// Nothing started.
        case idle
        /// Checking access and configuring the devices (also after a reconnection).
        case preparing
        /// Buffers enabled, samples flowing.
        case active
        /// Buffers disabled on request (sensor idle); resumes on request.
        case paused
        /// The device went away; what was held is being delivered.
        case lost
        /// Buffers released; waiting for the device to come back (``Settings/reconnect``).
        case reconnecting
        /// Delivering what is held, releasing buffers, closing the recording.
        case stopping
        /// Everything released and the recording closed.
        case saved
    }

    /// What the capture was asked to do.
    public struct Settings: Sendable {
        /// A test stall: stop reading once for `duration` s after `after` s of streaming.
        public struct Stall: Hashable, Sendable {
            /// Seconds of streaming before the stall.
            public var after: Double
            /// Seconds of stall.
            public var duration: Double
            /// Creates a stall.
            public init(after: Double, duration: Double) { self.after = after; self.duration = duration }
        }
        /// Stop after this many seconds of streaming (pauses included).
        public var duration: Double?
        /// Stop after this many samples.
        public var sampleLimit: Int?
        /// Respread bunched FIFO-burst timestamps.
        public var repairTimestamps = true
        /// Timed waiting for per-sample devices batched by the kernel watermark.
        public var timedWait = true
        /// Whether the driver reports device removal (uevents); without it a quiet wait of
        /// ``livenessTimeout`` ns makes the machine probe the devices.
        public var removalEvents = true
        /// Probe after this long without data when removal is not reported, ns.
        public var livenessTimeout: Int64 = 2_000_000_000
        /// The remote context's URI (`ip:`), nil for the local one: connection errors there mean
        /// the board went away (``AccessState/disconnected(uri:)``).
        public var remoteURI: String?
        /// Wait for a lost device to come back instead of stopping.
        public var reconnect = false
        /// Testing: a stall (to overflow the kernel buffer).
        public var stall: Stall?
        /// Samples read at separate wake-ups that may be delivered as one batch (1: every wake-up's
        /// samples are delivered on their own). Above 1, a lone per-sample stream (a one-scan
        /// buffer with a timestamp channel, waited on in `buffers` mode) is drained with
        /// ``Action/collect(stream:recheckScale:upTo:until:)``: the driver keeps waiting and reading
        /// while only that buffer wakes it, and the machine and the sink run once per collection
        /// instead of once per sample. The process still wakes for every sample (counted in
        /// ``CaptureStatistics/userspaceReturns``); only the work after each wake-up is joined.
        /// Set from the sink (``CaptureSink/maxJoinedSamples``), which sees fewer, larger batches.
        public var joinSamples = 1
        /// ... and the delay a joined sample may see before it is delivered (ns; set from the sink,
        /// ``CaptureSink/maxJoinNanoseconds``): a collection takes at most the samples that arrive
        /// in it at the stream's rate (at 250 ms: 25 at 100 Hz, none below 8 Hz; at 1 s: 100 at
        /// 100 Hz, none below 2 Hz), and is cut at twice it when the device stalls.
        public var joinNanoseconds: Int64 = 250_000_000

        /// Creates settings.
        public init(duration: Double? = nil, sampleLimit: Int? = nil) {
            self.duration = duration
            self.sampleLimit = sampleLimit
        }
    }

    /// One configured device, as the driver set it up.
    public struct StreamSetup: Sendable {
        /// Configuration read back (rate, watermark, clock, plan); counts start at zero.
        public var report: CaptureStatistics.Device
        /// Sampling period, ns (from the rate read back, or the planned one), nil when unknown.
        public var period: Int64?
        /// Whether the device carries the accelerometer (merged on its timestamps).
        public var hasAccel: Bool

        /// Creates a setup.
        public init(report: CaptureStatistics.Device, period: Int64?, hasAccel: Bool) {
            self.report = report
            self.period = period
            self.hasAccel = hasAccel
        }
    }

    /// A set of stream indices (at most 32 streams).
    public struct Streams: OptionSet, Hashable, Sendable {
        /// Bit `i` is stream `i`.
        public var rawValue: UInt32
        /// Creates a set from its bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// The set holding stream `i`.
        public static func stream(_ i: Int) -> Streams { Streams(rawValue: 1 << UInt32(i)) }
        /// The first `count` streams.
        public static func first(_ count: Int) -> Streams { Streams(rawValue: count >= 32 ? ~0 : (1 << UInt32(count)) - 1) }
        /// Whether stream `i` is in the set.
        public func has(_ i: Int) -> Bool { rawValue & (1 << UInt32(i)) != 0 }
        /// Removes and returns the lowest stream index, nil when the set is empty.
        mutating func popFirst() -> Int? {
            guard rawValue != 0 else { return nil }
            let i = rawValue.trailingZeroBitCount
            rawValue &= rawValue - 1
            return i
        }
    }

    /// What the user asked through a signal (the driver maps signal numbers to these).
    public enum Control: Hashable, Sendable {
        /// SIGINT/SIGTERM: stop.
        case stop(signal: Int32)
        /// Pause: disable the buffers until ``resume``.
        case pause
        /// Resume after ``pause``.
        case resume
    }

    /// A wait: block until one of `streams`' buffers is readable, a control or device event
    /// arrives, or the monotonic clock reaches `until` (nil: no time limit). `until` at or before
    /// the time of the request means: only check, do not block.
    public struct Wait: Hashable, Sendable {
        /// Buffers to wait on.
        public var streams: Streams
        /// Absolute monotonic time, ns.
        public var until: Int64?
    }

    /// What ended a wait.
    public struct Wake: Hashable, Sendable {
        /// Streams whose buffer is readable.
        public var readable: Streams = []
        /// Streams whose buffer reported an error condition (`POLLERR`/`POLLHUP`/`POLLNVAL`).
        public var errored: Streams = []
        /// Controls received.
        public var controls: [Control] = []
        /// A device was removed (uevent).
        public var deviceRemoved = false
        /// A device was added (uevent).
        public var deviceAdded = false
        /// Creates a wake.
        public init(readable: Streams = [], errored: Streams = [], controls: [Control] = [], deviceRemoved: Bool = false, deviceAdded: Bool = false) {
            self.readable = readable
            self.errored = errored
            self.controls = controls
            self.deviceRemoved = deviceRemoved
            self.deviceAdded = deviceAdded
        }
    }

    /// What one drain (non-blocking refills until the kernel buffer is empty, or one blocking
    /// refill) produced.
    public struct Drain: Sendable {
        /// Decoded samples in arrival order (timestamp 0 when the device has no timestamp channel).
        public var samples: [Sample]
        /// Refill calls made.
        public var refills: Int
        /// Refills that returned data.
        public var readsWithData: Int
        /// Samples with an axis at the end of its raw range (clipped).
        public var clippedSamples: Int
        /// Whether the scale was re-read and found changed.
        public var scaleChanged: Bool
        /// ``Action/collect(stream:recheckScale:upTo:until:)``: returns from waiting after the first
        /// drain that brought this stream's data or the collection's time limit (0 for a drain).
        public var wakeups = 0
        /// ``Action/collect(stream:recheckScale:upTo:until:)``: the wake that ended the collection
        /// when it was more than this stream's data (a control, a device event, an error, another
        /// stream), for the machine to handle as a wait's answer; nil otherwise.
        public var interruption: Wake?
        /// The refill error that ended the drain (not `EAGAIN`), if any.
        public var failure: SystemError? {
            get { failureBox?.error }
            set { failureBox = newValue.map(FailureBox.init) }
        }
        /// ``failure`` behind one reference: a drain is copied a few times per sample on its way
        /// through the machine, and a reference is cheaper to copy than an error's strings.
        private var failureBox: FailureBox?
        private final class FailureBox: Sendable {
            let error: SystemError
            init(_ error: SystemError) { self.error = error }
        }
        /// Whether the drain ended with a refill error (no copy of the error is made).
        var failed: Bool { failureBox != nil }

        /// Creates a drain result.
        public init(samples: [Sample], refills: Int = 1, readsWithData: Int? = nil, clippedSamples: Int = 0,
                    scaleChanged: Bool = false, failure: SystemError? = nil) {
            self.samples = samples
            self.refills = refills
            self.readsWithData = readsWithData ?? (samples.isEmpty ? 0 : 1)
            self.clippedSamples = clippedSamples
            self.scaleChanged = scaleChanged
            failureBox = failure.map(FailureBox.init)
        }
    }

    /// A moment in the stream the sink should know of (issue 15 records them).
    public enum Mark: Hashable, Sendable {
        /// Buffers disabled on request at this time (ns).
        case paused(at: Int64)
        /// Buffers enabled again.
        case resumed(at: Int64)
        /// The device went away; `state` is what the fresh probe found (``AccessState/lost(device:)``,
        /// ``AccessState/disconnected(uri:)``).
        case deviceLost(at: Int64, state: AccessState)
        /// The device came back and streams again (`lostAt`: when it went).
        case deviceBack(at: Int64, lostAt: Int64)
    }

    /// What the capture delivered so far, handed to the sink with each batch
    /// (``CaptureSink/write(_:progress:)``): cheap counts, no per-device arrays.
    public struct Progress: Hashable, Sendable {
        /// Samples delivered (merged stream), this batch included.
        public var samples = 0
        /// Batches delivered, this one included.
        public var batches = 0
        /// Returns from waiting (userspace wake-ups).
        public var userspaceReturns = 0
        /// Refills that returned data, over all devices (device deliveries as the reader saw them).
        public var deviceDeliveries = 0
        /// Samples lost in timestamp gaps, over all devices.
        public var lostSamples = 0
        /// Gaps found, over all devices.
        public var gaps = 0
        /// Monotonic time of the delivery, ns.
        public var now: Int64 = 0
        /// Monotonic time streaming started, ns.
        public var startedAt: Int64 = 0
        /// The process's counters since streaming started, when the sink asked for them
        /// (``CaptureSink/wantsProcessCounters``; the driver reads them).
        public var counters: ProcessCounters?

        /// Creates progress.
        public init() {}
    }

    /// What the driver must do next; each action but ``finished`` is answered by one ``Event``.
    public enum Action: Sendable {
        /// Check access fresh and configure the devices → ``Event/prepared(_:)`` or ``Event/failed(_:)``.
        case prepare
        /// Create the buffers and open the sink → ``Event/streaming`` or ``Event/failed(_:)``.
        case startStreaming
        /// Wait → ``Event/woke(_:)``.
        case wait(Wait)
        /// Drain stream `stream` (re-reading its scale first when `recheckScale`) → ``Event/drained(_:)``.
        case drain(stream: Int, recheckScale: Bool)
        /// Drain stream `stream` as ``drain(stream:recheckScale:)``, then keep waiting on the same
        /// wait set and draining it while nothing but its buffer wakes the driver, until `upTo`
        /// samples are read or the monotonic clock reaches `until` → one ``Event/drained(_:)`` with
        /// every sample, the further wake-ups in ``Drain/wakeups`` and the wake that ended it (a
        /// control, a device event, an error) in ``Drain/interruption``. Asked only for a lone
        /// per-sample stream (``Settings/joinSamples``).
        case collect(stream: Int, recheckScale: Bool, upTo: Int, until: Int64)
        /// `sched_yield` so a FIFO burst's producer can finish → ``Event/yielded``.
        case yield
        /// Check stream `stream`'s access state fresh → ``Event/probed(_:)``.
        case probe(stream: Int)
        /// Hand a batch to the sink → ``Event/delivered`` or ``Event/deliveryFailed(_:)``.
        case deliver(SampleBatch)
        /// Tell the sink of a moment → ``Event/marked``.
        case mark(Mark)
        /// Disable the buffers (sensor idle) → ``Event/paused``.
        case pauseStreaming
        /// Enable them again → ``Event/streaming`` or ``Event/failed(_:)``.
        case resumeStreaming
        /// Wait for a device to appear (uevents) until `until` → ``Event/woke(_:)``.
        case awaitDevice(until: Int64?)
        /// Destroy the buffers, restore settings → ``Event/released``.
        case release
        /// Flush and close the sink → ``Event/recordingClosed(_:)``.
        case closeRecording
        /// Done: read ``statistics``.
        case finished
    }

    /// What happened, answering the last action.
    public enum Event: Sendable {
        /// Begin.
        case start
        /// Devices configured.
        case prepared([StreamSetup])
        /// Buffers enabled (and the sink open).
        case streaming
        /// The last action (prepare, start or resume streaming) failed.
        case failed(CaptureFailure)
        /// A wait ended.
        case woke(Wake)
        /// A drain's result.
        case drained(Drain)
        /// The yield is done.
        case yielded
        /// A probe's result (nil where none can be taken: remote contexts).
        case probed(AccessState?)
        /// The batch was handed over.
        case delivered
        /// The sink failed on the batch.
        case deliveryFailed(CaptureFailure)
        /// The mark was handed over.
        case marked
        /// Buffers disabled.
        case paused
        /// Buffers destroyed, settings restored.
        case released
        /// Sink closed (with the failure, if closing failed).
        case recordingClosed(CaptureFailure?)
    }

    /// How the capture waits (see the type's documentation).
    public enum Mode: String, Hashable, Sendable {
        /// On the buffers' poll fds.
        case buffers
        /// Until each batch is due.
        case timed
        /// Blocking refills (no poll fd).
        case blocking
    }

    // MARK: state

    /// The settings.
    public let settings: Settings
    /// Where the capture is.
    public internal(set) var state: State = .idle
    /// How it waits (set when streaming starts).
    public internal(set) var mode: Mode = .buffers
    /// What it did so far (process counters are the driver's to fill).
    public var statistics: CaptureStatistics {
        var s = stats
        if !streams.isEmpty { s.devices = streams.map(\.setup.report) }
        return s
    }
    var stats = CaptureStatistics()
    /// The failure that prevented streaming, when it never started.
    public internal(set) var startFailure: CaptureFailure?
    /// Why it is stopping or stopped.
    public var stopReason: CaptureStopReason? { reason }

    struct StreamState: Sendable {
        var setup: StreamSetup
        /// Copied out of the setup: read on every drain, so kept where no copy of the setup is needed.
        let plan: CapturePlan
        let hasTimestamp: Bool
        init(setup: StreamSetup) {
            self.setup = setup
            plan = setup.report.plan
            hasTimestamp = setup.report.hasTimestamp
        }
        /// Timestamp repair, when the stream's timestamps are repaired.
        var repair: TimestampRepair? {
            get { repairOn ? repairState : nil }
            set { if let r = newValue { repairState = r; repairOn = true } else { repairOn = false } }
        }
        /// Gap detection, when the stream's period is known.
        var gaps: GapDetector? {
            get { gapsOn ? gapsState : nil }
            set { if let g = newValue { gapsState = g; gapsOn = true } else { gapsOn = false } }
        }
        // ``repair`` and ``gaps`` stored unwrapped with a flag: they are updated in place on
        // every drain, and an optional of them is tested and copied through value witnesses.
        private var repairState = TimestampRepair(period: 1)
        private var repairOn = false
        private var gapsState = GapDetector(period: 1)
        private var gapsOn = false
        var due: BatchDueClock?
        /// Timed waiting: collected samples not yet delivered.
        var pending: [Sample] = []
        /// Burst rounds in this wake: scans of the last drain, total, rounds.
        var lastDrain = 0
        var wakeTotal = 0
        var rounds = 0
        /// Scans of the FIFO burst being read, across waits; whether a wait was entered with it
        /// incomplete (``CaptureStatistics/splitBursts``).
        var burstSeen = 0
        var burstOpen = false
        var burstOpenedAt: Int64 = 0
        var lastScaleCheck: Int64?
        /// Lost samples and gaps counted before the detector was restarted (pause, reconnection).
        var lostBefore = 0
        var gapsBefore = 0

        /// Counts a drain's samples (timestamping them with `now` when the device has no
        /// timestamp channel) and collects them: one mutating call on the array element per drain.
        mutating func take(_ d: Drain, at now: Int64) -> [Sample] {
            setup.report.drainsWithData += d.readsWithData
            setup.report.samples += d.samples.count
            if d.clippedSamples > 0 { setup.report.clippedSamples += d.clippedSamples }
            if d.scaleChanged { setup.report.scaleChanges += 1 }
            guard !hasTimestamp else { return collect(d.samples, final: false) }
            var samples = d.samples
            for k in samples.indices { samples[k].timestamp = now }
            return collect(samples, final: false)
        }

        /// Timed waiting: holds `got` for the batch being filled; `scans` were read at `now`.
        /// - Returns: the batch, when the held samples complete it.
        mutating func hold(_ got: [Sample], scans: Int, at now: Int64) -> [Sample]? {
            if pending.isEmpty { pending = got } else { pending += got }
            guard var clock = due else { return nil }
            defer { due = clock }
            let short = clock.shortBatches
            // Count the scans read (the timestamp repair may hold some back for a while).
            guard clock.drained(scans, at: now) else { return nil }
            if clock.shortBatches > short { setup.report.shortBatches += 1 }
            guard !pending.isEmpty else { return nil }
            let batch = pending
            pending = []
            return batch
        }

        /// Buffer waiting: notes that a drain read `scans`; whether a hardware-FIFO burst is
        /// still incomplete and worth a yield (counted as a round; never while `stopping`).
        mutating func burstContinues(afterDrainOf scans: Int, stopping: Bool) -> Bool {
            lastDrain = scans
            wakeTotal += scans
            guard !stopping, plan.waitStrategy == .pollDrain, let n = plan.expectedBurst, scans > 0, wakeTotal < n, rounds < 16 else { return false }
            rounds += 1
            return true
        }

        /// Timestamp repair and gap detection of this stream's samples (in place: a mutating
        /// method on the array element, so the state is not copied per drain).
        mutating func collect(_ raw: [Sample], final: Bool) -> [Sample] {
            var out = raw
            if repairOn {
                out = repairState.push(raw)
                if final { out += repairState.finish() }
                if repairState.repairedSamples != setup.report.repairedSamples { setup.report.repairedSamples = repairState.repairedSamples }
                if repairState.repairedRuns > 0, gapsOn, gapsState.factor < GapDetector.burstJoinFactor {
                    gapsState.factor = GapDetector.burstJoinFactor
                }
            }
            if gapsOn {
                for x in out { _ = gapsState.push(x.timestamp) }
                let lost = lostBefore + gapsState.lostSamples
                if lost != setup.report.lostSamples { setup.report.lostSamples = lost }
                let count = gapsBefore + gapsState.gapCount
                if count != setup.report.gaps { setup.report.gaps = count }
            }
            return out
        }
    }

    enum ProbeCause: Sendable {
        case removal, quiet, pollError, drainError(SystemError)
    }

    enum StopStep: Sendable {
        case finalDrain(Int), deliverHeld, deliverFlush, release, close, finish
    }

    var streams: [StreamState] = []
    var merger: SampleMerger?
    var startTime: Int64 = 0
    /// When the duration ends (monotonic ns), once streaming started.
    public internal(set) var deadline: Int64?
    var stall: (at: Int64, until: Int64)?
    var stalling = false
    var reason: CaptureStopReason? { didSet { hasReason = reason != nil } }
    /// `reason != nil`, kept as a flag: asked on every action, and the optional's test goes
    /// through the enum's value witness.
    private(set) var hasReason = false
    var probes: [(Int, ProbeCause)] = []
    /// Streams to drain next, lowest index first.
    var drains: Streams = []
    /// Samples ready for delivery, per drain in drain order.
    var ready: [Ready] = []
    /// One drain's samples ready for delivery (a struct, not a tuple: the array is emptied once
    /// per delivery, and a tuple element is destroyed by the runtime's generic code).
    struct Ready: Sendable {
        var stream: Int
        var samples: [Sample]
    }
    var yieldFor: Int?
    var limitReached = false
    var pauseRequested = false
    /// When the last resumption was asked for (the resumed mark's time).
    var resumeRequestedAt: Int64?
    var stopSteps: [StopStep] = []
    /// The last wait asked was only a check (blocking mode between rounds).
    var lastWaitWasCheck = false
    var everStreamed = false
    /// The stream the last drain action was for.
    var lastDrained: Int?
    /// Delivery steps left while ``State/lost`` (before releasing for a reconnection).
    var lostSteps: [StopStep] = []
    var lostMarked = false
    /// The state the lost device was found in, and when.
    var lostState: AccessState?
    var lostAt: Int64 = 0
    /// Reconnecting: when to try again after a failed attempt (nil: at the next device event),
    /// and the current back-off, ns.
    var retryAt: Int64?
    var retryDelay: Int64 = 0
    /// Attempts to reconnect so far.
    public internal(set) var reconnectAttempts = 0

    /// What was delivered so far (for the sink, with each batch).
    public func progress(at now: Int64) -> Progress {
        var p = Progress()
        p.samples = stats.samples
        p.batches = stats.batches
        p.userspaceReturns = stats.userspaceReturns
        for s in streams {
            p.deviceDeliveries += s.setup.report.drainsWithData
            p.lostSamples += s.setup.report.lostSamples
            p.gaps += s.setup.report.gaps
        }
        p.now = now
        p.startedAt = startTime
        return p
    }

    /// The first back-off after a failed reconnection attempt and its cap, ns: 1 s doubling to 60 s.
    static let retryDelays: (first: Int64, cap: Int64) = (1_000_000_000, 60_000_000_000)

    /// Creates an idle machine.
    public init(settings: Settings) {
        self.settings = settings
    }
}
