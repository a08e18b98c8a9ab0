import Foundation
import Testing
import MotionCore
import MotionTestSupport
@testable import MotionFleet

@Suite("DedupeLedger")
struct DedupeLedgerTests {
    @Test("first copies are taken, later ones counted; per board and session; gaps counted")
    func dedupe() {
        var l = DedupeLedger()
        for s in [1, 2, 3, 2, 3, 4, 6, 5, 6] { _ = l.take(board: "b1", session: "s", sequence: s) }
        #expect(l.accepted == 6)
        #expect(l.duplicates == 3)
        #expect(l.outOfOrder == 1)
        let otherBoard = l.take(board: "b2", session: "s", sequence: 1)
        let otherSession = l.take(board: "b1", session: "t", sequence: 1)
        #expect(otherBoard, "another board's sequence is its own")
        #expect(otherSession, "another session's sequence is its own")
        _ = l.take(board: "b1", session: "s", sequence: 9)
        #expect(l.gaps(board: "b1", session: "s") == 2)
    }
}

@Suite("ReceivedMessage")
struct ReceivedMessageTests {
    static func payload(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test("a fleet message is taken with its board, session and sequence")
    func takes() throws {
        let r = ReceivedMessage.check(topic: "fleet/b1/batch", payload: Self.payload("{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"abc\",\"seq\":7}"), prefix: "fleet")
        let m = try r.get()
        #expect(m.board == "b1" && m.kind == .batch && m.session == "abc" && m.sequence == 7)
    }

    @Test("rejects what is not a fleet message", arguments: [
        ("fleet/b1/batch", "not json"), ("fleet/b1/batch", "[1]"), ("fleet/b1/batch", "{\"schema\":2,\"board\":\"b1\",\"session\":\"s\",\"seq\":1}"),
        ("fleet/b1/batch", "{\"schema\":1,\"board\":\"b2\",\"session\":\"s\",\"seq\":1}"), ("fleet/b1/batch", "{\"schema\":1,\"board\":\"b1\",\"seq\":1}"),
        ("fleet/b1/batch", "{\"schema\":1,\"board\":\"b1\",\"session\":\"s\"}"), ("other/b1/batch", "{}"), ("fleet/b1/nope", "{}"),
        ("fleet/b1/batch", "{\"schema\":1,\"board\":\"b1\",\"session\":\"s/x\",\"seq\":1}"), ("fleet/b1/batch", "{\"schema\":1,\n\"board\":\"b1\",\"session\":\"s\",\"seq\":1}"),
    ])
    func rejects(topic: String, payload: String) {
        if case .success = ReceivedMessage.check(topic: topic, payload: Self.payload(payload), prefix: "fleet") { Issue.record("took \(payload)") }
    }
}

@Suite("FleetReport")
struct FleetReportTests {
    /// A collected line of board b1: the envelope, then `members`.
    static func line(_ members: String) -> String { "{\"schema\":1,\"board\":\"b1\",\"session\":\"s\"," + members + "}" }

    static func file(_ members: [String]) -> FleetNDJSON {
        FleetNDJSON.parse(Array((members.map(line).joined(separator: "\n") + "\n").utf8), file: "f", board: "b1")
    }

    @Test("per session the summary's figures, else the last batch's; steps, lost samples and activity summed over sessions")
    func rows() throws {
        let finished = Self.file([
            "\"type\":\"batch\",\"seq\":1,\"steps\":3,\"lost_samples\":0,\"total_samples\":50",
            "\"type\":\"summary\",\"seq\":2,\"steps\":10,\"lost_samples\":2,\"samples\":100,\"activity_time_s\":{\"still\":1.5,\"walking\":2},\"wakeups_per_hour\":{\"scheduler\":3600,\"device\":1800},\"battery\":{\"battery_life_h\":12.5}",
        ])
        let open = Self.file(["\"type\":\"batch\",\"seq\":1,\"steps\":4,\"lost_samples\":1,\"total_samples\":70,\"wakeups_per_hour\":{\"scheduler\":7200,\"device\":3600}",
                              "\"type\":\"batch\",\"seq\":3,\"steps\":5,\"lost_samples\":1,\"total_samples\":90"])
        #expect(finished.skipped.isEmpty && open.skipped.isEmpty)
        let row = FleetReport.board("b1", sessions: [("a", finished), ("b", open)])
        #expect(row.sessions == 2 && row.finishedSessions == 1 && row.unfinishedSessions == 1)
        #expect(row.steps == 10, "finished sessions only, as the activity time")
        #expect(row.unfinishedSteps == 5, "the unfinished session's steps so far, apart")
        #expect(row.lostSamples == 3)
        #expect(row.samples == 190)
        #expect(row.missing == 1)
        #expect(row.missingBySession == [FleetReport.Missing(session: "b", gaps: [2...2], inGaps: 1, tail: 0)])
        #expect(row.activitySeconds.map(\.0) == ["still", "walking"] && row.activitySeconds.map(\.1) == [1.5, 2])
        #expect(row.batteryLifeHours == 12.5)
        #expect(row.schedulerWakeupsPerHour == 3600, "the latest session without its own rate keeps the last known")
    }

    @Test("missing messages per session: gaps, and the tail after the last received against the board's own last_seq; rates per hour of the recording's clock")
    func missingAndRates() throws {
        // A fast replay: 2 s of samples, 7200 scheduler wake-ups, the board's own rate on its wall clock.
        let file = Self.file([
            "\"type\":\"batch\",\"seq\":1,\"first_s\":10,\"end_s\":11",
            "\"type\":\"batch\",\"seq\":4,\"first_s\":11,\"end_s\":12,\"wakeups\":{\"scheduler\":7200,\"device\":100},\"wakeups_per_hour\":{\"scheduler\":2e7,\"device\":1e6}",
        ])
        let row = FleetReport.board("b1", sessions: [("s", file)], statuses: ["s": FleetReport.SessionStatus(lastSequence: 9)])
        #expect(row.missingBySession == [FleetReport.Missing(session: "s", gaps: [2...3], inGaps: 2, tail: 5)])
        #expect(row.missing == 7)
        #expect(row.schedulerWakeupsPerHour.map { $0 - 12_960_000 } == 0, "per hour of sample time, not of the replay's wall time")
        #expect(row.deviceWakeupsPerHour.map { $0 - 180_000 } == 0)
        let other = FleetReport.board("b1", sessions: [("s", file)], statuses: ["t": FleetReport.SessionStatus(lastSequence: 9)])
        #expect(other.missing == 2, "another session's last_seq says nothing of this one")
        let finished = Self.file(["\"type\":\"batch\",\"seq\":1", "\"type\":\"summary\",\"seq\":3,\"outbox_dropped\":4,\"duration_s\":10,\"wakeups\":{\"scheduler\":20}"])
        let f = FleetReport.board("b1", sessions: [("s", finished)])
        #expect(f.missing == 1 && f.outboxDropped == 4)
        #expect(f.schedulerWakeupsPerHour == 7200)
    }

    @Test("read from a directory: last seen is the newest message's stored receive time (last_seen, the status's received_ns), not file times; a board known only from its status misses all its session sent")
    func readDirectory() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "fleet-report-read")
        for b in ["b1", "b2"] { try FileManager.default.createDirectory(at: dir.appendingPathComponent(b), withIntermediateDirectories: true) }
        try (Self.line("\"type\":\"batch\",\"seq\":1") + "\n").write(to: dir.appendingPathComponent("b1/s.ndjson"), atomically: true, encoding: .utf8)
        let old: Int64 = 1_600_000_000_000_000_000
        let status = "{\"received_utc\":\"x\",\"received_ns\":\(old),\"status\":{\"schema\":1,\"board\":\"b1\",\"type\":\"status\",\"session\":\"s\",\"state\":\"online\",\"last_seq\":4}}\n"
        try status.write(to: dir.appendingPathComponent("b1/status.json"), atomically: true, encoding: .utf8)
        try status.replacingOccurrences(of: "\"b1\"", with: "\"b2\"").replacingOccurrences(of: "\"s\"", with: "\"t\"")
            .write(to: dir.appendingPathComponent("b2/status.json"), atomically: true, encoding: .utf8)
        let newer = old + 3_600_000_000_000
        try "0\(newer)\n".write(to: dir.appendingPathComponent("b1/last_seen"), atomically: true, encoding: .utf8)
        // A copy of the directory (cp -r) gives every file a new time: last seen stays.
        for f in ["b1/s.ndjson", "b1/status.json", "b1/last_seen", "b2/status.json"] {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(86_400)], ofItemAtPath: dir.appendingPathComponent(f).path)
        }
        let r = try FleetReport.read(dir.path)
        let b1 = try #require(r.boards.first { $0.board == "b1" })
        #expect(b1.lastSeenUTC == UTCTime.iso8601(newer), "the newest stored receive time (last_seen), not the files' times")
        #expect(b1.missing == 3 && b1.state == "online" && !b1.knownOnlyFromStatus)
        let b2 = try #require(r.boards.first { $0.board == "b2" })
        #expect(b2.lastSeenUTC == UTCTime.iso8601(old), "the status's receive time, not its file's")
        #expect(b2.knownOnlyFromStatus && b2.missingBySession == [FleetReport.Missing(session: "t", gaps: [], inGaps: 0, tail: 4)])
    }

    @Test("a collected file: a torn last line is reported, a bad line is skipped with its file and line, the rest read")
    func parse() throws {
        let good = Self.line("\"type\":\"batch\",\"seq\":1")
        let f = FleetNDJSON.parse(Array((good + "\n" + good.prefix(11)).utf8), file: "f", board: "b1")
        #expect(f.messages.count == 1 && f.tornBytes == 11)
        let bad = FleetNDJSON.parse(Array((good + "\n  x\n" + Self.line("\"seq\":2") + "\n" + Self.line("\"type\":\"batch\",\"seq\":3") + "\n").utf8), file: "f", board: "b1")
        #expect(bad.messages.map(\.sequence) == [1, 3])
        #expect(bad.skipped.map(\.line) == [2, 3])
        #expect(bad.skipped.first?.description.hasPrefix("f:2: ") == true, "\(bad.skipped)")
        let otherBoard = FleetNDJSON.parse(Array((good + "\n").utf8), file: "f", board: "b2")
        #expect(otherBoard.skipped.count == 1, "a line of another board in b2's directory is not b2's")
    }

    @Test("the issue's crashes: sums of the largest accepted figures saturate, larger ones never enter")
    func overflow() throws {
        let top = FleetMessageSchema.maxSequence
        let huge = Self.file(["\"type\":\"summary\",\"seq\":\(top),\"steps\":\(top),\"samples\":\(top),\"lost_samples\":\(top),\"activity_time_s\":{\"walking\":1e10}"])
        #expect(huge.skipped.isEmpty)
        let row = FleetReport.board("b1", sessions: Array(repeating: ("a", huge), count: 2000))
        #expect(row.steps == Int.max && row.samples == Int.max && row.lostSamples == Int.max)
        #expect(row.missing == Int.max)
        #expect(row.activitySeconds.first?.1 == 2e13)
        let refused = Self.file(["\"type\":\"summary\",\"seq\":9223372036854775807,\"steps\":9223372036854775807",
                                 "\"type\":\"summary\",\"seq\":2,\"activity_time_s\":{\"walking\":1e308}"])
        #expect(refused.messages.isEmpty && refused.skipped.count == 2)
    }
}

@Suite("StatusFigures")
struct StatusFiguresTests {
    static func node(_ s: String) -> JSONNode { try! JSONReader.parse(Array(s.utf8)) }

    @Test("per session the largest last_seq, sent and drop counts; a last will without them changes nothing; read back from its JSON")
    func largest() throws {
        var f = StatusFigures()
        var grew = f.merge(Self.node("{\"type\":\"status\",\"session\":\"s1\",\"state\":\"online\",\"last_seq\":7,\"sent\":{\"batch\":6,\"event\":1},\"outbox_dropped\":0}"))
        #expect(grew)
        let will = Self.node("{\"type\":\"status\",\"session\":\"s1\",\"state\":\"offline\",\"outbox_dropped\":0}")
        grew = f.merge(will)
        #expect(!grew, "the will carries nothing larger")
        #expect(f.sessions == [StatusFigures.Session(session: "s1", lastSequence: 7, sent: ["batch": 6, "event": 1], dropped: 0, droppedTaken: nil)])
        grew = f.merge(Self.node("{\"session\":\"s1\",\"last_seq\":3}"))
        #expect(!grew, "an older status does not lower it")
        grew = f.merge(Self.node("{\"session\":\"s2\",\"state\":\"offline\"}"))
        #expect(!grew, "a session with no figures is not kept")
        for i in 0..<20 { f.merge(Self.node("{\"session\":\"n\(i)\",\"last_seq\":\(i + 1)}")) }
        #expect(f.sessions.count == StatusFigures.kept && f.sessions.last?.session == "n19", "the most recent sessions kept")
        let back = StatusFigures(Self.node(f.json.serialized()))
        #expect(back == f)
    }
}
