import Foundation
import MotionCore
import MotionSystem
import Testing
import WakeCost
@testable import MotionSession

/// The pure parts of a session's plan: quantities, rotation, retention, names, UTC formatting.
@Suite struct SessionPlanTests {
    @Test(arguments: [
        ("90", SessionQuantity.duration(nanoseconds: 90_000_000_000)),
        ("90s", .duration(nanoseconds: 90_000_000_000)),
        ("15min", .duration(nanoseconds: 900_000_000_000)),
        ("1h", .duration(nanoseconds: 3_600_000_000_000)),
        ("1.5h", .duration(nanoseconds: 5_400_000_000_000)),
        ("1d", .duration(nanoseconds: 86_400_000_000_000)),
        ("100M", .size(bytes: 100 << 20)),
        ("100MiB", .size(bytes: 100 << 20)),
        ("2G", .size(bytes: 2 << 30)),
        ("2gb", .size(bytes: 2 << 30)),
        ("500k", .size(bytes: 500 << 10)),
        ("4096B", .size(bytes: 4096)),
    ])
    func quantitiesParse(_ text: String, _ expected: SessionQuantity) throws {
        #expect(try SessionQuantity.parse(text).get() == expected)
    }

    @Test(arguments: [("10m", "ambiguous"), ("", "positive number"), ("abc", "positive number"), ("-5", "positive number"),
                      ("0", "positive number"), ("5x", "unknown unit \"x\""), ("1.2.3", "positive number"), ("0.0001s", "between 1 ms"),
                      ("5\u{1b}[2J", "\\x1b")])
    func badQuantitiesAreExplained(_ text: String, _ problem: String) {
        guard case .failure(let e) = SessionQuantity.parse(text) else { Issue.record("\(text) parsed"); return }
        #expect(e.description.contains(problem), "\(e)")
    }

    @Test func rotationIsDecidedBeforeABatchFromWhatTheRecordingHolds() {
        let every = RotationPolicy.every(nanoseconds: 10_000_000_000)
        #expect(!every.rotates(beforeBatchAt: 99, recordingStart: nil, recordingBytes: 0))
        #expect(!every.rotates(beforeBatchAt: 9_999_999_999, recordingStart: 0, recordingBytes: 0))
        #expect(every.rotates(beforeBatchAt: 10_000_000_000, recordingStart: 0, recordingBytes: 0))
        let size = RotationPolicy.size(bytes: 1000)
        #expect(!size.rotates(beforeBatchAt: 5, recordingStart: 0, recordingBytes: 999))
        #expect(size.rotates(beforeBatchAt: 5, recordingStart: 0, recordingBytes: 1000))
        #expect(!RotationPolicy.never.rotates(beforeBatchAt: .max, recordingStart: 0, recordingBytes: .max))
    }

    static let stored = [
        StoredRecording(name: "c.csv", bytes: 300, modified: 3),
        StoredRecording(name: "a.csv", bytes: 100, modified: 1),
        StoredRecording(name: "b.csv", bytes: 200, modified: 2),
    ]

    @Test func keepDeletesTheOldestCountingTheCurrentOne() {
        let current = StoredRecording(name: "d.csv", bytes: 50, modified: .max)
        let v = RetentionPolicy(keep: 2).victims(stored: Self.stored, current: current)
        #expect(v.map(\.recording.name) == ["a.csv", "b.csv"] && v.allSatisfy(\.overCount))
        #expect(RetentionPolicy(keep: 1).victims(stored: [], current: current).isEmpty)
        #expect(RetentionPolicy().victims(stored: Self.stored, current: current).isEmpty)
    }

    @Test func maxDiskDeletesTheOldestUntilTheBytesFit() {
        let current = StoredRecording(name: "d.csv", bytes: 50, modified: .max)
        let v = RetentionPolicy(maxDiskBytes: 400).victims(stored: Self.stored, current: current)
        #expect(v.map(\.recording.name) == ["a.csv", "b.csv"] && v.allSatisfy { !$0.overCount })
        // The current recording alone over the budget: nothing else to delete, it is never deleted.
        #expect(RetentionPolicy(maxDiskBytes: 10).victims(stored: [], current: current).isEmpty)
        #expect(RetentionPolicy(maxDiskBytes: 1).victimOnDiskFull(stored: Self.stored)?.name == "a.csv")
        #expect(RetentionPolicy(keep: 3).victimOnDiskFull(stored: Self.stored) == nil)
    }

    static func clock(synced: Bool, wall: Int64 = 1_764_580_758_123_000_000, mono: Int64 = 12_345_678_901) -> ClockReading {
        ClockReading(wallNanoseconds: wall, sync: WallClock.SyncState(synchronized: synced), monotonicNanoseconds: mono,
                     bootID: "1a2b3c4d-5e6f-4000-8000-000000000000")
    }

    @Test func namesAreUTCWhenSynchronizedElseBootAndMonotonic() {
        #expect(RecordingNaming.stem(for: Self.clock(synced: true)) == "2025-12-01T09-19-18Z")
        #expect(RecordingNaming.stem(for: Self.clock(synced: false)) == "boot-1a2b3c4d-000000012.345")
        var noBoot = Self.clock(synced: false)
        noBoot.bootID = nil
        #expect(RecordingNaming.stem(for: noBoot) == "boot-unknown-000000012.345")
        #expect(RecordingNaming.recordingName(stem: "x", taken: []) == "x.csv")
        #expect(RecordingNaming.recordingName(stem: "x", taken: ["x.csv", "x-2.csv"]) == "x-3.csv")
        // Unsynchronized names sort in time order within a boot.
        let early = RecordingNaming.stem(for: Self.clock(synced: false, mono: 999_000_000))
        let late = RecordingNaming.stem(for: Self.clock(synced: false, mono: 10_000_000_000))
        #expect(early < late)
    }

    @Test func sideFilesAndContinuations() {
        #expect(RecordingNaming.summaryPath(of: "/d/x.csv") == "/d/x.summary.json")
        #expect(RecordingNaming.checkpointPath(of: "x.csv") == "x.checkpoint.json")
        #expect(RecordingNaming.continuation(of: "/data/walk.csv", number: 1) == "/data/walk.csv")
        #expect(RecordingNaming.continuation(of: "/data/walk.csv", number: 3) == "/data/walk-3.csv")
        #expect(RecordingNaming.continuation(of: "/data.d/walk", number: 2) == "/data.d/walk-2")
        #expect(RecordingNaming.isRecordingName("a.csv") && !RecordingNaming.isRecordingName(".a.csv") && !RecordingNaming.isRecordingName("a.json"))
        #expect(RecordingNaming.recording(ofSideFile: "a.summary.json") == "a.csv")
        #expect(RecordingNaming.recording(ofSideFile: "a.checkpoint.json") == "a.csv")
        #expect(RecordingNaming.recording(ofSideFile: "a.json") == nil)
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (-1_000_000_000, "1969-12-31T23:59:59Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (951_782_400_000_000_000, "2000-02-29T00:00:00Z"),
        (4_102_444_799_999_999_999, "2099-12-31T23:59:59Z"),
        (1_764_580_758_999_000_000, "2025-12-01T09:19:18Z"),
    ])
    func utcTimes(_ ns: Int64, _ expected: String) {
        #expect(UTCTime.iso8601(ns) == expected)
        #expect(UTCTime.fileStamp(ns) == expected.replacingOccurrences(of: ":", with: "-"))
    }

    @Test func batteryEstimateFromMeasuredFigures() throws {
        let board = BoardProfile.rpiZero2W
        let b = try #require(BatteryEstimate.measured(on: board, processCPUSeconds: 1.8, deviceDeliveries: 60, durationSeconds: 60))
        let cpu = (1.8 + 60 * board.deviceDeliveryS) * 60
        #expect(abs(b.cpuActiveSPerHour - cpu) < 1e-9)
        #expect(abs(b.energyJPerHour - cpu * board.activeIncrementW) < 1e-9)
        #expect(abs(b.batteryLifeH - board.batteryWh / (board.idlePowerW + cpu * board.activeIncrementW / 3600)) < 1e-9)
        #expect(BatteryEstimate.measured(on: board, processCPUSeconds: 1, deviceDeliveries: 1, durationSeconds: 0) == nil)
        #expect(BatteryEstimate.measured(on: board, processCPUSeconds: .nan, deviceDeliveries: 1, durationSeconds: 1) == nil)
    }

    @Test func checkpointsRoundTripAndNameWhatIsWrong() throws {
        var t = SessionTally()
        t.samples = 1200; t.batches = 12; t.lastSample = 9_000_000_000; t.lostSamples = 3; t.gaps = 1
        t.pauses = 1; t.pausedNanoseconds = 5_000_000_000; t.deviceDeliveries = 12; t.userspaceReturns = 13
        t.schedulerWakeups = 14; t.cpuNanoseconds = 1_500_000; t.elapsedNanoseconds = 12_000_000_000; t.events = 2
        let c = SessionCheckpoint(session: "s1", recording: "r.csv", sequence: 2, tally: t, startUTC: "2025-12-01T09:19:18Z",
                                  clockSync: "synchronized", bootID: "b")
        let back = try SessionCheckpoint.decode(Array(c.json.serialized().utf8), file: "r.checkpoint.json")
        #expect(back.json == c.json)
        // The file's bytes, written without a JSON tree (the capture writes one a second).
        var bytes: [UInt8] = []
        c.encode(into: &bytes)
        #expect(bytes == Array((c.json.serialized(pretty: false) + "\n").utf8))
        let sparse = SessionCheckpoint(session: "s\"1", recording: "r\n.csv", sequence: 1, tally: SessionTally(), startUTC: nil, clockSync: nil, bootID: nil)
        sparse.encode(into: &bytes)
        #expect(bytes == Array((sparse.json.serialized(pretty: false) + "\n").utf8))
        for (bad, problem) in [("{}", "missing key 'checkpoint'"), ("{\"checkpoint\":9}", "unknown checkpoint version"), ("[1]", "expected a JSON object"), ("{x", "not valid JSON"),
                               (c.json.serialized().replacingOccurrences(of: "\"samples\":1200", with: "\"samples\":-1"), "'samples' must be a whole number"),
                               (c.json.serialized().replacingOccurrences(of: "\"batches\":12,", with: ""), "missing key 'batches'")] {
            #expect(throws: CheckpointError.self) { try SessionCheckpoint.decode(Array(bad.utf8), file: "f") }
            do { _ = try SessionCheckpoint.decode(Array(bad.utf8), file: "f") } catch { #expect(error.description.contains(problem), "\(error)") }
        }
    }

    /// The per-batch object and the summary keep their documented keys, in order (docs/session.md).
    @Test func reportAndSummaryKeysAreStable() throws {
        let r = BatchReport(session: "s", sequence: 3, recording: "r.csv", firstSample: 1, lastSample: 2, samples: 2, totalSamples: 2,
                            lostSamples: 0, steps: 1, activity: "walking", activityConfidence: 80, deviceDeliveries: 1, schedulerWakeups: 1,
                            userspaceReturns: 1, elapsedNanoseconds: 1_000_000_000, cpuNanoseconds: 1000)
        guard case .object(let m) = r.json else { Issue.record("not an object"); return }
        #expect(m.map(\.0) == ["schema", "type", "session", "seq", "recording", "first_s", "end_s", "samples", "total_samples", "lost_samples",
                               "steps", "activity", "confidence", "wakeups", "wakeups_per_hour", "elapsed_s", "cpu_s"])
        let s = SessionSummary(scope: .recording(name: "r.csv", sequence: 1), session: "s", complete: true, end: .signal, tally: SessionTally())
        guard case .object(let k) = s.json else { Issue.record("not an object"); return }
        #expect(k.map(\.0) == ["schema", "kind", "session", "recording", "sequence", "complete", "end", "start_utc", "clock_sync", "boot_id",
                               "first_s", "last_s", "duration_s", "elapsed_s", "samples", "batches", "lost_samples", "gaps", "pauses",
                               "device_losses", "steps", "inferred_steps", "activity_time_s", "wakeups", "wakeups_per_hour", "cpu_s", "battery",
                               "figures_as_of_s", "events", "bytes", "warnings"])
        var unknown = s
        unknown.processFiguresKnown = false
        unknown.tally.cpuNanoseconds = 5
        let text = unknown.json.serialized()
        #expect(text.contains("\"cpu_s\":null") && text.contains("\"batches\":null") && text.contains("\"wakeups\":{\"device\":null,\"scheduler\":null,\"userspace\":null}"))
    }

    @Test func eventsAreOneLineWithPrioritiesAndEscapedText() {
        let e = SessionEvent.recordingOpened(name: "x\u{1b}[31m.csv", sequence: 1)
        #expect(!e.message.contains("\u{1b}") && e.message.contains("\\x1b"))
        #expect(SessionEvent.deviceLost(at: 0, state: .lost(device: "a"), reconnecting: false).priority == .error)
        #expect(SessionEvent.deviceLost(at: 0, state: .lost(device: "a"), reconnecting: true).priority == .warning)
        #expect(SessionEvent.stopped(end: .signal, samples: 1).priority == .notice)
        #expect(SessionEvent.stopped(end: .diskFull, samples: 1).priority == .error)
        let all: [SessionEvent] = [.started(devices: [], output: nil), e, .paused(at: 1), .resumed(at: 2, pausedNanoseconds: 1),
                                   .deleted(name: "a", reason: .keep), .diskFull(path: "p", detail: "d\nx", deleting: true),
                                   .recovered(name: "a", cutBytes: 3, samples: 4), .warning("w\nv")]
        for x in all { #expect(!x.message.contains("\n"), "\(x.message)") }
        guard case .object(let m) = SessionEvent.paused(at: 1_500_000_000).json(session: "s", sequence: 9) else { return }
        #expect(m.map(\.0) == ["schema", "type", "session", "seq", "event", "priority", "message", "at_s"])
    }
}
