import MotionCore
import MotionIIO
import MotionSystem

/// Receives what a session reports, as it happens: the command line prints NDJSON, log lines and
/// a live view from it; a fleet publisher would send the same values.
public protocol SessionObserver {
    /// A batch was delivered (and written).
    mutating func batch(_ report: BatchReport)
    /// A batch was delivered (and written), with its samples (default: ``batch(_:)``; an
    /// observer that needs the samples, such as MotionFleet's `--publish-samples`, implements it).
    mutating func batch(_ report: BatchReport, samples: SampleBatch)
    /// Something to log.
    mutating func event(_ event: SessionEvent, sequence: Int)
    /// The session ended; its summary.
    mutating func finished(_ summary: SessionSummary, sequence: Int)
    /// Whether it would do anything with the report of a batch whose last sample is at
    /// `lastSample` (ns; default true). An observer that shows or sends no report for it (no
    /// `--ndjson`, no publishing, and a live view not due for a redraw) says false, and the session
    /// makes none: at one sample per wake-up making the report is much of the per-batch work.
    func wantsBatchReport(endingAt lastSample: Int64) -> Bool
    /// Whether it takes batches joined from several wake-ups (default false): true when it needs
    /// no report per wake-up (no `--ndjson`, no publishing; a live view redrawn every 250 ms is
    /// served by joined batches). With no recording either, a per-sample capture then joins up to
    /// 32 samples or 250 ms into one batch (``MotionIIO/CaptureSink/maxJoinedSamples``).
    var acceptsJoinedBatches: Bool { get }
    /// How long a joined batch may hold a sample (ns; default 250 ms, for a live view redrawn four
    /// times a second). An observer that shows nothing per batch (no live view: stderr a file or
    /// the journal) may say up to 1 s: the per-sample capture's work after its wake-ups (machine,
    /// session, analysis) then runs once a second; the results are the same (the analysis does
    /// not depend on how samples are batched), and event lines come up to a second later.
    var joinedBatchNanoseconds: Int64 { get }
}

extension SessionObserver {
    /// True: every batch is reported.
    public func wantsBatchReport(endingAt lastSample: Int64) -> Bool { true }

    /// False: a batch per wake-up.
    public var acceptsJoinedBatches: Bool { false }

    /// 250 ms.
    public var joinedBatchNanoseconds: Int64 { 250_000_000 }

    /// Tells ``batch(_:)``.
    public mutating func batch(_ report: BatchReport, samples: SampleBatch) { batch(report) }
}

/// The driver of a ``SessionMachine`` and the capture's sink (``MotionIIO/CaptureSink``): it feeds
/// the machine what the capture delivers, with the clocks read, and carries out its actions:
/// recordings through MotionCore's ``MotionCore/RecordingWriter`` (appended and `fsync`ed per
/// batch: a journal), checkpoints and summaries through MotionSystem's ``MotionSystem/AtomicFile``,
/// deletions, and the reports to its ``SessionObserver``. Every decision is the machine's.
public struct SessionRecorder<Observer: SessionObserver>: CaptureSink {
    /// The machine (inspectable after the capture).
    public private(set) var machine: SessionMachine
    private var writer: RecordingWriter?
    /// The batch being fed (handed to the observer with its report).
    private var delivering: SampleBatch?
    private let bootID: String?
    /// The open recording's checkpoint file, replaced once a second (names resolved once), and
    /// the buffer its content is written into: no allocation per checkpoint.
    private var checkpointFile: AtomicRewriter?
    private var checkpointBytes: [UInt8] = []
    /// Who is told. (Stored last: the other properties then lie at offsets that do not depend on
    /// `Observer`, so that the unspecialised per-batch code reaches them without looking up the
    /// type's metadata.)
    public var observer: Observer

    /// Creates a recorder.
    public init(settings: SessionMachine.Settings, observer: Observer) {
        machine = SessionMachine(settings: settings)
        self.observer = observer
        bootID = WallClock.bootID()
    }

    /// The process's counters are read with every batch (wake-ups and CPU time for the reports
    /// and checkpoints).
    public var wantsProcessCounters: Bool { true }

    /// Samples joined into one batch (``MotionIIO/CaptureSink/maxJoinedSamples``) when nothing is
    /// recorded (a recording loses at most its last batch: one wake-up's samples) and the
    /// observer takes joined batches: ``joinedSamples`` per 250 ms of the observer's
    /// ``SessionObserver/joinedBatchNanoseconds`` (32, or 128 for a second); else 1.
    public var maxJoinedSamples: Int {
        joins ? Self.joinedSamples * Int(maxJoinNanoseconds / 250_000_000) : 1
    }

    /// The delay a joined sample may see (``MotionIIO/CaptureSink/maxJoinNanoseconds``): the
    /// observer's ``SessionObserver/joinedBatchNanoseconds`` kept within 250 ms ... 1 s when
    /// batches are joined, else 250 ms (unused).
    public var maxJoinNanoseconds: Int64 {
        joins ? min(max(observer.joinedBatchNanoseconds, 250_000_000), 1_000_000_000) : 250_000_000
    }

    /// Whether per-sample deliveries are joined: nothing recorded, and an observer that takes them.
    private var joins: Bool { machine.settings.output == .none && observer.acceptsJoinedBatches }

    /// Samples per 250 ms of joining (with the capture's 250 ms bound: 0.32 s at 100 Hz).
    public static var joinedSamples: Int { 32 }

    private var clock: ClockReading { ClockReading.now(bootID: bootID) }

    public mutating func begin(_ devices: [CaptureStatistics.Device]) throws {
        let identities = devices.map { $0.identity ?? DeviceIdentity(name: $0.name, parent: nil, id: $0.id) }
        try run(machine.handle(.begin(devices: devices, identities: identities, clock: clock)))
    }

    public mutating func write(_ batch: SampleBatch, progress: CaptureMachine.Progress) throws {
        // The clocks name a recording opened by rotation (the one use of a batch's reading): read
        // only when recordings rotate (`adjtimex` is a system call).
        let c: ClockReading? = machine.settings.output == .none || machine.settings.rotation == .never ? nil : clock
        // No closure over the (generic) observer here: it would be copied, and its metadata
        // looked up, at every batch.
        let count = batch.samples.count
        let report = count == 0 || observer.wantsBatchReport(endingAt: batch.samples[count - 1].timestamp)
        delivering = batch
        defer { delivering = nil }
        if machine.receiveBatch(batch, progress, clock: c, report: report) { try run(machine.nextAction()) }
    }

    public mutating func mark(_ mark: CaptureMachine.Mark) throws {
        try run(machine.handle(.mark(mark, machine.lastProgress(at: MonotonicClock.nanoseconds()))))
    }

    public mutating func close(_ reason: CaptureStopReason, progress: CaptureMachine.Progress) throws {
        try run(machine.handle(.close(reason, progress)))
        if let w = writer { try? w.close(); writer = nil }
    }

    /// Feeds a whole stream through the machine without a device (tests, a replay that records).
    public mutating func feed(_ input: SessionMachine.Input) throws {
        if case .batch(let b, _, _, _) = input { delivering = b }
        defer { delivering = nil }
        try run(machine.handle(input))
    }

    // MARK: actions

    private mutating func run(_ first: SessionMachine.Action?) throws {
        var action = first
        while let a = action {
            if case .fail(let f) = a {
                _ = machine.completed(.done(fileBytes: nil))
                throw f
            }
            let result = perform(a)
            action = machine.completed(result)
        }
    }

    private mutating func perform(_ action: SessionMachine.Action) -> SessionMachine.ActionResult {
        do {
            switch action {
            case let .open(path, header, replace):
                if let w = writer { try? w.close() }
                let w = try RecordingWriter(path: path, header: header, fsync: machine.settings.fsync, replaceExisting: replace)
                writer = w
                return .done(fileBytes: Int64(w.bytesWritten))
            case .appendRows(let batch):
                guard let w = writer else { return .done(fileBytes: nil) }
                try w.append(batch)
                return .done(fileBytes: Int64(w.bytesWritten))
            case .appendEvent(let event):
                guard let w = writer else { return .done(fileBytes: nil) }
                try w.append(event: event)
                return .done(fileBytes: Int64(w.bytesWritten))
            case let .checkpoint(path, checkpoint):
                try writer?.sync()
                checkpoint.encode(into: &checkpointBytes)
                if checkpointFile?.path != path { checkpointFile = try AtomicRewriter(path: path) }
                try checkpointFile!.replace(with: checkpointBytes)
                return .done(fileBytes: nil)
            case let .closeRecording(summaryPath, summary, checkpointPath):
                if let w = writer {
                    writer = nil
                    try w.close()
                }
                do throws(SystemError) {
                    try AtomicFile.write(Array((summary.json.serialized(pretty: true) + "\n").utf8), to: summaryPath)
                } catch {
                    return .summaryNotWritten(error)
                }
                try? Directory.removeFile(checkpointPath)
                if checkpointFile?.path == checkpointPath { checkpointFile = nil }
                return .done(fileBytes: nil)
            case let .delete(_, paths, _):
                for p in paths { try Directory.removeFile(p) }
                return .done(fileBytes: nil)
            case .report(let r):
                if let b = delivering, b.samples.first?.timestamp == r.firstSample, b.count == r.samples {
                    observer.batch(r, samples: b)
                } else {
                    observer.batch(r)
                }
            case let .log(e, sequence):
                observer.event(e, sequence: sequence)
            case let .finished(s, sequence):
                observer.finished(s, sequence: sequence)
            case .fail:
                break
            }
            return .done(fileBytes: nil)
        } catch let e as SystemError where e.errno == .noSpace || e.errno == .quotaExceeded {
            return .diskFull(e)
        } catch {
            return .failed(error)
        }
    }
}
