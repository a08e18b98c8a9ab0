import Foundation
import MotionAnalysis
import MotionCore
import MotionSystem
import MotionTestSupport
import Testing
@testable import MotionIIO
@testable import MotionSession

/// Collects what a session reports.
struct CollectingObserver: SessionObserver {
    var reports: [BatchReport] = []
    var events: [(SessionEvent, Int)] = []
    var summary: SessionSummary?
    mutating func batch(_ report: BatchReport) { reports.append(report) }
    mutating func event(_ event: SessionEvent, sequence: Int) { events.append((event, sequence)) }
    mutating func finished(_ summary: SessionSummary, sequence: Int) { self.summary = summary }
}

/// Collects events and the summary, and shows no batch report (as `capture` with stderr a file).
struct ReportlessObserver: SessionObserver {
    var reports = 0
    var summary: SessionSummary?
    var acceptsJoinedBatches = true
    var joinedBatchNanoseconds: Int64 = 250_000_000
    func wantsBatchReport(endingAt lastSample: Int64) -> Bool { false }
    mutating func batch(_ report: BatchReport) { reports += 1 }
    mutating func event(_ event: SessionEvent, sequence: Int) {}
    mutating func finished(_ summary: SessionSummary, sequence: Int) { self.summary = summary }
}

/// The recorder on real files in a scratch directory: what a session leaves on disk.
@Suite struct SessionRecorderTests {
    static let second: Int64 = 1_000_000_000

    static func settings(_ output: SessionMachine.Output) -> SessionMachine.Settings {
        var s = SessionMachine.Settings(session: "0123456789abcdef")
        s.output = output
        s.source = "iio local:"
        s.batching = "latency 1 s"
        return s
    }

    /// Runs `seconds` of the walk through a recorder; `kill` stops before the close (as SIGKILL).
    static func record(_ s: SessionMachine.Settings, seconds: Double, marks: [(Int, CaptureMachine.Mark)] = [],
                       kill: Bool = false, batch: Int = 100) throws -> (SessionRecorder<CollectingObserver>, FakeCapture) {
        var cap = FakeCapture(seconds: seconds)
        var r = SessionRecorder(settings: s, observer: CollectingObserver())
        let d = FakeCapture.device()
        try r.feed(.begin(devices: [d], identities: [d.identity!], clock: cap.clock(at: FakeCapture.start)))
        var k = 0
        for start in stride(from: 0, to: cap.samples.count, by: batch) {
            let (b, p, c) = cap.deliver(start..<min(start + batch, cap.samples.count))
            try r.feed(.batch(b, p, clock: c))
            k += 1
            for m in marks where m.0 == k { try r.feed(.mark(m.1, cap.progress(at: p.now + 1_000_000))) }
        }
        if !kill { try r.feed(.close(.signal(15), cap.progress(at: cap.progress.now + 2_000_000))) }
        return (r, cap)
    }

    @Test func aRecordingReadsBackWithItsEventsAndReplaysToTheLiveResults() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-session").path
        let t0 = FakeCapture.start
        let (r, cap) = try Self.record(Self.settings(.file(dir + "/walk.csv", overwrite: false)), seconds: 30,
                                       marks: [(10, .paused(at: t0 + 10 * Self.second)), (10, .resumed(at: t0 + 12 * Self.second))])
        let rec = try Recording.read(path: dir + "/walk.csv")
        #expect(rec.samples.count == cap.samples.count && rec.samples.map(\.timestamp) == cap.samples.map(\.timestamp))
        #expect(rec.events.map(\.kind) == [.pause, .resume] && rec.events[0].sampleIndex == 1000)
        #expect(rec.header.metadata[RecordingKey.session] == "0123456789abcdef")
        // The live analysis was interrupted at the pause, like the replay of the file.
        let (replay, h) = try StandardAnalyzers.replay(path: dir + "/walk.csv", policy: .samples(100))
        #expect(replay.sessions[0].pipeline.result(of: h.steps).count == r.machine.steps)
        #expect(replay.sessions[0].pipeline.result(of: h.activity) == r.machine.activity)
        // Summary beside it, no checkpoint left.
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/walk.summary.json"))) as? [String: Any]
        #expect(summary?["samples"] as? Int == cap.samples.count && summary?["steps"] as? Int == r.machine.steps)
        #expect((summary?["pauses"] as? [String: Any])?["count"] as? Int == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/walk.checkpoint.json"))
        // The observer saw every batch, the events, the summary; numbered in order.
        #expect(r.observer.reports.count == 30 && r.observer.summary?.tally.samples == cap.samples.count)
        let numbers = r.observer.reports.map(\.sequence) + r.observer.events.map(\.1)
        #expect(Set(numbers).count == numbers.count)
    }

    /// An observer that shows no per-batch report gets none, and the session's results and
    /// summary are those of one that does.
    @Test func noReportIsMadeForAnObserverThatShowsNone() throws {
        var cap = FakeCapture(seconds: 20)
        var r = SessionRecorder(settings: Self.settings(.none), observer: ReportlessObserver())
        let d = FakeCapture.device()
        try r.feed(.begin(devices: [d], identities: [d.identity!], clock: cap.clock(at: FakeCapture.start)))
        for start in stride(from: 0, to: cap.samples.count, by: 10) {
            let (b, p, _) = cap.deliver(start..<min(start + 10, cap.samples.count))
            try r.write(b, progress: p)
        }
        try r.feed(.close(.signal(15), cap.progress(at: cap.progress.now + 2_000_000)))
        let (reporting, _) = try Self.record(Self.settings(.none), seconds: 20, batch: 10)
        #expect(r.observer.reports == 0 && reporting.observer.reports.count == cap.samples.count / 10)
        #expect(r.machine.steps == reporting.machine.steps && r.machine.activity == reporting.machine.activity)
        #expect(r.observer.summary?.tally.samples == cap.samples.count && r.observer.summary?.tally.steps == reporting.observer.summary?.tally.steps)
        #expect(r.observer.summary?.inferredSteps == reporting.observer.summary?.inferredSteps)
    }

    /// Per-sample deliveries are joined by the capture (``MotionIIO/CaptureSink/maxJoinedSamples``)
    /// only when nothing is recorded (a recording loses at most one wake-up's samples) and the
    /// observer takes joined batches (not `--ndjson`, not publishing: the default).
    @Test func samplesAreJoinedOnlyWithoutARecordingForAnObserverThatTakesThem() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-session").path
        #expect(SessionRecorder(settings: Self.settings(.none), observer: ReportlessObserver()).maxJoinedSamples == 32)
        #expect(SessionRecorder(settings: Self.settings(.file(dir + "/j.csv", overwrite: false)), observer: ReportlessObserver()).maxJoinedSamples == 1)
        var every = ReportlessObserver()
        every.acceptsJoinedBatches = false
        #expect(SessionRecorder(settings: Self.settings(.none), observer: every).maxJoinedSamples == 1)
        #expect(SessionRecorder(settings: Self.settings(.none), observer: CollectingObserver()).maxJoinedSamples == 1)
    }

    /// How long a joined sample may wait (``MotionIIO/CaptureSink/maxJoinNanoseconds``) is the
    /// observer's (``SessionObserver/joinedBatchNanoseconds``: 1 s without a live view), kept
    /// within 250 ms ... 1 s, with 32 samples allowed per 250 ms (128 for a second: 100 at 100 Hz).
    @Test(arguments: [(Int64(250_000_000), 32, Int64(250_000_000)), (1_000_000_000, 128, 1_000_000_000),
                      (500_000_000, 64, 500_000_000), (10_000_000_000, 128, 1_000_000_000), (0, 32, 250_000_000), (-5, 32, 250_000_000)])
    func theJoiningDelayIsTheObserversWithinBounds(asked: Int64, samples: Int, delay: Int64) throws {
        var observer = ReportlessObserver()
        observer.joinedBatchNanoseconds = asked
        let r = SessionRecorder(settings: Self.settings(.none), observer: observer)
        #expect(r.maxJoinedSamples == samples && r.maxJoinNanoseconds == delay)
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-session").path
        let recording = SessionRecorder(settings: Self.settings(.file(dir + "/j.csv", overwrite: false)), observer: observer)
        #expect(recording.maxJoinedSamples == 1 && recording.maxJoinNanoseconds == 250_000_000)
    }

    /// The live analysis joins small deliveries (``MotionAnalysis/DeliveryCoalescer``): whatever
    /// the batch size, the session ends with the same steps and activity, the joined samples
    /// handed on before a pause and at the close.
    @Test(arguments: [1, 8, 100])  // sizes dividing 1000: the pause comes after the same sample
    func theLiveAnalysisDoesNotDependOnTheBatchSize(batch: Int) throws {
        let t0 = FakeCapture.start
        func run(_ batch: Int) throws -> SessionRecorder<CollectingObserver> {
            try Self.record(Self.settings(.none), seconds: 30, marks: [(1000 / batch, .paused(at: t0 + 10 * Self.second)),
                                                                       (1000 / batch, .resumed(at: t0 + 12 * Self.second))],
                            batch: batch).0
        }
        let reference = try run(100), r = try run(batch)
        #expect((reference.machine.steps ?? 0) > 0)
        #expect(r.machine.steps == reference.machine.steps)
        #expect(r.machine.activity == reference.machine.activity)
        #expect(r.observer.summary?.tally.steps == reference.observer.summary?.tally.steps)
    }

    @Test func aCheckpointDescribesTheSyncedRowsWhileTheRecordingIsOpen() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-session").path
        let (r, _) = try Self.record(Self.settings(.file(dir + "/k.csv", overwrite: false)), seconds: 7, kill: true)
        let c = try SessionCheckpoint.decode(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/k.checkpoint.json"))), file: "k")
        let rows = try Recording.read(path: dir + "/k.csv").samples
        #expect(c.tally.samples == 700 && rows.count == 700 && c.tally.lastSample == rows.last?.timestamp)
        #expect(c.tally.cpuNanoseconds == 7 * 150_000 && c.tally.batches == 7)
        #expect(FileLock.isHeld(dir + "/k.csv"))  // the writer still holds it: "being written"
        withExtendedLifetime(r) {}
    }

    @Test func rotationAndKeepLeaveWholeRecordingsWithSummaries() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-session").path
        var s = Self.settings(.directory(dir))
        s.rotation = .every(nanoseconds: 10 * Self.second)
        s.retention = RetentionPolicy(keep: 3)
        let (r, cap) = try Self.record(s, seconds: 45)
        let contents = try SessionDirectory.contents(of: dir)
        #expect(contents.finished.count == 3 && contents.interrupted.isEmpty && contents.leftovers.isEmpty)
        var all: [Sample] = []
        for f in contents.finished.sorted(by: { $0.name < $1.name }) { all += try Recording.read(path: dir + "/" + f.name).samples }
        // Five recordings of 10 s (the last 5 s); the first two were deleted (keep 3).
        #expect(all.count == cap.samples.count - 2000 && all.first?.timestamp == cap.samples[2000].timestamp)
        #expect(all.map(\.timestamp) == cap.samples[2000...].map(\.timestamp))
        #expect(r.observer.events.filter { if case .deleted(_, .keep) = $0.0 { true } else { false } }.count == 2)
    }
}

/// Recovery of a recording a session did not close: what SIGKILL or a power cut leaves.
@Suite struct RecordingRecoveryTests {
    /// A killed session's recording (the process gone: its descriptor closed without a summary).
    static func killed(seconds: Double = 12) throws -> (String, FakeCapture, Int?) {
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-recover").path
        var steps: Int?
        let cap: FakeCapture
        do {
            let (r, c) = try SessionRecorderTests.record(SessionRecorderTests.settings(.file(dir + "/x.csv", overwrite: false)), seconds: seconds, kill: true)
            steps = r.machine.steps
            cap = c
        }
        return (dir + "/x.csv", cap, steps)
    }

    @Test func recoveryWritesTheSummaryFromTheRowsAndTheCheckpoint() throws {
        let (path, cap, _) = try Self.killed()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let out = try RecordingRecovery.recover(path)
        #expect(out.cutBytes == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)  // rows untouched
        let s = out.summary
        #expect(!s.complete && s.end == .interrupted && s.processFiguresKnown)
        #expect(s.tally.samples == cap.samples.count && s.tally.batches == 12 && s.tally.cpuNanoseconds == 12 * 150_000)
        #expect(s.figuresAsOf == cap.samples.last?.timestamp)
        let (replay, h) = try StandardAnalyzers.replay(path: path, policy: .samples(7))
        #expect(s.tally.steps == replay.sessions[0].pipeline.result(of: h.steps).count)
        #expect(s.session == "0123456789abcdef" && s.scope == .recording(name: "x.csv", sequence: 1))
        #expect(FileManager.default.fileExists(atPath: RecordingNaming.summaryPath(of: path)))
        #expect(!FileManager.default.fileExists(atPath: RecordingNaming.checkpointPath(of: path)))
    }

    @Test(arguments: ["123456", "123456789012,0.1", "1", "#event: pau"])
    func aTornFinalLineIsCutAndNothingElse(_ torn: String) throws {
        let (path, cap, _) = try Self.killed(seconds: 3)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        h.seekToEndOfFile(); h.write(Data(torn.utf8)); try h.close()
        let out = try RecordingRecovery.recover(path)
        #expect(out.cutBytes == torn.utf8.count)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == whole)
        #expect(out.summary.tally.samples == cap.samples.count)
    }

    @Test func withoutACheckpointTheProcessFiguresAreUnknown() throws {
        let (path, _, _) = try Self.killed(seconds: 3)
        try FileManager.default.removeItem(atPath: RecordingNaming.checkpointPath(of: path))
        let s = try RecordingRecovery.recover(path).summary
        #expect(!s.processFiguresKnown && s.figuresAsOf == nil)
        let json = s.json.serialized()
        #expect(json.contains("\"cpu_s\":null") && json.contains("\"batches\":null") && json.contains("\"samples\":300"))
        #expect(s.warnings.contains { $0.contains("no checkpoint") })
    }

    @Test func aMalformedRowIsNotRecoveredAndTheFileIsLeftAlone() throws {
        let (path, _, _) = try Self.killed(seconds: 3)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let i = text.range(of: "\n", options: .backwards, range: text.startIndex..<text.index(text.endIndex, offsetBy: -200))!
        text.insert(contentsOf: "\nnot,a,row", at: i.lowerBound)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: RecordingRecovery.Failure.self) { try RecordingRecovery.recover(path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: RecordingNaming.summaryPath(of: path)))
    }

    @Test func aFileWithoutAWholeHeaderCannotBeRecovered() throws {
        for text in ["", "# motionbatch-recording: 2"] {
            let path = try TestPaths.scratchFile(text, name: "h.csv")
            do { _ = try RecordingRecovery.recover(path); Issue.record("recovered \(text.debugDescription)") } catch {
                #expect(error.problem.contains(text.isEmpty ? "empty" : "no complete line"))
            }
        }
    }

    @Test func aDirectorySaysWhatIsFinishedInterruptedAndLeftOver() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-dir").path
        for (name, text) in [("a.csv", "x"), ("a.summary.json", "{}"), ("b.csv", "y"), ("b.checkpoint.json", "{}"), (".c.csv.0123abcd.tmp", ""), ("notes.txt", "")] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        let c = try SessionDirectory.contents(of: dir)
        #expect(c.finished.map(\.name) == ["a.csv"] && c.finished[0].bytes == 3)
        #expect(c.interrupted == ["b.csv"] && c.leftovers == [".c.csv.0123abcd.tmp"])
        let lock = try #require(try SessionDirectory.lock(dir))
        #expect(SessionDirectory.isLocked(dir))
        #expect(try SessionDirectory.lock(dir) == nil)
        lock.release()
        #expect(!SessionDirectory.isLocked(dir))
    }
}
