import MotionAnalysis
import MotionCore
import MotionIIO
import MotionSystem
import WakeCost

/// A capture session as a pure state machine: it is told what the capture delivered (the
/// devices, each batch with the capture's cumulative figures, the pauses and losses, the end) and
/// what the clocks read, and answers with the ``Action``s to carry out, one at a time; the driver
/// (``SessionRecorder``) performs each and reports its ``ActionResult``. It does no I/O and reads
/// no clock, so rotation, retention, a full disk, reconnection and every summary are unit-tested
/// without files (`swift test --filter SessionMachine`).
///
/// It owns the live analysis (MotionAnalysis' standard pipeline, fed every batch and interrupted
/// at pauses and losses, so that a replay of the recordings gives the same results) and decides:
/// - which recording a batch goes into: a new one per ``RotationPolicy`` (never mid-batch), per
///   reconnection, named by ``RecordingNaming``;
/// - which event lines go into it (pause, resume, lost, reconnected);
/// - when its checkpoint is replaced (with the rows' `fsync`: ``MotionCore/RecordingWriter/FsyncPolicy``);
/// - which old recordings go (``RetentionPolicy``), also to make room when the disk is full
///   (with `--max-disk`; without it a full disk stops the session cleanly);
/// - the per-batch report (``BatchReport``), the log events (``SessionEvent``), the summary of
///   each recording and of the session (``SessionSummary``).
public struct SessionMachine {
    /// Where recordings go.
    public enum Output: Sendable, Equatable {
        /// Nowhere (the analysis and the reports only).
        case none
        /// One recording at this path (`-o FILE`); continued as `FILE-2.csv`... after a reconnection.
        case file(String, overwrite: Bool)
        /// Recordings named by their start time in this directory (`--output-dir`).
        case directory(String)
    }

    /// What the session was asked to do.
    public struct Settings: Sendable {
        /// The session id.
        public var session: String
        /// Where recordings go.
        public var output: Output = .none
        /// When to start the next recording.
        public var rotation: RotationPolicy = .never
        /// Which old recordings to delete.
        public var retention = RetentionPolicy()
        /// When the rows are synced (and the checkpoint replaced).
        public var fsync: RecordingWriter.FsyncPolicy = .everyBatch
        /// The finished recordings already in the output directory (for retention).
        public var stored: [StoredRecording] = []
        /// The header's `source` (`iio local:`).
        public var source = "iio"
        /// The rate asked for, Hz.
        public var requestedRateHz: Double?
        /// The header's `batching` (`latency 1 s`, `samples 100`, `none`).
        public var batching = "none"
        /// The board profile the summaries' battery estimate uses.
        public var board: BoardProfile?
        /// Whether the capture waits for a lost device.
        public var reconnect = false
        /// Whether to analyse (an accelerometer is captured).
        public var analyse = true
        /// Whether the summaries carry steps inferred in the counter's silences during gait
        /// (``MotionAnalysis/InferredSteps``; `--no-inferred-steps` turns it off).
        public var inferSteps = true
        /// The sensors the recordings hold columns for.
        public var sensors: SensorSet = .accel

        /// Creates settings.
        public init(session: String) { self.session = session }
    }

    /// What happened (the capture's side of the session).
    public enum Input: Sendable {
        /// Streaming started (again, after a reconnection) with these devices.
        case begin(devices: [CaptureStatistics.Device], identities: [DeviceIdentity], clock: ClockReading)
        /// A batch was delivered; `clock` is read when recordings are named by time. `report`:
        /// whether a ``BatchReport`` is made for it (false when the observer would show or send
        /// none, ``SessionObserver/wantsBatchReport(endingAt:)``; the batch's figures then reach
        /// only the checkpoints and summaries).
        case batch(SampleBatch, CaptureMachine.Progress, clock: ClockReading?, report: Bool = true)
        /// A moment of the stream.
        case mark(CaptureMachine.Mark, CaptureMachine.Progress)
        /// The capture ended.
        case close(CaptureStopReason, CaptureMachine.Progress)
    }

    /// What the driver must do.
    public enum Action: Sendable {
        /// Create the recording at `path` (refusing an existing file unless `replace`) with `header`.
        case open(path: String, header: RecordingHeader, replace: Bool)
        /// Append the batch's rows to the open recording.
        case appendRows(SampleBatch)
        /// Append an event line to the open recording.
        case appendEvent(RecordingEvent)
        /// Sync the open recording, then replace its checkpoint atomically.
        case checkpoint(path: String, SessionCheckpoint)
        /// Sync and close the open recording, write its summary atomically at `summaryPath`,
        /// then remove its checkpoint. (Indirect, as ``finished(_:sequence:)``: a summary is large,
        /// and every action is as large as the largest case; these two are rare.)
        indirect case closeRecording(summaryPath: String, summary: SessionSummary, checkpointPath: String)
        /// Delete a finished recording and its side files (`paths`).
        case delete(name: String, paths: [String], reason: SessionEvent.DeletionReason)
        /// Hand a batch report to the observers (NDJSON, the live view).
        case report(BatchReport)
        /// Hand an event to the observers (the log, NDJSON).
        case log(SessionEvent, sequence: Int)
        /// The session is over: its summary.
        indirect case finished(SessionSummary, sequence: Int)
        /// Stop the capture with this failure (the driver throws it).
        case fail(SessionFailure)
    }

    /// How an action went.
    public enum ActionResult: Sendable {
        /// Done; for actions on the recording, the file's size after it.
        case done(fileBytes: Int64?)
        /// No space left on the device (`ENOSPC`, `EDQUOT`); nothing of it was left written.
        case diskFull(SystemError)
        /// Closed, but the summary could not be written.
        case summaryNotWritten(SystemError)
        /// Another failure.
        case failed(any Error)
    }

    // MARK: state

    /// The settings.
    public let settings: Settings
    /// The live analysis, nil without an accelerometer or after it rejected a batch.
    public private(set) var analysis: (pipeline: AnalysisPipeline, analyzers: StandardAnalyzers)? {
        didSet { live = Self.liveFigures(analysis) }
    }
    /// ``steps``, ``currentActivity`` and ``currentActivityConfidence``, read from the analysis
    /// when it changes (each reading copies an analyzer out of the pipeline): every batch report
    /// carries them, and at batch 1 the analysis changes once per 32 batches (the coalescer).
    private var live: (steps: Int?, activity: ActivityClass?, confidence: Double?) = (nil, nil, nil)
    /// Why the analysis stopped, if it did (the capture goes on).
    public private(set) var analysisProblem: String?
    /// The recordings written so far, in order (file names).
    public private(set) var recordings: [String] = []
    /// The session's summary, once finished.
    public private(set) var summary: SessionSummary?
    /// Whether the session failed (a full disk with nothing to delete, a write error).
    public private(set) var failure: SessionFailure?

    struct OpenRecording {
        var name: String
        var path: String
        var sequence: Int
        var baseline: TallyBaseline
        var first: Int64?
        var last: Int64?
        var bytes: Int64 = 0
        /// Batches of rows written to it (appends that completed).
        var writtenBatches = 0
        var events = 0
        var startUTC: String?
        var clockSync: String
        var bootID: String?
        var lastCheckpointSample: Int64?
        var lostEventWritten = false
        /// ``RecordingNaming/checkpointPath(of:)`` of ``path``, made once (a checkpoint is
        /// written every second).
        var checkpointPath: String
    }

    /// The actions to hand out, oldest first: moved out of the front (no copy, no shifting of the
    /// rest), the storage kept from input to input (a batch's actions allocate nothing).
    struct ActionQueue {
        private var items: [Action?] = []
        private var head = 0

        var isEmpty: Bool { head >= items.count }

        mutating func append(_ a: Action) { items.append(a) }

        mutating func append(contentsOf actions: [Action]) { for a in actions { items.append(a) } }

        mutating func insertAtFront(_ a: Action) { insertAtFront(contentsOf: [a]) }

        mutating func insertAtFront(contentsOf actions: [Action]) {
            items.insert(contentsOf: actions.map { Optional($0) }, at: head)
        }

        mutating func popFirst() -> Action? {
            guard head < items.count else { return nil }
            let a = items[head].take()
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            }
            return a
        }

        mutating func replace(with actions: [Action]) {
            items = actions.map { Optional($0) }
            head = 0
        }
    }

    var current: OpenRecording?
    var sequence = 0
    var recordingNumber = 0
    var stored: [StoredRecording]
    var closedOrder: Int64 = Int64.max / 2
    var devices: [CaptureStatistics.Device] = []
    var identities: [DeviceIdentity] = []
    var progress = CaptureMachine.Progress()
    var sessionBaseline: TallyBaseline?
    var sessionFirst: Int64?
    var sessionLast: Int64?
    var sessionEvents = 0
    var sessionStartUTC: String?
    var sessionClockSync: String?
    var bootID: String?
    var pauses = 0
    var pausedNs: Int64 = 0
    var pauseStart: Int64?
    var losses = 0
    var lostNs: Int64 = 0
    var lostStart: Int64?
    var lastRecordingName: String?
    var queue = ActionQueue()
    var inFlight: Action?
    var began = false
    var closed = false
    /// Small deliveries (per-sample capture) joined before the analysis: up to 32 samples or
    /// 250 ms (``MotionAnalysis/DeliveryCoalescer``); results are batch-size invariant, and the
    /// per-batch figures lag by at most that much.
    var coalescer = DeliveryCoalescer()

    /// Creates a machine.
    public init(settings: Settings) {
        self.settings = settings
        stored = settings.stored
        if settings.analyse { analysis = try? StandardAnalyzers.pipeline(declaredRateHz: nil, sensors: settings.sensors) }
        live = Self.liveFigures(analysis)
    }

    // MARK: driving

    /// Applies `input` and returns the first action it calls for (nil: nothing to do).
    public mutating func handle(_ input: Input) -> Action? {
        switch input {
        case let .begin(devices, identities, clock): begin(devices, identities, clock)
        case let .batch(batch, p, clock, report): receive(batch, p, clock, report: report)
        case let .mark(m, p): mark(m, p)
        case let .close(reason, p): close(reason, p)
        }
        return next()
    }

    /// ``handle(_:)`` of a batch (`.batch(batch, p, clock: clock, report: report)`) without
    /// building the input or handing out the first action: whether there is one to take
    /// (``nextAction()``). Most batches have none (no recording, no report due): this path copies
    /// neither the input nor an empty action.
    public mutating func receiveBatch(_ batch: SampleBatch, _ p: CaptureMachine.Progress, clock: ClockReading?, report: Bool) -> Bool {
        receive(batch, p, clock, report: report)
        return !queue.isEmpty
    }

    /// The next action after ``receiveBatch(_:_:clock:report:)`` said there is one.
    public mutating func nextAction() -> Action? { next() }

    /// Takes the result of the last action and returns the next one (nil: done with this input).
    public mutating func completed(_ result: ActionResult) -> Action? {
        guard let action = inFlight.take() else { return next() }
        // Switched on the result, then the action (not on a tuple of both: an action is large, and
        // a tuple would copy it once more per action).
        switch result {
        case .diskFull(let e):
            let path: String
            switch action {
            case .open(let p, _, _): path = p
            case .checkpoint(let p, _): path = p
            default: path = current?.path ?? "the recording"
            }
            if let victim = settings.retention.victimOnDiskFull(stored: stored) {
                let log = Action.log(.diskFull(path: path, detail: e.description, deleting: true), sequence: 0)
                queue.insertAtFront(contentsOf: [log] + deletion(victim, .diskFull) + [action])
                stored.removeAll { $0.name == victim.name }
            } else if case .checkpoint = action {
                // A checkpoint that does not fit is not worth stopping for: the rows are safe.
                queue.insertAtFront(.log(.warning("the checkpoint could not be written (\(e)); recovery would report wake-ups and CPU time as unknown"), sequence: 0))
            } else {
                stop(.diskFull(path: path, error: e), event: .diskFull(path: path, detail: e.description, deleting: false))
            }
        case .done(let bytes):
            switch action {
            case .open: current?.bytes = bytes ?? 0
            case .appendRows:
                if let b = bytes { current?.bytes = b }
                current?.writtenBatches += 1
            case .appendEvent: if let b = bytes { current?.bytes = b }
            case .closeRecording(_, let summary, _): recordingClosed(summary, summaryWritten: true)
            default: break
            }
        case .summaryNotWritten:
            if case .closeRecording(_, let summary, _) = action { recordingClosed(summary, summaryWritten: false) }
        case .failed(let e):
            switch action {
            case .delete(let name, _, _):
                queue.insertAtFront(.log(.warning("could not delete \(name): \(e)"), sequence: 0))
            case .checkpoint:
                queue.insertAtFront(.log(.warning("the checkpoint could not be written: \(e)"), sequence: 0))
            case .closeRecording(let p, _, _):
                queue.insertAtFront(.log(.warning("closing the recording failed (\(e)); run `motionbatch recover` on \(p)"), sequence: 0))
            case .open(let path, _, _):
                // The recording never existed: nothing to close or summarise.
                if let c = current, c.path == path {
                    recordings.removeAll { $0 == c.name }
                    current = nil
                }
                stop(.io(path: path, detail: "\(e)"), event: .warning("the recording could not be created: \(e)"))
            default:
                let f: SessionFailure = .io(path: current?.path ?? "", detail: "\(e)")
                stop(f, event: .warning("writing failed: \(e)"))
            }
        }
        return next()
    }

    /// The log line of a recording closed (its summary written or not).
    private mutating func recordingClosed(_ summary: SessionSummary, summaryWritten written: Bool) {
        if case let .recording(name, _) = summary.scope {
            queue.insertAtFront(.log(.recordingClosed(name: name, end: summary.end, samples: summary.tally.samples, summaryWritten: written), sequence: 0))
        }
    }

    /// The next action; messages (reports, log events, the summary) are numbered as they go out,
    /// so that their sequence numbers follow the order they are handed over in.
    mutating func next() -> Action? {
        guard var a = queue.popFirst() else { return nil }
        switch a {
        case .report(var r): r.sequence = takeSequence(); a = .report(r)
        case .log(let e, _): a = .log(e, sequence: takeSequence())
        case .finished(let s, _): a = .finished(s, sequence: takeSequence())
        default: break
        }
        inFlight = a
        return a
    }

    mutating func takeSequence() -> Int {
        sequence += 1
        return sequence
    }

    mutating func stop(_ f: SessionFailure, event: SessionEvent) {
        failure = failure ?? f
        queue.replace(with: [.log(event, sequence: 0), .fail(f)])
        current = current.map { c in var c = c; c.lostEventWritten = true; return c }  // nothing more is written to it
    }

    // MARK: inputs

    mutating func begin(_ devices: [CaptureStatistics.Device], _ identities: [DeviceIdentity], _ clock: ClockReading) {
        self.devices = devices
        self.identities = identities
        bootID = clock.bootID
        if !began {
            began = true
            sessionBaseline = baseline(at: clock.monotonicNanoseconds)
            sessionStartUTC = clock.sync.synchronized ? UTCTime.iso8601(clock.wallNanoseconds) : nil
            sessionClockSync = clock.sync.description
            queue.append(.log(.started(devices: identities, output: outputDescription), sequence: 0))
        }
        if settings.output != .none, current == nil, failure == nil {
            openRecording(clock)
            applyRetention()
        }
    }

    mutating func receive(_ batch: SampleBatch, _ p: CaptureMachine.Progress, _ clock: ClockReading?, report wanted: Bool = true) {
        guard let first = batch.samples.first, let last = batch.samples.last else { progress = p; return }
        if failure == nil, settings.output != .none {
            if let c = current, settings.rotation.rotates(beforeBatchAt: first.timestamp, recordingStart: c.first, recordingBytes: c.bytes) {
                // The figures before this batch close the old recording and start the new one.
                progress.now = p.now
                closeRecording(.rotated, at: p.now)
                openRecording(clock ?? ClockReading(wallNanoseconds: 0, sync: .init(synchronized: false), monotonicNanoseconds: p.now, bootID: bootID))
                applyRetention()
            }
        }
        progress = p
        analyse(batch)
        if failure == nil, settings.output != .none {
            if current != nil {
                current!.first = current!.first ?? first.timestamp
                current!.last = last.timestamp
                queue.append(.appendRows(batch))
                if checkpointDue(last.timestamp) {
                    current!.lastCheckpointSample = last.timestamp
                    queue.append(.checkpoint(path: current!.checkpointPath, checkpoint()))
                }
                if settings.retention.maxDiskBytes != nil { applyRetention() }
            }
        }
        sessionFirst = sessionFirst ?? first.timestamp
        sessionLast = last.timestamp
        if wanted { queue.append(.report(report(batch))) }
    }

    mutating func mark(_ m: CaptureMachine.Mark, _ p: CaptureMachine.Progress) {
        progress = p
        switch m {
        case .paused(let at):
            interruptAnalysis(at: at)
            pauses += 1
            pauseStart = at
            writeEvent(RecordingEvent(.pause, at: at))
            queue.append(.log(.paused(at: at), sequence: 0))
        case .resumed(let at):
            let d = at - (pauseStart ?? at)
            pausedNs += d
            pauseStart = nil
            writeEvent(RecordingEvent(.resume, at: at))
            queue.append(.log(.resumed(at: at, pausedNanoseconds: d), sequence: 0))
        case let .deviceLost(at, state):
            interruptAnalysis(at: at)
            if let s = pauseStart { pausedNs += at - s; pauseStart = nil }
            losses += 1
            lostStart = at
            writeEvent(RecordingEvent(.lost, at: at, attributes: [.init("state", state.name)]))
            current?.lostEventWritten = true
            queue.append(.log(.deviceLost(at: at, state: state, reconnecting: true), sequence: 0))
            closeRecording(.lost, at: at)
        case let .deviceBack(at, lostAt):
            let gap = at - (lostStart ?? lostAt)
            lostNs += gap
            lostStart = nil
            writeEvent(RecordingEvent(.reconnected, at: at, attributes: [.init("lost_at", String(lostAt)), .init("gap_ns", String(gap))]))
            queue.append(.log(.reconnected(at: at, gapNanoseconds: gap), sequence: 0))
        }
    }

    mutating func close(_ reason: CaptureStopReason, _ p: CaptureMachine.Progress) {
        guard !closed else { return }
        closed = true
        progress = p
        flushAnalysis()
        if let a = analysis {
            var pipeline = a.pipeline
            do throws(AnalysisFailure) { try pipeline.finish(); analysis = (pipeline, a.analyzers) } catch { stopAnalysis(error) }
        }
        let end = Self.end(of: reason, failure: failure)
        if case .lost(let state) = reason, current != nil, current?.lostEventWritten == false {
            writeEvent(RecordingEvent(.lost, at: p.now, attributes: [.init("state", state.name)]))
            losses += 1
            lostStart = p.now
            queue.append(.log(.deviceLost(at: p.now, state: state, reconnecting: false), sequence: 0))
        }
        if case .diskFull = failure, let c = current, c.writtenBatches == 0 {
            // The disk filled on the recording's header or first rows (a rotation had just opened
            // it): it holds no row, so it is removed rather than left as a recording of no sample.
            discardEmpty(c)
        }
        if current != nil { closeRecording(end, at: p.now) }
        let s = sessionSummary(end, at: p.now)
        summary = s
        queue.append(.log(.stopped(end: end, samples: p.samples), sequence: 0))
        queue.append(.finished(s, sequence: 0))
    }

    /// The summary's end for a capture's stop reason.
    static func end(of reason: CaptureStopReason, failure: SessionFailure?) -> SessionSummary.End {
        if case .diskFull = failure { return .diskFull }
        switch reason {
        case .duration: return .duration
        case .sampleCount: return .samples
        case .signal: return .signal
        case .lost: return .lost
        case .failed: return .failed
        }
    }

    // MARK: recordings

    var outputDescription: String? {
        switch settings.output {
        case .none: nil
        case .file(let p, _): p
        case .directory(let d): d
        }
    }

    mutating func openRecording(_ clock: ClockReading) {
        recordingNumber += 1
        let path: String
        let name: String
        var replace = false
        switch settings.output {
        case .none: return
        case let .file(p, overwrite):
            path = RecordingNaming.continuation(of: p, number: recordingNumber)
            name = path.split(separator: "/").last.map(String.init) ?? path
            replace = overwrite && recordingNumber == 1
        case .directory(let dir):
            let taken = Set(stored.map(\.name) + recordings)
            name = RecordingNaming.recordingName(stem: RecordingNaming.stem(for: clock), taken: taken)
            path = (dir.hasSuffix("/") ? dir : dir + "/") + name
        }
        let startUTC = clock.sync.synchronized ? UTCTime.iso8601(clock.wallNanoseconds) : nil
        current = OpenRecording(name: name, path: path, sequence: recordingNumber, baseline: baseline(at: clock.monotonicNanoseconds),
                                startUTC: startUTC, clockSync: clock.sync.description, bootID: clock.bootID,
                                checkpointPath: RecordingNaming.checkpointPath(of: path))
        recordings.append(name)
        queue.append(.open(path: path, header: header(clock, startUTC: startUTC), replace: replace))
        queue.append(.log(.recordingOpened(name: name, sequence: recordingNumber), sequence: 0))
        lastRecordingName = name
    }

    mutating func closeRecording(_ end: SessionSummary.End, at now: Int64) {
        flushAnalysis()  // the recording's figures include every sample it holds
        guard let c = current else { return }
        let s = recordingSummary(c, end, at: now)
        queue.append(.closeRecording(summaryPath: RecordingNaming.summaryPath(of: c.path), summary: s, checkpointPath: c.checkpointPath))
        if case .directory = settings.output {
            closedOrder += 1
            stored.append(StoredRecording(name: c.name, bytes: c.bytes, modified: closedOrder))
        }
        current = nil
    }

    /// Removes the open recording `c`, which holds no row (its header only): its file, summary
    /// and checkpoint paths, logged as a deletion because the disk is full; it is no longer one
    /// of the session's recordings.
    mutating func discardEmpty(_ c: OpenRecording) {
        queue.append(contentsOf: deletion(name: c.name, path: c.path, .diskFull))
        recordings.removeAll { $0 == c.name }
        current = nil
    }

    mutating func writeEvent(_ e: RecordingEvent) {
        sessionEvents += 1
        guard current != nil, failure == nil else { return }
        current!.events += 1
        queue.append(.appendEvent(e))
    }

    mutating func applyRetention() {
        guard case .directory = settings.output, settings.retention.isActive else { return }
        let cur = current.map { StoredRecording(name: $0.name, bytes: $0.bytes, modified: .max) }
        for v in settings.retention.victims(stored: stored, current: cur) {
            queue.append(contentsOf: deletion(v.recording, v.overCount ? .keep : .maxDisk))
            stored.removeAll { $0.name == v.recording.name }
        }
    }

    /// The log line and the deletion of a finished recording and its side files.
    mutating func deletion(_ v: StoredRecording, _ reason: SessionEvent.DeletionReason) -> [Action] {
        guard case .directory(let dir) = settings.output else { return [] }
        return deletion(name: v.name, path: (dir.hasSuffix("/") ? dir : dir + "/") + v.name, reason)
    }

    /// The actions that delete recording `name` at `path` with its summary and checkpoint, logged.
    func deletion(name: String, path: String, _ reason: SessionEvent.DeletionReason) -> [Action] {
        [.log(.deleted(name: name, reason: reason), sequence: 0),
         .delete(name: name, paths: [path, RecordingNaming.summaryPath(of: path), RecordingNaming.checkpointPath(of: path)], reason: reason)]
    }

    /// The shortest sample time between two checkpoints with `--fsync batch`, ns.
    static let minimumCheckpointInterval: Int64 = 1_000_000_000

    func checkpointDue(_ last: Int64) -> Bool {
        switch settings.fsync {
        case .everyBatch:
            // The rows are synced every batch; the checkpoint (process figures only, an atomic
            // replace costing several synchronous writes) at most once per second of samples, so
            // that a per-sample capture does not pay it per sample (kernel test 57).
            guard let previous = current?.lastCheckpointSample else { return true }
            return last - previous >= Self.minimumCheckpointInterval
        case .onClose: return false
        case .interval(let s):
            guard let previous = current?.lastCheckpointSample ?? current?.first else { return true }
            return Double(last - previous) >= s * 1e9
        }
    }

    func header(_ clock: ClockReading, startUTC: String?) -> RecordingHeader {
        var meta: [String: String] = [
            RecordingKey.device: devices.map(\.name).joined(separator: "+"),
            RecordingKey.source: settings.source,
            RecordingKey.session: settings.session,
            RecordingKey.sequence: String(recordingNumber),
            RecordingKey.clockSync: clock.sync.description,
            RecordingKey.startMonotonicNs: String(clock.monotonicNanoseconds),
            RecordingKey.batching: settings.batching,
        ]
        if let b = clock.bootID { meta[RecordingKey.bootID] = b }
        if let s = startUTC { meta[RecordingKey.startUTC] = s }
        if let r = settings.requestedRateHz { meta[RecordingKey.requestedHz] = r.compactText }
        if let r = devices.first?.actualRate { meta[RecordingKey.actualHz] = r.compactText }
        if let d = devices.first { meta[RecordingKey.clock] = d.hasTimestamp ? "iio \(d.timestampClock ?? "unknown")" : "arrival (monotonic)" }
        if let previous = lastRecordingName { meta[RecordingKey.continues] = previous }
        for (k, identity) in identities.enumerated() { meta[RecordingKey.deviceIdentityPrefix + String(k + 1)] = identity.headerValue }
        return RecordingHeader(sensors: settings.sensors, metadata: meta)
    }

    // MARK: analysis

    mutating func analyse(_ batch: SampleBatch) {
        guard analysis != nil, let joined = coalescer.add(batch) else { return }
        consume(joined)
    }

    /// Hands what the coalescer holds to the analysis (before an interruption or the end).
    mutating func flushAnalysis() {
        guard analysis != nil, let rest = coalescer.flush() else { return }
        consume(rest)
    }

    private mutating func consume(_ batch: SampleBatch) {
        guard var a = analysis else { return }
        analysis = nil  // keep the pipeline uniquely referenced while it is mutated
        do throws(AnalysisFailure) {
            try a.pipeline.consume(batch)
            analysis = a
        } catch {
            stopAnalysis(error)
        }
    }

    mutating func interruptAnalysis(at t: Int64) {
        flushAnalysis()
        guard var a = analysis else { return }
        analysis = nil
        do throws(AnalysisFailure) {
            try a.pipeline.interrupt(at: t)
            analysis = a
        } catch {
            stopAnalysis(error)
        }
    }

    mutating func stopAnalysis(_ f: AnalysisFailure) {
        analysisProblem = f.description
        analysis = nil
        queue.append(.log(.warning("the live analysis stopped: \(f.description) (the capture and the recording go on)"), sequence: 0))
    }

    /// The capture's figures at the last batch, at monotonic time `now` (for a mark, which comes
    /// without figures of its own).
    public func lastProgress(at now: Int64) -> CaptureMachine.Progress {
        var p = progress
        p.now = now
        return p
    }

    /// The activity segments so far (the open one last), nil without analysis.
    public var activity: ActivityTimeline? { analysis.map { $0.pipeline.result(of: $0.analyzers.activity) } }

    /// The current activity's confidence (0-100), nil when not analysed. O(1).
    public var currentActivityConfidence: Double? { live.confidence }

    /// The current activity, nil without analysis or before the first window.
    public var currentActivity: ActivityClass? { live.activity }

    /// The live figures of `analysis` (see ``live``).
    private static func liveFigures(_ analysis: (pipeline: AnalysisPipeline, analyzers: StandardAnalyzers)?) -> (steps: Int?, activity: ActivityClass?, confidence: Double?) {
        guard let a = analysis else { return (nil, nil, nil) }
        let activity = a.pipeline.analyzer(a.analyzers.activity)
        return (a.pipeline.analyzer(a.analyzers.steps).count, activity.current, activity.currentConfidence)
    }

    /// Seconds per activity class over `[from, to]` (sample time), every class listed; nil
    /// without analysis.
    func activityTime(from: Int64?, to: Int64?) -> [(activity: String, seconds: Double)]? {
        guard let timeline = activity, let from, let to else { return analysis == nil ? nil : [] }
        let seconds = timeline.seconds(from: from, to: to + 1)
        return ActivityClass.allCases.map { ($0.rawValue, seconds[$0.index]) }
    }

    /// Steps counted so far, nil without analysis.
    public var steps: Int? { live.steps }

    /// Steps inferred in the counter's silences during gait (``MotionAnalysis/InferredSteps``)
    /// over `[from, to]` (sample time), from the analysis so far; nil without analysis or with
    /// ``Settings/inferSteps`` off.
    /// - Complexity: O(steps + segments) of the whole session: once per summary.
    func inferredSteps(from: Int64?, to: Int64?) -> Int? {
        guard settings.inferSteps, let a = analysis else { return nil }
        guard let from, let to else { return 0 }
        let inferred = a.analyzers.stepSummary(of: a.pipeline).inferred?.times ?? []
        return inferred.reduce(0) { $0 + ($1 >= from && $1 <= to ? 1 : 0) }
    }

    // MARK: figures

    var hasHardwareFIFO: Bool { devices.contains { $0.plan.expectedBurst != nil || ($0.hwfifoTimeout ?? 0) > 0 } }

    /// Device deliveries so far: bursts with a hardware FIFO, one per sample per device without.
    func deliveries(_ p: CaptureMachine.Progress) -> Int {
        hasHardwareFIFO ? p.deviceDeliveries : p.samples * max(1, devices.count)
    }

    func baseline(at t: Int64) -> TallyBaseline {
        TallyBaseline(progress: progress, deliveries: deliveries(progress), steps: steps, monotonic: t,
                      pauses: pauses, pausedNanoseconds: pausedNs + (pauseStart.map { t - $0 } ?? 0),
                      losses: losses, lostNanoseconds: lostNs + (lostStart.map { t - $0 } ?? 0))
    }

    func tally(from b: TallyBaseline, at now: Int64) -> SessionTally {
        var t = SessionTally()
        let p = progress
        t.samples = p.samples - b.progress.samples
        t.batches = p.batches - b.progress.batches
        t.lostSamples = p.lostSamples - b.progress.lostSamples
        t.gaps = p.gaps - b.progress.gaps
        t.deviceDeliveries = deliveries(p) - b.deliveries
        t.userspaceReturns = p.userspaceReturns - b.progress.userspaceReturns
        if let c = p.counters {
            let z = ProcessCounters(voluntarySwitches: 0, involuntarySwitches: 0, userCPUNanoseconds: 0, systemCPUNanoseconds: 0)
            let d = c.since(b.progress.counters ?? z)
            t.schedulerWakeups = d.voluntarySwitches
            t.cpuNanoseconds = d.userCPUNanoseconds + d.systemCPUNanoseconds
        }
        if let s = steps, let s0 = b.steps ?? (b.progress.samples == 0 ? 0 : nil) { t.steps = s - s0 }
        t.pauses = pauses - b.pauses
        t.pausedNanoseconds = pausedNs + (pauseStart.map { now - $0 } ?? 0) - b.pausedNanoseconds
        t.deviceLosses = losses - b.losses
        t.lostNanoseconds = lostNs + (lostStart.map { now - $0 } ?? 0) - b.lostNanoseconds
        t.elapsedNanoseconds = max(0, now - b.monotonic)
        return t
    }

    func battery(_ t: SessionTally) -> BatteryEstimate? {
        guard let board = settings.board, let cpu = t.cpuNanoseconds else { return nil }
        return BatteryEstimate.measured(on: board, processCPUSeconds: Double(cpu) / 1e9, deviceDeliveries: t.deviceDeliveries,
                                        durationSeconds: Double(t.elapsedNanoseconds) / 1e9)
    }

    func warnings() -> [String] {
        analysisProblem.map { ["the live analysis stopped: \($0)"] } ?? []
    }

    func recordingTally(_ c: OpenRecording, at now: Int64) -> SessionTally {
        var t = tally(from: c.baseline, at: now)
        t.firstSample = c.first
        t.lastSample = c.last
        t.events = c.events
        t.bytes = c.bytes
        return t
    }

    func recordingSummary(_ c: OpenRecording, _ end: SessionSummary.End, at now: Int64) -> SessionSummary {
        let t = recordingTally(c, at: now)
        return SessionSummary(scope: .recording(name: c.name, sequence: c.sequence), session: settings.session, complete: true, end: end,
                              startUTC: c.startUTC, clockSync: c.clockSync, bootID: c.bootID, tally: t,
                              activityTime: activityTime(from: c.first, to: c.last), inferredSteps: inferredSteps(from: c.first, to: c.last),
                              battery: battery(t), warnings: warnings())
    }

    func sessionSummary(_ end: SessionSummary.End, at now: Int64) -> SessionSummary {
        var t = sessionBaseline.map { tally(from: $0, at: now) } ?? SessionTally()
        t.firstSample = sessionFirst
        t.lastSample = sessionLast
        t.events = sessionEvents
        return SessionSummary(scope: .session(recordings: recordings), session: settings.session, complete: true, end: end,
                              startUTC: sessionStartUTC, clockSync: sessionClockSync, bootID: bootID, tally: t,
                              activityTime: activityTime(from: sessionFirst, to: sessionLast), inferredSteps: inferredSteps(from: sessionFirst, to: sessionLast),
                              battery: battery(t), warnings: warnings())
    }

    func checkpoint() -> SessionCheckpoint {
        let c = current!
        return SessionCheckpoint(session: settings.session, recording: c.name, sequence: c.sequence,
                                 tally: recordingTally(c, at: progress.now), startUTC: c.startUTC, clockSync: c.clockSync, bootID: c.bootID)
    }

    mutating func report(_ batch: SampleBatch) -> BatchReport {
        let p = progress
        let start = sessionBaseline?.progress.counters
        let z = ProcessCounters(voluntarySwitches: 0, involuntarySwitches: 0, userCPUNanoseconds: 0, systemCPUNanoseconds: 0)
        let c = p.counters.map { $0.since(start ?? z) }
        return BatchReport(session: settings.session, sequence: 0, recording: current?.name,
                           firstSample: batch.samples[0].timestamp, lastSample: batch.samples[batch.count - 1].timestamp,
                           samples: batch.count, totalSamples: p.samples, lostSamples: p.lostSamples, steps: steps,
                           activity: currentActivity?.rawValue, activityConfidence: currentActivityConfidence,
                           deviceDeliveries: deliveries(p), schedulerWakeups: c?.voluntarySwitches, userspaceReturns: p.userspaceReturns,
                           elapsedNanoseconds: max(0, p.now - (sessionBaseline?.monotonic ?? p.now)),
                           cpuNanoseconds: c.map { $0.userCPUNanoseconds + $0.systemCPUNanoseconds })
    }
}

/// Why a session stopped the capture.
public enum SessionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No space left and nothing that may be deleted (`--max-disk` not given, or nothing left).
    case diskFull(path: String, error: SystemError)
    /// A recording could not be written.
    case io(path: String, detail: String)

    /// One sentence with the remedy.
    public var description: String {
        switch self {
        case let .diskFull(path, error):
            "the disk is full (\(error.errno.description) writing \(path)): what was written is saved; free some space, or give --max-disk so that the oldest recordings are deleted"
        case let .io(path, detail): "writing \(path) failed: \(detail)"
        }
    }
}
