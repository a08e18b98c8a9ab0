import Foundation
import Testing
import MotionCore
import MotionTestSupport
@testable import MotionFleet
#if canImport(Glibc)
import Glibc
#endif

extension FleetBrokerTests {
    static var oxfordWalk: String { TestPaths.datasetsRoot + "/steps/oxford/Nexus_Jamie_Hard_InHand_1.csv" }

    @Test("the issue's reproduction: the collector away, 10 boards send more than the broker queues (max_queued_messages 1000); with --ack collector nothing is lost",
          .timeLimit(.minutes(4)), .enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
    func collectorAwayNothingLost() throws {
        let ids = (1...10).map { "a\($0)" }
        let broker = try MosquittoBroker(boards: ids)
        // The collector's persistent session exists, then it goes away.
        let first = try MotionBatchProcess(["collect", broker.url("collector"), "--output-dir", "collected", "--password-file", try broker.passwordFile("collector"),
                                            "--client-id", "away", "--duration", "2"], in: dir, name: "first-collector")
        #expect(first.wait(seconds: 20) == 0, "\(first.stderr)")
        let away = try ids.map { try board(broker, user: $0, id: $0, file: Self.oxfordWalk, name: "\($0)-away") }
        for b in away { #expect(b.wait(seconds: 90) == 0, "\(b.stderr)") }
        let sent = away.map { ndjsonObjects($0.stdout) }
        let total = sent.reduce(0) { $0 + $1.count }
        #expect(total > 1000, "more than the broker queues for the collector (\(total))")
        #expect(away.allSatisfy { $0.stderr.contains("stay in the outbox") }, "no collector acknowledged: the outboxes keep everything")
        // The collector returns; the boards run again (their outboxes are sent first, on the collector's presence).
        let c = try collector(broker, extra: ["--client-id", "away"])
        let walk = try syntheticWalk(seconds: 6, in: dir)
        let again = try ids.map { try board(broker, user: $0, id: $0, file: walk, pace: "realtime", name: "\($0)-again") }
        for b in again { #expect(b.wait(seconds: 90) == 0, "\(b.stderr)") }
        usleep(1_000_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 20) == 0, "\(c.stderr)")
        let log = (try? String(contentsOf: broker.dir.appendingPathComponent("broker.log"), encoding: .utf8)) ?? ""
        #expect(log.contains("Outgoing messages are being dropped"), "the broker's queue overflowed, as in the issue")
        var total2 = 0
        for (i, id) in ids.enumerated() {
            try expectExactlyOnce(board: id, own: sent[i])
            try expectExactlyOnce(board: id, own: ndjsonObjects(again[i].stdout))
            total2 += try collected(id).values.reduce(0) { $0 + $1.count }
            #expect(again[i].stderr.contains("stay in the outbox") == false, "\(id): everything acknowledged: \(again[i].stderr.suffix(400))")
            let outbox = try OutboxJournal.parse(Array(try Data(contentsOf: dir.appendingPathComponent("\(id).outbox"))), file: id)
            #expect(outbox.entries.isEmpty, "\(id)'s outbox is empty")
        }
        print("fleet collector away: \(total) messages sent while the collector was away, \(total2) collected in all; broker dropped some: \(log.contains("Outgoing messages are being dropped"))")
    }

    @Test("a broker restarted without its persistence (the collector's queue and session lost) while the collector is away: the boards send again when it is back; nothing lost",
          .timeLimit(.minutes(3)))
    func brokerForgetsNothingLost() throws {
        let broker = try MosquittoBroker()
        let first = try MotionBatchProcess(["collect", broker.url("collector"), "--output-dir", "collected", "--password-file", try broker.passwordFile("collector"),
                                            "--client-id", "away", "--duration", "2"], in: dir, name: "first-collector")
        #expect(first.wait(seconds: 20) == 0, "\(first.stderr)")
        let walk = try syntheticWalk(seconds: 20, in: dir, name: "walk20.csv")
        let ids = ["b1", "b2", "b3"]
        let away = try ids.map { try board(broker, user: $0, id: $0, file: walk, name: "\($0)-away") }
        for b in away { #expect(b.wait(seconds: 60) == 0, "\(b.stderr)") }
        // The broker took everything, then forgets it: a restart without its persistence file.
        broker.stop()
        try FileManager.default.removeItem(at: broker.dir.appendingPathComponent("mosquitto.db"))
        try broker.start()
        let c = try collector(broker, extra: ["--client-id", "away"])
        let short = try syntheticWalk(seconds: 5, in: dir, name: "walk5.csv")
        let again = try ids.map { try board(broker, user: $0, id: $0, file: short, pace: "realtime", name: "\($0)-again") }
        for b in again { #expect(b.wait(seconds: 60) == 0, "\(b.stderr)") }
        usleep(1_000_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 20) == 0, "\(c.stderr)")
        for (i, id) in ids.enumerated() {
            try expectExactlyOnce(board: id, own: ndjsonObjects(away[i].stdout))
            try expectExactlyOnce(board: id, own: ndjsonObjects(again[i].stdout))
            #expect(again[i].stderr.contains("sending again"), "\(again[i].stderr.suffix(400))")
        }
    }

    @Test("a full outbox while no collector acknowledges: the drops are counted in the board's summary and the report misses exactly them",
          .timeLimit(.minutes(3)))
    func outboxDropsReported() throws {
        let broker = try MosquittoBroker()
        let first = try MotionBatchProcess(["collect", broker.url("collector"), "--output-dir", "collected", "--password-file", try broker.passwordFile("collector"),
                                            "--client-id", "away", "--duration", "2"], in: dir, name: "first-collector")
        #expect(first.wait(seconds: 20) == 0, "\(first.stderr)")
        let away = try board(broker, user: "b1", id: "b1", file: try syntheticWalk(seconds: 40, in: dir, name: "walk40.csv"), extra: ["--outbox-max", "8K"], name: "b1-away")
        #expect(away.wait(seconds: 60) == 0, "\(away.stderr)")
        #expect(away.stderr.contains("the outbox is full"), "\(away.stderr)")
        // The broker forgets what it queued: the outbox is all there is.
        broker.stop()
        try FileManager.default.removeItem(at: broker.dir.appendingPathComponent("mosquitto.db"))
        try broker.start()
        let c = try collector(broker, extra: ["--client-id", "away"])
        let again = try board(broker, user: "b1", id: "b1", file: try syntheticWalk(seconds: 4, in: dir, name: "walk4.csv"), pace: "realtime", name: "b1-again")
        #expect(again.wait(seconds: 60) == 0, "\(again.stderr)")
        usleep(1_000_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 20) == 0, "\(c.stderr)")
        let session = try #require(ndjsonObjects(away.stdout).first?["session"] as? String)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("collected/b1/\(session).summary.json"))) as? [String: Any])
        let dropped = try #require(summary["outbox_dropped"] as? Int)
        #expect(dropped > 0, "the summary counts the drops (summaries are never dropped)")
        let report = try MotionBatchProcess(["collect", "report", "collected", "--json"], in: dir, name: "report")
        #expect(report.wait(seconds: 30) == 0, "\(report.stderr)")
        let row = try #require(((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["boards"] as? [[String: Any]])?.first)
        let missing = (row["missing"] as? [[String: Any]])?.first { $0["session"] as? String == session }
        #expect((missing?["in_gaps"] as? Int ?? 0) + (missing?["tail"] as? Int ?? 0) == dropped, "exactly the dropped messages are missing: \(row)")
        #expect(row["outbox_dropped"] as? Int == dropped)
        try expectExactlyOnce(board: "b1", own: ndjsonObjects(again.stdout))
    }
}
