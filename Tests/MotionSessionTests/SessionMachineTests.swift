import Foundation
import MotionAnalysis
import MotionCore
@testable import MotionIIO
import MotionSystem
import Testing
import WakeCost
@testable import MotionSession

/// The session machine on a scripted capture: recordings, rotation, retention, a full disk,
/// pauses, a lost device, checkpoints, summaries and reports, without files.
@Suite("SessionMachine")
struct SessionMachineTests {
    static let second: Int64 = 1_000_000_000

    func settings(_ output: SessionMachine.Output = .directory("/data")) -> SessionMachine.Settings {
        var s = SessionMachine.Settings(session: "00112233aabbccdd")
        s.output = output
        s.source = "iio local:"
        s.batching = "latency 1 s"
        return s
    }

    /// Delivers `seconds` of the walk in batches of `batch` samples.
    func run(_ s: SessionMachine.Settings, seconds: Double = 35, batch: Int = 100,
             marks: [(afterBatch: Int, CaptureMachine.Mark)] = [], stop: CaptureStopReason = .signal(15),
             answer: ((SessionMachine.Action) -> SessionMachine.ActionResult)? = nil) -> (MachineRun, FakeCapture) {
        var cap = FakeCapture(seconds: seconds)
        var r = MachineRun(s)
        if let answer { r.answer = answer }
        r.feed(.begin(devices: [FakeCapture.device()], identities: [FakeCapture.device().identity!], clock: cap.clock(at: FakeCapture.start)))
        var k = 0
        for start in stride(from: 0, to: cap.samples.count, by: batch) {
            let (b, p, c) = cap.deliver(start..<min(start + batch, cap.samples.count))
            r.feed(.batch(b, p, clock: c))
            k += 1
            for m in marks where m.afterBatch == k { r.feed(.mark(m.1, cap.progress(at: p.now + 1_000_000))) }
        }
        r.feed(.close(stop, cap.progress(at: cap.progress.now + 3_000_000)))
        return (r, cap)
    }

    @Test func oneRecordingGetsEveryBatchACheckpointEachAndASummary() throws {
        let (r, cap) = run(settings(.file("/data/walk.csv", overwrite: false)), seconds: 12)
        #expect(r.opened == ["/data/walk.csv"])
        let rows = r.actions.compactMap { if case .appendRows(let b) = $0 { return b.count } else { return nil } }
        #expect(rows.count == 12 && rows.reduce(0, +) == cap.samples.count)
        let checkpoints = r.actions.filter { if case .checkpoint = $0 { return true } else { return false } }
        #expect(checkpoints.count == 12)
        let s = try #require(r.closed.first)
        #expect(r.closed.count == 1)
        #expect(s.scope == .recording(name: "walk.csv", sequence: 1) && s.end == .signal && s.complete)
        #expect(s.tally.samples == cap.samples.count && s.tally.batches == 12)
        #expect(s.tally.firstSample == cap.samples.first?.timestamp && s.tally.lastSample == cap.samples.last?.timestamp)
        #expect(s.tally.userspaceReturns == 12 && s.tally.deviceDeliveries == 12 && s.tally.schedulerWakeups == 12)
        #expect(s.tally.cpuNanoseconds == Int64(12 * 150_000))
        // The live analysis counted the walk's steps (2 Hz for 12 s), the same as the summary's.
        let steps = try #require(r.machine.steps)
        #expect(steps >= 20 && steps <= 24)
        #expect(s.tally.steps == steps)
        #expect(r.finished?.tally.steps == steps && r.finished?.scope == .session(recordings: ["walk.csv"]))
        if case .closeRecording(let summaryPath, _, let checkpointPath) = r.actions.first(where: { if case .closeRecording = $0 { true } else { false } })! {
            #expect(summaryPath == "/data/walk.summary.json" && checkpointPath == "/data/walk.checkpoint.json")
        }
    }

    /// The live step count does not depend on the batching (the analysis is batch-invariant).
    @Test(arguments: [1, 7, 50, 100, 333])
    func liveStepsDoNotDependOnTheBatching(batch: Int) throws {
        let (r, cap) = run(settings(.none), seconds: 30, batch: batch)
        var reference = try StepCounter()
        var times: [Int64] = []
        try reference.process(cap.samples, into: &times)
        #expect(reference.count > 30)
        #expect(r.machine.steps == reference.count)
        #expect(r.reports.last?.steps == reference.count)
        #expect(r.opened.isEmpty && r.closed.isEmpty)
    }

    @Test func rotationEveryTenSecondsMakesFourRecordingsNeverSplittingABatch() throws {
        var s = settings()
        s.rotation = .every(nanoseconds: 10 * Self.second)
        let (r, cap) = run(s, seconds: 35)
        #expect(r.opened.count == 4)
        #expect(r.closed.map(\.tally.samples) == [1000, 1000, 1000, 500])
        #expect(r.closed.map(\.end) == [.rotated, .rotated, .rotated, .signal])
        // Each recording holds whole batches, in order, and together they hold every sample once.
        var all: [Sample] = []
        var perFile: [[Int]] = [[]]
        for a in r.actions {
            if case .open = a, !perFile[perFile.count - 1].isEmpty { perFile.append([]) }
            if case .appendRows(let b) = a { all += b.samples; perFile[perFile.count - 1].append(b.count) }
        }
        #expect(all == cap.samples)
        #expect(perFile.allSatisfy { $0.allSatisfy { $0 == 100 } })
        // Named by the UTC time of their start (the clock is synchronized), continuing each other.
        #expect(r.opened[0] == "/data/2025-12-01T09-19-18Z.csv")
        #expect(r.opened[1] == "/data/2025-12-01T09-19-28Z.csv")
        let headers = r.actions.compactMap { if case .open(_, let h, _) = $0 { return h } else { return nil } }
        #expect(headers[1].metadata[RecordingKey.continues] == "2025-12-01T09-19-18Z.csv")
        #expect(headers.map { $0.metadata[RecordingKey.sequence] } == ["1", "2", "3", "4"])
        #expect(headers[0].metadata[RecordingKey.clockSync] == "synchronized maxerror_us=16000")
        #expect(headers[0].metadata[RecordingKey.startUTC] == "2025-12-01T09:19:18Z")
        #expect(headers[0].metadata[RecordingKey.deviceIdentityPrefix + "1"]?.hasPrefix("name=accel_3d parent=/devices/virtual/misc/uhid/") == true)
        #expect(headers.allSatisfy { $0.metadata[RecordingKey.session] == "00112233aabbccdd" && $0.format == .current })
        // The recordings' steps add up to the session's.
        #expect(r.closed.compactMap(\.tally.steps).reduce(0, +) == r.finished?.tally.steps)
        #expect(r.finished?.tally.samples == cap.samples.count)
    }

    @Test func anUnsynchronizedClockNamesByBootAndMonotonicTime() {
        var s = settings()
        s.rotation = .every(nanoseconds: 10 * Self.second)
        var cap = FakeCapture(seconds: 12, synchronized: false)
        var r = MachineRun(s)
        r.feed(.begin(devices: [FakeCapture.device()], identities: [], clock: cap.clock(at: FakeCapture.start)))
        for start in stride(from: 0, to: cap.samples.count, by: 100) {
            let (b, p, c) = cap.deliver(start..<start + 100)
            r.feed(.batch(b, p, clock: c))
        }
        #expect(r.opened == ["/data/boot-1a2b3c4d-000000005.000.csv", "/data/boot-1a2b3c4d-000000015.992.csv"])
        let h = r.actions.compactMap { if case .open(_, let h, _) = $0 { return h } else { return nil } }[0]
        #expect(h.metadata[RecordingKey.clockSync] == "unsynchronized" && h.metadata[RecordingKey.startUTC] == nil)
        #expect(h.metadata[RecordingKey.bootID] == "1a2b3c4d-0000-4000-8000-000000000000")
    }

    @Test func keepDeletesTheOldestWholeRecordings() {
        var s = settings()
        s.rotation = .every(nanoseconds: 10 * Self.second)
        s.retention = RetentionPolicy(keep: 2)
        s.stored = [StoredRecording(name: "old-b.csv", bytes: 10, modified: 2), StoredRecording(name: "old-a.csv", bytes: 10, modified: 1)]
        let (r, _) = run(s, seconds: 35)
        #expect(r.deleted == ["old-a.csv", "old-b.csv", "2025-12-01T09-19-18Z.csv", "2025-12-01T09-19-28Z.csv"])
        guard case .delete(_, let paths, .keep) = r.actions.first(where: { if case .delete = $0 { true } else { false } })! else { Issue.record("no keep deletion"); return }
        #expect(paths == ["/data/old-a.csv", "/data/old-a.summary.json", "/data/old-a.checkpoint.json"])
        #expect(r.events.contains(.deleted(name: "old-a.csv", reason: .keep)))
    }

    @Test func maxDiskDeletesTheOldestBeyondTheBudget() {
        var s = settings()
        s.rotation = .every(nanoseconds: 10 * Self.second)
        s.retention = RetentionPolicy(maxDiskBytes: 100_000)
        // Each recording is 500 + 10 x 4000 bytes = 40 500 bytes in this run.
        let (r, _) = run(s, seconds: 35)
        #expect(r.deleted == ["2025-12-01T09-19-18Z.csv"])
        #expect(r.events.contains(.deleted(name: "2025-12-01T09-19-18Z.csv", reason: .maxDisk)))
    }

    @Test func aFullDiskWithMaxDiskDeletesTheOldestAndRetries() {
        var s = settings()
        s.rotation = .every(nanoseconds: 10 * Self.second)
        s.retention = RetentionPolicy(maxDiskBytes: 1 << 40)
        var fullAt = 25
        var appends = 0
        let (r, cap) = run(s, seconds: 35) { a in
            if case .appendRows = a {
                appends += 1
                if appends == fullAt { fullAt = -1; return .diskFull(SystemError(.noSpace, call: "write", subject: "/data/x.csv")) }
            }
            return .done(fileBytes: nil)
        }
        #expect(r.deleted == ["2025-12-01T09-19-18Z.csv"])
        #expect(r.events.contains { if case .diskFull(_, _, true) = $0 { true } else { false } })
        // The batch that did not fit was written after the deletion: nothing lost.
        let written = r.actions.compactMap { if case .appendRows(let b) = $0 { return b } else { return nil } }
        #expect(written.count == 36)  // 35 batches, one of them twice (failed, then retried)
        #expect(Set(written.flatMap(\.samples).map(\.timestamp)).count == cap.samples.count)
        #expect(r.machine.failure == nil && r.finished?.end == .signal)
    }

    /// 35 s rotating every 10 s without `--max-disk`, every append from the `n`th on refused
    /// with a full disk.
    func runWithFullDisk(fromAppend n: Int) -> (MachineRun, FakeCapture) {
        var s = settings()
        s.rotation = .every(nanoseconds: 10 * Self.second)
        var appends = 0
        return run(s, seconds: 35) { a in
            if case .appendRows = a {
                appends += 1
                if appends >= n { return .diskFull(SystemError(.noSpace, call: "write", subject: "/data/x.csv")) }
            }
            return .done(fileBytes: nil)
        }
    }

    @Test func aFullDiskWithoutMaxDiskStopsCleanly() {
        let (r, _) = runWithFullDisk(fromAppend: 15)
        #expect(r.deleted.isEmpty)
        #expect(r.actions.contains { if case .fail(.diskFull) = $0 { true } else { false } })
        #expect(r.machine.failure != nil)
        #expect(r.closed.last?.end == .diskFull && r.finished?.end == .diskFull)
        #expect(r.events.contains { if case .diskFull(_, _, false) = $0 { true } else { false } })
    }

    /// The disk fills on the first rows of a recording a rotation has just opened: that
    /// recording, its header only, is deleted (not closed and left behind as a recording of no
    /// sample); the one before it is closed with every row it holds.
    @Test func aFullDiskOnARotatedRecordingsFirstRowsLeavesNoEmptyRecording() throws {
        let (r, _) = runWithFullDisk(fromAppend: 11)
        #expect(r.opened.count == 2)
        let empty = try #require(r.opened.last?.split(separator: "/").last.map(String.init))
        #expect(r.deleted == [empty])
        #expect(r.events.contains(.deleted(name: empty, reason: .diskFull)))
        #expect(r.closed.count == 1 && r.closed.first?.tally.samples == 1000)
        #expect(r.finished?.end == .diskFull && r.machine.failure != nil)
        let scope = try #require(r.finished?.scope)
        guard case .session(let recordings) = scope else { Issue.record("not a session summary: \(scope)"); return }
        #expect(recordings.count == 1 && !recordings.contains(empty))
    }

    @Test func aPauseIsWrittenCountedAndInterruptsTheAnalysis() throws {
        let t0 = FakeCapture.start
        let (r, _) = run(settings(.file("/data/p.csv", overwrite: false)), seconds: 20, marks: [
            (5, .paused(at: t0 + 5 * Self.second)), (5, .resumed(at: t0 + 10 * Self.second)),
        ])
        #expect(r.recordingEvents.map(\.kind) == [.pause, .resume])
        #expect(r.recordingEvents.map(\.time) == [t0 + 5 * Self.second, t0 + 10 * Self.second])
        let s = try #require(r.closed.first)
        #expect(s.tally.pauses == 1 && s.tally.pausedNanoseconds == 5 * Self.second && s.tally.events == 2)
        #expect(r.machine.analysis?.pipeline.interruptions == 1)
        #expect(r.events.contains(.paused(at: t0 + 5 * Self.second)))
        #expect(r.events.contains(.resumed(at: t0 + 10 * Self.second, pausedNanoseconds: 5 * Self.second)))
    }

    @Test func aLostDeviceClosesTheRecordingAndTheReconnectionOpensTheNext() throws {
        var s = settings(.file("/data/r.csv", overwrite: false))
        s.reconnect = true
        var cap = FakeCapture(seconds: 20)
        var r = MachineRun(s)
        let device = FakeCapture.device()
        r.feed(.begin(devices: [device], identities: [device.identity!], clock: cap.clock(at: FakeCapture.start)))
        for start in stride(from: 0, to: 800, by: 100) { let (b, p, c) = cap.deliver(start..<start + 100); r.feed(.batch(b, p, clock: c)) }
        let lostAt = cap.progress.now + 10_000_000
        r.feed(.mark(.deviceLost(at: lostAt, state: .lost(device: "accel_3d")), cap.progress(at: lostAt)))
        let backAt = lostAt + 3 * Self.second
        r.feed(.begin(devices: [device], identities: [device.identity!], clock: cap.clock(at: backAt)))
        r.feed(.mark(.deviceBack(at: backAt, lostAt: lostAt), cap.progress(at: backAt)))
        for start in stride(from: 1100, to: 2000, by: 100) { let (b, p, c) = cap.deliver(start..<start + 100); r.feed(.batch(b, p, clock: c)) }
        r.feed(.close(.signal(15), cap.progress(at: cap.progress.now + 1)))
        #expect(r.opened == ["/data/r.csv", "/data/r-2.csv"])
        #expect(r.closed.map(\.end) == [.lost, .signal])
        #expect(r.closed.map(\.tally.samples) == [800, 900])
        #expect(r.recordingEvents.map(\.kind) == [.lost, .reconnected])
        #expect(r.recordingEvents[0]["state"] == "lost")
        #expect(r.recordingEvents[1]["gap_ns"] == String(3 * Self.second) && r.recordingEvents[1]["lost_at"] == String(lostAt))
        let headers = r.actions.compactMap { if case .open(_, let h, _) = $0 { return h } else { return nil } }
        #expect(headers[1].metadata[RecordingKey.continues] == "r.csv")
        let session = try #require(r.finished)
        #expect(session.tally.deviceLosses == 1 && session.tally.lostNanoseconds == 3 * Self.second)
        #expect(session.scope == .session(recordings: ["r.csv", "r-2.csv"]))
        #expect(r.events.contains(.reconnected(at: backAt, gapNanoseconds: 3 * Self.second)))
        #expect(r.machine.analysis?.pipeline.interruptions == 1)
    }

    @Test func withoutReconnectALostDeviceIsWrittenAtTheEnd() throws {
        let (r, _) = run(settings(.file("/data/l.csv", overwrite: false)), seconds: 5, stop: .lost(.lost(device: "accel_3d")))
        #expect(r.recordingEvents.map(\.kind) == [.lost])
        #expect(r.closed.first?.end == .lost && r.finished?.end == .lost)
        #expect(r.events.contains { if case .deviceLost(_, _, false) = $0 { true } else { false } })
    }

    /// `--fsync batch` at batch 1: the rows every batch, the checkpoint once per second of samples.
    @Test func perSampleBatchesCheckpointOncePerSecond() {
        let (r, cap) = run(settings(.file("/data/b.csv", overwrite: false)), seconds: 12, batch: 1)
        let rows = r.actions.filter { if case .appendRows = $0 { true } else { false } }.count
        let checkpoints = r.actions.filter { if case .checkpoint = $0 { true } else { false } }.count
        #expect(rows == cap.samples.count)
        #expect(checkpoints >= 12 && checkpoints <= 13)
    }

    @Test func intervalFsyncCheckpointsEveryInterval() {
        var s = settings(.file("/data/i.csv", overwrite: false))
        s.fsync = .interval(seconds: 5)
        let (r, _) = run(s, seconds: 30)
        let checkpoints = r.actions.filter { if case .checkpoint = $0 { true } else { false } }.count
        #expect(checkpoints == 5)
        s.fsync = .onClose
        let (never, _) = run(s, seconds: 30)
        #expect(!never.actions.contains { if case .checkpoint = $0 { true } else { false } })
    }

    @Test func messagesAreNumberedInOrder() {
        var s = settings()
        s.rotation = .every(nanoseconds: 10 * Self.second)
        let (r, _) = run(s, seconds: 25, marks: [(3, .paused(at: FakeCapture.start + 3_100_000_000)), (3, .resumed(at: FakeCapture.start + 3_200_000_000))])
        let numbers = r.actions.compactMap { a -> Int? in
            switch a {
            case .report(let b): b.sequence
            case .log(_, let n): n
            case .finished(_, let n): n
            default: nil
            }
        }
        #expect(numbers == Array(1...numbers.count))
    }

    @Test func theBoardGivesABatteryEstimate() throws {
        var s = settings(.none)
        s.board = BoardProfile.rpiZero2W
        let (r, _) = run(s, seconds: 10)
        let b = try #require(r.finished?.battery)
        #expect(b.board == "rpi-zero-2w" && b.batteryLifeH > 0 && b.averagePowerW >= BoardProfile.rpiZero2W.idlePowerW)
        let json = r.finished!.json.serialized()
        #expect(json.contains("\"battery\":{\"board\":\"rpi-zero-2w\""))
    }

    @Test func aRejectedBatchStopsTheAnalysisNotTheSession() {
        var cap = FakeCapture(seconds: 4)
        var r = MachineRun(settings(.file("/data/x.csv", overwrite: false)))
        r.feed(.begin(devices: [FakeCapture.device()], identities: [], clock: cap.clock(at: FakeCapture.start)))
        let (b, p, c) = cap.deliver(0..<100)
        r.feed(.batch(b, p, clock: c))
        r.feed(.batch(b, p, clock: c))  // the same timestamps again: not increasing
        #expect(r.machine.steps == nil && r.machine.analysisProblem?.isEmpty == false)
        #expect(r.events.contains { if case .warning = $0 { true } else { false } })
        let (b2, p2, c2) = cap.deliver(100..<200)
        r.feed(.batch(b2, p2, clock: c2))
        #expect(r.actions.filter { if case .appendRows = $0 { true } else { false } }.count == 3)
    }
}
