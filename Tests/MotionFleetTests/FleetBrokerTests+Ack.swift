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

    @Test("a full outbox while no collector acknowledges, the broker then forgets its queue: the board declares its drops, the collector settles them and acknowledges past them; the outbox ends empty, the report shows exactly the dropped numbers as dropped and none missing",
          .timeLimit(.minutes(3)), arguments: ["8K", "32K"])
    func outboxDropsReported(limit: String) throws {
        let broker = try MosquittoBroker()
        let first = try MotionBatchProcess(["collect", broker.url("collector"), "--output-dir", "collected", "--password-file", try broker.passwordFile("collector"),
                                            "--client-id", "away", "--duration", "2"], in: dir, name: "first-collector")
        #expect(first.wait(seconds: 20) == 0, "\(first.stderr)")
        let away = try board(broker, user: "b1", id: "b1", file: try syntheticWalk(seconds: 40, in: dir, name: "walk40.csv"),
                             extra: ["--outbox-max", limit, "--publish-samples"], name: "b1-away")
        #expect(away.wait(seconds: 60) == 0, "\(away.stderr)")
        #expect(away.stderr.contains("the outbox is full"), "\(away.stderr)")
        // The broker forgets what it queued: the outbox is all there is.
        broker.stop()
        try FileManager.default.removeItem(at: broker.dir.appendingPathComponent("mosquitto.db"))
        try broker.start()
        let c = try collector(broker, extra: ["--client-id", "away", "--stats-json", "stats.json"])
        let again = try board(broker, user: "b1", id: "b1", file: try syntheticWalk(seconds: 4, in: dir, name: "walk4.csv"), pace: "realtime",
                              extra: ["--publish-samples"], name: "b1-again")
        #expect(again.wait(seconds: 60) == 0, "\(again.stderr)")
        usleep(1_000_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 20) == 0, "\(c.stderr)")
        let own = ndjsonObjects(away.stdout)
        let session = try #require(own.first?["session"] as? String)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("collected/b1/\(session).summary.json"))) as? [String: Any])
        let dropped = (summary["outbox_dropped"] as? Int ?? 0) + (summary["outbox_dropped_taken"] as? Int ?? 0)
        #expect(dropped > 0, "the summary counts the drops (summaries are never dropped)")
        // Everything the board still held was written and acknowledged: the outbox is empty.
        let outbox = try OutboxJournal.parse(Array(try Data(contentsOf: dir.appendingPathComponent("b1.outbox"))), file: "b1.outbox")
        #expect(outbox.entries.isEmpty, "the outbox is empty: \(outbox.entries.map { "\($0.kind) \($0.position.map { "\($0.sequence)" } ?? "")" })")
        #expect(!again.stderr.contains("stay in the outbox"), "\(again.stderr.suffix(400))")
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("stats.json"))) as? [String: Any])
        #expect(stats["samples_after_gap"] as? Int == 0, "the samples chain resumed after the declared drop: \(stats)")
        // The report: the numbers the board printed and the collector lacks are dropped, none missing.
        let printed = Set(own.compactMap { $0["seq"] as? Int })
        let got = Set((try collected("b1")[session] ?? []).compactMap { $0["seq"] as? Int })
        let lacking = printed.subtracting(got)
        #expect(got.isSubset(of: printed))
        if limit == "8K" {
            #expect(!lacking.isEmpty, "batch messages were dropped (all samples first)")
        } else {
            // Samples only were dropped (the oldest): the newest ones, kept, are written after the declared drop.
            let rows = (try? String(contentsOf: dir.appendingPathComponent("collected/b1/\(session).samples.csv"), encoding: .utf8))?
                .split(separator: "\n").filter { $0.first?.isNumber == true }.count ?? 0
            #expect(rows > 0, "the kept samples messages were written after the declared drop")
        }
        let report = try MotionBatchProcess(["collect", "report", "collected", "--json"], in: dir, name: "report")
        #expect(report.wait(seconds: 30) == 0, "\(report.stderr)")
        let row = try #require(((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["boards"] as? [[String: Any]])?.first)
        #expect(row["missing_messages"] as? Int == 0, "nothing missing: \(row)")
        #expect(row["dropped_messages"] as? Int == lacking.count, "exactly the dropped numbers: \(row)")
        let entry = (row["missing"] as? [[String: Any]])?.first { $0["session"] as? String == session }
        let ranges = (entry?["dropped"] as? [[Int]]) ?? []
        #expect(Set(ranges.flatMap { $0[0]...$0[1] }) == lacking || (entry?["in_dropped"] as? Int == lacking.count && ranges.count == 20),
                "the dropped ranges are the numbers the collector lacks: \(ranges)")
        #expect(row["outbox_dropped"] as? Int == summary["outbox_dropped"] as? Int && row["outbox_dropped_taken"] as? Int == summary["outbox_dropped_taken"] as? Int)
        try expectExactlyOnce(board: "b1", own: ndjsonObjects(again.stdout))
        print("fleet drops declared (--outbox-max \(limit)): \(printed.count) messages printed, \(got.count) collected, \(lacking.count) dropped (board: \(summary["outbox_dropped"] ?? "?") not taken, \(summary["outbox_dropped_taken"] ?? "?") taken)")
    }
}

extension FleetBrokerTests {
    @Test("two collectors for two partitions of the boards (ACL), one away with a short broker queue: no board drops what its collector did not write, and none sends again while only the other partition's collector is online",
          .timeLimit(.minutes(4)))
    func partitionedCollectors() throws {
        let acl = """
        user colA
        topic read fleet/b1/#
        topic write fleet/_ack/#
        topic write fleet/_collector/#
        user colB
        topic read fleet/b2/#
        topic write fleet/_ack/#
        topic write fleet/_collector/#
        pattern write fleet/%u/#
        pattern read fleet/_ack/%u/#
        pattern read fleet/_collector/+/status

        """
        let broker = try MosquittoBroker(boards: ["colA", "colB"], settings: ["max_queued_messages": "20"], acl: acl)
        func partition(_ user: String, name: String) throws -> MotionBatchProcess {
            let c = try MotionBatchProcess(["collect", broker.url(user), "--output-dir", "collected-\(user)", "--password-file", try broker.passwordFile(user),
                                            "--client-id", user, "--duration", "240", "--reconnect-max", "2"], in: dir, name: name)
            waitUntil(seconds: 10) { c.stderr.contains("connected") }
            usleep(300_000)
            return c
        }
        let a = try partition("colA", name: "colA-1")
        let b = try partition("colB", name: "colB")
        let short = try syntheticWalk(seconds: 3, in: dir, name: "walk3.csv")
        var runs: [String: [MotionBatchProcess]] = [:]
        // Both collectors online: each board is written by its own, which acknowledges it.
        for id in ["b1", "b2"] {
            let p = try board(broker, user: id, id: id, file: short, name: "\(id)-1")
            #expect(p.wait(seconds: 30) == 0, "\(p.stderr)")
            #expect(!p.stderr.contains("stay in the outbox"), "\(p.stderr.suffix(300))")
            runs[id, default: []].append(p)
        }
        // b1's collector goes away; b2's stays. b1 sends more than the broker queues for colA.
        a.signal(SIGTERM)
        #expect(a.wait(seconds: 10) == 0, "\(a.stderr)")
        let walk = try syntheticWalk(seconds: 20, in: dir, name: "walk20.csv")
        for i in 2...3 {
            let p = try board(broker, user: "b1", id: "b1", file: walk, name: "b1-\(i)")
            #expect(p.wait(seconds: 60) == 0, "\(p.stderr)")
            #expect(p.stderr.contains("stay in the outbox"), "its collector is away: \(p.stderr.suffix(300))")
            #expect(!p.stderr.contains("sending again"), "colB (the other partition) is online, colA is not: nothing sent again: \(p.stderr.suffix(400))")
            runs["b1", default: []].append(p)
        }
        let p = try board(broker, user: "b2", id: "b2", file: walk, name: "b2-2")
        #expect(p.wait(seconds: 60) == 0, "\(p.stderr)")
        runs["b2", default: []].append(p)
        // colA returns (what the broker queued for it is at most 20): b1 sends the rest again.
        let a2 = try partition("colA", name: "colA-2")
        let back = try board(broker, user: "b1", id: "b1", file: try syntheticWalk(seconds: 6, in: dir, name: "walk6.csv"), pace: "realtime", name: "b1-4")
        #expect(back.wait(seconds: 60) == 0, "\(back.stderr)")
        #expect(back.stderr.contains("sending again"), "\(back.stderr.suffix(400))")
        runs["b1", default: []].append(back)
        usleep(1_000_000)
        for c in [a2, b] {
            c.signal(SIGTERM)
            #expect(c.wait(seconds: 20) == 0, "\(c.stderr)")
        }
        let log = (try? String(contentsOf: broker.dir.appendingPathComponent("broker.log"), encoding: .utf8)) ?? ""
        #expect(log.contains("Outgoing messages are being dropped"), "the broker's queue for colA overflowed")
        for (id, user, other) in [("b1", "colA", "colB"), ("b2", "colB", "colA")] {
            for r in runs[id] ?? [] { try expectExactlyOnce(board: id, own: ndjsonObjects(r.stdout), root: "collected-\(user)") }
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("collected-\(other)/\(id)").path), "\(id) is \(user)'s only")
            let outbox = try OutboxJournal.parse(Array(try Data(contentsOf: dir.appendingPathComponent("\(id).outbox"))), file: id)
            #expect(outbox.entries.isEmpty, "\(id)'s outbox is empty: everything its collector wrote, nothing it did not")
        }
    }
}
