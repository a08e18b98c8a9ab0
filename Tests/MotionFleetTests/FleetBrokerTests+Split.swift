import Foundation
import Testing
import MotionCore
import MotionTestSupport
@testable import MotionFleet
#if canImport(Glibc)
import Glibc
#endif

extension FleetBrokerTests {
    @Test("samples above the board's --max-payload arrive complete in several messages; the collector writes them in order, value for value",
          .timeLimit(.minutes(3)))
    func splitSamples() throws {
        let broker = try MosquittoBroker()
        let c = try collector(broker, extra: ["--max-payload", "1K", "--stats-json", "stats.json"])
        let hapt = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user05-mixed.csv").path
        let b = try board(broker, user: "b1", id: "b1", file: hapt, extra: ["--publish-samples", "--max-payload", "1K"])
        #expect(b.wait(seconds: 90) == 0, "\(b.stderr)")
        #expect(!b.stderr.contains("not published"), "\(b.stderr)")
        usleep(1_000_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 10) == 0, "\(c.stderr)")
        let own = ndjsonObjects(b.stdout)
        let session = try #require(own.first?["session"] as? String)
        let batches = own.filter { $0["type"] as? String == "batch" }.count
        // The collector's receipts: every batch's samples in several parts, in order.
        let text = try String(contentsOf: dir.appendingPathComponent("collected/b1/\(session).ndjson"), encoding: .utf8)
        let receipts = ndjsonObjects(text).filter { $0["type"] as? String == "samples" }
        let parts = receipts.map { ($0["seq"] as? Int ?? 0) * 10_000 + ($0["part"] as? Int ?? 0) }
        #expect(receipts.count > 2 * batches, "\(receipts.count) samples messages for \(batches) batches")
        #expect(parts == parts.sorted() && Set(parts).count == parts.count, "written once each, in order")
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("stats.json"))) as? [String: Any])
        let reasons = stats["rejected_by_reason"] as? [String: Int] ?? [:]
        #expect(reasons["too_large"] == 0, "every samples message within the collector's 1K: \(reasons)")
        let r = try RecordingReader(path: dir.appendingPathComponent("collected/b1/\(session).samples.csv").path)
        var got: [Sample] = []
        while let chunk = try r.next() { got += chunk.samples }
        let source = try RecordingReader(path: hapt)
        var want: [Sample] = []
        while let chunk = try source.next() { want += chunk.samples }
        #expect(got == want, "the collected samples are the source's (\(got.count) of \(want.count))")
    }

    @Test("a board with more unacknowledged sessions than an acknowledgement's recent ones (20 runs while the collector is away): all acknowledged when it is back",
          .timeLimit(.minutes(4)))
    func manySessionsAcknowledged() throws {
        let broker = try MosquittoBroker()
        let first = try MotionBatchProcess(["collect", broker.url("collector"), "--output-dir", "collected", "--password-file", try broker.passwordFile("collector"),
                                            "--client-id", "away", "--duration", "1"], in: dir, name: "first-collector")
        #expect(first.wait(seconds: 20) == 0, "\(first.stderr)")
        let walk = try syntheticWalk(seconds: 3, in: dir, name: "walk3.csv")
        var sessions: [[[String: Any]]] = []
        for i in 1...20 {
            let b = try board(broker, user: "b1", id: "b1", file: walk, name: "b1-away-\(i)")
            #expect(b.wait(seconds: 30) == 0, "\(b.stderr)")
            sessions.append(ndjsonObjects(b.stdout))
        }
        // Every acknowledgement the collector publishes, from its return on.
        let acks = try RawSubscriber("fleet/_ack/b1/away", broker: broker, user: "collector")
        let c = try collector(broker, extra: ["--client-id", "away"])
        // What the broker queued for the collector (every session) arrives at once: each session
        // written is named in the acknowledgement that follows (not only the 16 most recent).
        let written = Set(sessions.compactMap { $0.first?["session"] as? String })
        var named = Set<String>()
        let until = Date().addingTimeInterval(10)
        while !written.isSubset(of: named), Date() < until {
            for p in try acks.take(milliseconds: 200) { named.formUnion(FleetAck.parse(p)?.sessions.map(\.session) ?? []) }
        }
        #expect(written.count == 20 && written.isSubset(of: named), "the acknowledgements name all 20 sessions the collector wrote (\(named.intersection(written).count))")
        let last = try board(broker, user: "b1", id: "b1", file: walk, pace: "realtime", name: "b1-back")
        #expect(last.wait(seconds: 60) == 0, "\(last.stderr)")
        usleep(500_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 20) == 0, "\(c.stderr)")
        for own in sessions + [ndjsonObjects(last.stdout)] { try expectExactlyOnce(board: "b1", own: own) }
        #expect(!last.stderr.contains("stay in the outbox"), "every session acknowledged: \(last.stderr.suffix(400))")
        let outbox = try OutboxJournal.parse(Array(try Data(contentsOf: dir.appendingPathComponent("b1.outbox"))), file: "b1")
        #expect(outbox.entries.isEmpty, "the outbox is empty (\(outbox.entries.count) left)")
    }
}

extension FleetBrokerTests {
    @Test("a collector restarted mid-session continues the samples where its receipts say: every sample collected once, in order",
          .timeLimit(.minutes(3)))
    func samplesAcrossCollectorRestart() throws {
        let broker = try MosquittoBroker()
        let first = try collector(broker, name: "collector-1", extra: ["--client-id", "keep"])
        let walk = try syntheticWalk(seconds: 14, in: dir, name: "walk14.csv")
        let b = try board(broker, user: "b1", id: "b1", file: walk, pace: "realtime", extra: ["--publish-samples"])
        usleep(5_000_000)
        first.signal(SIGTERM)
        #expect(first.wait(seconds: 10) == 0, "\(first.stderr)")
        usleep(1_000_000)
        let second = try collector(broker, name: "collector-2", extra: ["--client-id", "keep", "--stats-json", "stats2.json"])
        #expect(b.wait(seconds: 60) == 0, "\(b.stderr)")
        usleep(1_000_000)
        second.signal(SIGTERM)
        #expect(second.wait(seconds: 10) == 0, "\(second.stderr)")
        #expect(!b.stderr.contains("stay in the outbox"), "everything acknowledged: \(b.stderr.suffix(300))")
        let own = ndjsonObjects(b.stdout)
        try expectExactlyOnce(board: "b1", own: own)
        let session = try #require(own.first?["session"] as? String)
        var got: [Sample] = []
        for name in ["\(session).samples.csv", "\(session).samples-2.csv"] {
            let path = dir.appendingPathComponent("collected/b1/\(name)").path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let r = try RecordingReader(path: path)
            while let chunk = try r.next() { got += chunk.samples }
        }
        let source = try RecordingReader(path: walk)
        var want: [Sample] = []
        while let chunk = try source.next() { want += chunk.samples }
        #expect(got.count == want.count && got == want, "the two collectors' parts hold the source's samples once, in order (\(got.count) of \(want.count))")
    }
}
