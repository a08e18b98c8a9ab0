import Foundation
import Testing
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
    static func file(_ lines: [String]) throws -> FleetNDJSON {
        try FleetNDJSON.parse(Array((lines.joined(separator: "\n") + "\n").utf8), file: "f")
    }

    @Test("per session the summary's figures, else the last batch's; steps, lost samples and activity summed over sessions")
    func rows() throws {
        let finished = try Self.file([
            "{\"type\":\"batch\",\"seq\":1,\"steps\":3,\"lost_samples\":0,\"total_samples\":50}",
            "{\"type\":\"summary\",\"seq\":2,\"steps\":10,\"lost_samples\":2,\"samples\":100,\"activity_time_s\":{\"still\":1.5,\"walking\":2},\"wakeups_per_hour\":{\"scheduler\":3600,\"device\":1800},\"battery\":{\"battery_life_h\":12.5}}",
        ])
        let open = try Self.file(["{\"type\":\"batch\",\"seq\":1,\"steps\":4,\"lost_samples\":1,\"total_samples\":70,\"wakeups_per_hour\":{\"scheduler\":7200,\"device\":3600}}",
                                  "{\"type\":\"batch\",\"seq\":3,\"steps\":5,\"lost_samples\":1,\"total_samples\":90}"])
        let row = FleetReport.board("b1", sessions: [("a", finished), ("b", open)])
        #expect(row.sessions == 2 && row.finishedSessions == 1)
        #expect(row.steps == 15)
        #expect(row.lostSamples == 3)
        #expect(row.samples == 190)
        #expect(row.missing == 1)
        #expect(row.activitySeconds.map(\.0) == ["still", "walking"] && row.activitySeconds.map(\.1) == [1.5, 2])
        #expect(row.batteryLifeHours == 12.5)
        #expect(row.schedulerWakeupsPerHour == 3600, "the latest session without its own rate keeps the last known")
    }

    @Test("a collected file: a torn last line is reported, a bad line names line and column")
    func parse() throws {
        let f = try FleetNDJSON.parse(Array("{\"type\":\"batch\",\"seq\":1}\n{\"type\":\"ba".utf8), file: "f")
        #expect(f.messages.count == 1 && f.tornBytes == 11)
        #expect(throws: FleetError.malformed(file: "f", line: 2, column: 3, problem: "not a JSON object: \"  x\"")) {
            try FleetNDJSON.parse(Array("{\"type\":\"batch\",\"seq\":1}\n  x\n".utf8), file: "f")
        }
        #expect(throws: FleetError.self) { try FleetNDJSON.parse(Array("{\"type\":\"batch\"}\n".utf8), file: "f") }
    }
}
