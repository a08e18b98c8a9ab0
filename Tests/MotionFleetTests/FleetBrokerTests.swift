import Foundation
import Testing
import MotionCore
import MotionTestSupport
@testable import MotionFleet
#if canImport(Glibc)
import Glibc
#endif

/// The issue's tests against a real Mosquitto started on 127.0.0.1 (a free port) with passwords,
/// an ACL and TLS; boards are `motionbatch replay FILE --publish ...` processes, the collector a
/// `motionbatch collect` process. Everything is bounded in time and stopped by the tests.
@Suite("Fleet over a real broker", .serialized, .enabled(if: MosquittoBroker.available && MotionBatchProcess.executable != nil,
                                                        "needs mosquitto, mosquitto_passwd, openssl (scripts/install-deps.sh) and the built motionbatch"))
struct FleetBrokerTests {
    let dir: URL

    init() throws { dir = try TestPaths.makeScratchDirectory(prefix: "fleet-broker") }

    /// Starts a collector (user `collector`) into `dir/collected`.
    func collector(_ broker: MosquittoBroker, name: String = "collector", extra: [String] = []) throws -> MotionBatchProcess {
        let c = try MotionBatchProcess(["collect", broker.url("collector"), "--output-dir", "collected", "--password-file", try broker.passwordFile("collector"),
                                        "--duration", "240", "--reconnect-max", "2"] + (broker.tls ? ["--ca-file", broker.caFile] : []) + extra,
                                       in: dir, name: name)
        // Subscribed before any board publishes: its persistent session exists from here on.
        let deadline = Date().addingTimeInterval(10)
        while !c.stderr.contains("connected"), Date() < deadline { usleep(20_000) }
        usleep(300_000)
        return c
    }

    /// Starts a simulated board.
    func board(_ broker: MosquittoBroker, user: String, id: String, file: String, pace: String = "fast", extra: [String] = [], name: String? = nil) throws -> MotionBatchProcess {
        try MotionBatchProcess(["replay", file, "--publish", broker.url(user), "--board-id", id, "--password-file", try broker.passwordFile(user),
                                "--pace", pace, "--ndjson", "--reconnect-max", "1", "--outbox", "\(id).outbox"]
                               + (broker.tls ? ["--ca-file", broker.caFile] : []) + extra, in: dir, name: name ?? id)
    }

    /// What the collector wrote (into `root`) for `board`: session id -> objects, in file order.
    func collected(_ board: String, root: String = "collected") throws -> [String: [[String: Any]]] {
        let bdir = dir.appendingPathComponent("\(root)/\(board)")
        var out: [String: [[String: Any]]] = [:]
        for f in try FileManager.default.contentsOfDirectory(atPath: bdir.path) where f.hasSuffix(".ndjson") {
            // The collector's receipts of samples messages (their rows are in the recording) apart.
            out[String(f.dropLast(7))] = ndjsonObjects(try String(contentsOf: bdir.appendingPathComponent(f), encoding: .utf8)).filter { $0["type"] as? String != "samples" }
        }
        return out
    }

    /// Checks that the collector holds exactly the board's own NDJSON lines, once each, in order.
    func expectExactlyOnce(board: String, own: [[String: Any]], root: String = "collected", sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let session = own.first?["session"] as? String else { Issue.record("the board printed nothing", sourceLocation: sourceLocation); return }
        let got = try collected(board, root: root)[session] ?? []
        let ownSeqs = own.compactMap { $0["seq"] as? Int }
        let gotSeqs = got.compactMap { $0["seq"] as? Int }
        #expect(gotSeqs == ownSeqs, "collected \(gotSeqs.count) of \(ownSeqs.count) messages of \(board)", sourceLocation: sourceLocation)
        // Every batch message is the board's own --ndjson object, with the envelope in front.
        // (Each carries its own schema: the NDJSON line's version, and the fleet's in the message.)
        let ownBatches = own.filter { $0["type"] as? String == "batch" }.map { o in o.filter { $0.key != "schema" } }
        let gotBatches = got.filter { $0["type"] as? String == "batch" }.map { o in o.filter { $0.key != "schema" && $0.key != "board" } }
        #expect(gotBatches.count == ownBatches.count, sourceLocation: sourceLocation)
        for (a, b) in zip(ownBatches, gotBatches) where !NSDictionary(dictionary: a).isEqual(to: b) {
            Issue.record("batch \(a["seq"] ?? "?") differs", sourceLocation: sourceLocation)
            break
        }
    }

    @Test("1. simulated boards publish; collect receives every message exactly once, in order; the report's figures are the boards' own summaries",
          .timeLimit(.minutes(3)))
    func everyMessageOnce() throws {
        let broker = try MosquittoBroker()
        let c = try collector(broker)
        let hapt = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user05-mixed.csv").path
        let b1 = try board(broker, user: "b1", id: "b1", file: hapt)
        let b2 = try board(broker, user: "b2", id: "b2", file: try syntheticWalk(seconds: 8, in: dir), pace: "realtime")
        #expect(b1.wait(seconds: 60) == 0, "\(b1.stderr)")
        #expect(b2.wait(seconds: 60) == 0, "\(b2.stderr)")
        usleep(1_000_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 10) == 0, "\(c.stderr)")
        #expect(c.stderr.contains("0 rejected"))
        for (id, b) in [("b1", b1), ("b2", b2)] {
            let own = ndjsonObjects(b.stdout)
            try expectExactlyOnce(board: id, own: own)
            let summary = try #require(own.last { $0["type"] as? String == "summary" })
            let report = try FleetReport.read(dir.appendingPathComponent("collected").path)
            let row = try #require(report.boards.first { $0.board == id })
            #expect(row.steps == summary["steps"] as? Int)
            #expect(row.lostSamples == summary["lost_samples"] as? Int)
            #expect(row.samples == summary["samples"] as? Int)
            let ownActivity = (summary["activity_time_s"] as? [String: Any]).map { $0.mapValues { ($0 as! NSNumber).doubleValue } } ?? [:]
            #expect(Dictionary(uniqueKeysWithValues: row.activitySeconds) == ownActivity)
            #expect(row.state == "offline")
            #expect(row.missing == 0)
            // What the board sent, per kind, is in its summary and its last status.
            let session = try #require(summary["session"] as? String)
            let published = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("collected/\(id)/\(session).summary.json"))) as? [String: Any])
            let sent = try #require(published["sent"] as? [String: Int])
            for kind in ["batch", "event", "summary"] {
                #expect(sent[kind] == own.filter { $0["type"] as? String == kind }.count, "\(id) sent \(kind)")
            }
            let status = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("collected/\(id)/status.json"))) as? [String: Any])
            #expect((status["status"] as? [String: Any])?["last_seq"] as? Int == summary["seq"] as? Int)
        }
    }

    @Test("2. the broker stopped for 30 s mid-session and restarted: nothing lost or duplicated after dedupe, order kept, the samples unaffected",
          .timeLimit(.minutes(3)))
    func brokerOutage() throws {
        let broker = try MosquittoBroker()
        let c = try collector(broker)
        let file = try syntheticWalk(seconds: 45, in: dir)
        let b = try board(broker, user: "b1", id: "b1", file: file, pace: "realtime")
        usleep(6_000_000)
        broker.stop()
        usleep(30_000_000)
        try broker.start()
        #expect(b.wait(seconds: 60) == 0, "\(b.stderr)")
        #expect(b.stderr.contains("connection lost"), "\(b.stderr)")
        waitUntil(seconds: 20) { c.stderr.components(separatedBy: "collect: connected").count > 2 }
        usleep(1_500_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 10) == 0)
        let own = ndjsonObjects(b.stdout)
        try expectExactlyOnce(board: "b1", own: own)
        #expect(own.last?["samples"] as? Int == 45 * 50, "the session's samples are the recording's")
    }

    @Test("3. the publisher killed with SIGKILL and restarted: what the outbox held is sent; nothing lost", .timeLimit(.minutes(3)))
    func killedPublisher() throws {
        let broker = try MosquittoBroker()
        let c = try collector(broker)
        let file = try syntheticWalk(seconds: 30, in: dir)
        let first = try board(broker, user: "b1", id: "b1", file: file, pace: "realtime", name: "first")
        usleep(3_000_000)
        broker.stop()          // what follows stays in the outbox
        usleep(4_000_000)
        first.signal(SIGKILL)
        first.wait(seconds: 5)
        let killed = ndjsonObjects(first.stdout)
        let session = try #require(killed.first?["session"] as? String)
        let journaled = try OutboxJournal.parse(Array(try Data(contentsOf: dir.appendingPathComponent("b1.outbox"))), file: "b1.outbox")
        #expect(!journaled.entries.isEmpty, "the outbox holds the unacknowledged messages")
        try broker.start()
        let second = try board(broker, user: "b1", id: "b1", file: file, name: "second")
        #expect(second.wait(seconds: 60) == 0, "\(second.stderr)")
        #expect(second.stderr.contains("of an earlier run"))
        // The collector reconnects on its own back-off; what the broker queued for it follows.
        waitUntil(seconds: 20) { c.stderr.components(separatedBy: "collect: connected").count > 2 }
        usleep(1_500_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 10) == 0)
        // Every message the killed board printed (it prints after journaling) reached the collector, in order.
        let got = try collected("b1")[session] ?? []
        let printed = killed.compactMap { $0["seq"] as? Int }
        #expect(Array(got.compactMap { $0["seq"] as? Int }.prefix(printed.count)) == printed)
        try expectExactlyOnce(board: "b1", own: ndjsonObjects(second.stdout))
    }

    @Test("4. wrong password, wrong CA, nothing listening: a clear error with its remedy; the session goes on", .timeLimit(.minutes(2)))
    func connectionErrors() throws {
        let file = try syntheticWalk(seconds: 4, in: dir)
        let broker = try MosquittoBroker(tls: true)
        let wrongPassword = try MotionBatchProcess(["replay", file, "--publish", broker.url("b1"), "--board-id", "b1", "--ca-file", broker.caFile,
                                                    "--password-file", try broker.passwordFile("b1", password: "nope"), "--outbox", "p.outbox"], in: dir, name: "pw")
        let wrongCA = try MotionBatchProcess(["replay", file, "--publish", broker.url("b1"), "--board-id", "b1", "--ca-file", broker.otherCAFile,
                                              "--password-file", try broker.passwordFile("b1"), "--outbox", "ca.outbox"], in: dir, name: "ca")
        let port = try MosquittoBroker.freePort()
        let nobody = try MotionBatchProcess(["replay", file, "--publish", "mqtt://127.0.0.1:\(port)/fleet", "--board-id", "b1", "--outbox", "n.outbox"], in: dir, name: "nobody")
        for (p, words) in [(wrongPassword, ["refused the user or password", "--password-file"]), (wrongCA, ["TLS", "--ca-file"]),
                           (nobody, ["127.0.0.1:\(port)", "check that the broker runs"])] {
            #expect(p.wait(seconds: 30) == 0, "\(p.stderr)")
            for w in words { #expect(p.stderr.contains(w), "\(w) in \(p.stderr)") }
            #expect(p.stdout.contains("samples        200 "), "the session went on: \(p.stdout)")
            #expect(p.stderr.contains("stay in the outbox"))
        }
    }

    @Test("5. the ACL lets a board publish only under its own id: elsewhere is refused and reported", .timeLimit(.minutes(2)))
    func aclRefusal() throws {
        let broker = try MosquittoBroker()
        let c = try collector(broker)
        let b = try board(broker, user: "b1", id: "b2", file: try syntheticWalk(seconds: 3, in: dir))
        #expect(b.wait(seconds: 30) == 0, "\(b.stderr)")
        #expect(b.stderr.contains("refused fleet/b2/batch"), "\(b.stderr)")
        // The issue's reproduction 5: one line when refusals start (not one per message), then counts.
        let refusals = b.stderr.split(separator: "\n").filter { $0.contains("refused fleet/b2/batch") && !$0.contains("more") }
        #expect(refusals.count == 1, "one line per change of state: \(refusals.count) lines")
        #expect(b.stderr.contains("not authorized") || b.stderr.contains("Not authorized"), "\(b.stderr)")
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 10) == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("collected/b2").path), "nothing of b2 was collected")
        let j = try OutboxJournal.parse(Array(try Data(contentsOf: dir.appendingPathComponent("b2.outbox"))), file: "b2.outbox")
        #expect(j.entries.isEmpty, "refused messages are not retried")
    }

    @Test("--publish-samples: the collected recording holds exactly the board's samples and replays to the board's steps",
          .timeLimit(.minutes(3)))
    func publishedSamples() throws {
        let broker = try MosquittoBroker()
        let c = try collector(broker)
        let hapt = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user05-mixed.csv").path
        let b = try board(broker, user: "b1", id: "b1", file: hapt, extra: ["--publish-samples"])
        #expect(b.wait(seconds: 60) == 0, "\(b.stderr)")
        usleep(1_000_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 10) == 0, "\(c.stderr)")
        #expect(c.stderr.contains("0 rejected"), "\(c.stderr)")
        let own = ndjsonObjects(b.stdout)
        try expectExactlyOnce(board: "b1", own: own)
        let session = try #require(own.first?["session"] as? String)
        let recording = dir.appendingPathComponent("collected/b1/\(session).samples.csv").path
        func samples(_ path: String) throws -> [Sample] {
            let r = try RecordingReader(path: path)
            var all: [Sample] = []
            while let chunk = try r.next() { all += chunk.samples }
            return all
        }
        let source = try samples(hapt)
        let got = try samples(recording)
        #expect(got.count == source.count)
        #expect(got == source, "the collected samples are the source's, value for value")
        // Replaying the collected recording gives the board's own steps.
        let summary = try #require(own.last { $0["type"] as? String == "summary" })
        let replay = try MotionBatchProcess(["replay", recording, "--json"], in: dir, name: "replay-collected")
        #expect(replay.wait(seconds: 60) == 0, "\(replay.stderr)")
        let replayed = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
        #expect(replayed["steps"] as? Int == summary["steps"] as? Int)
        #expect((replayed["steps"] as? Int ?? 0) > 0)
    }
}

/// Test 6 of the issue: scale on loopback, bounded.
@Suite("Fleet at scale", .serialized, .enabled(if: MosquittoBroker.available && MotionBatchProcess.executable != nil, "needs mosquitto and the built motionbatch"))
struct FleetScaleTests {
    @Test("6. 100 simulated boards at 1 batch/s for 60 s into one broker: the collector keeps up; lag and CPU per message reported",
          .timeLimit(.minutes(6)))
    func hundredBoards() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "fleet-scale")
        let broker = try MosquittoBroker(authenticated: false)
        let c = try MotionBatchProcess(["collect", broker.url(nil), "--output-dir", "collected", "--duration", "300"], in: dir, name: "collector")
        waitUntil(seconds: 10) { c.stderr.contains("connected") }
        let file = try syntheticWalk(seconds: 60, in: dir)
        let started = Date()
        var boards: [MotionBatchProcess] = []
        for i in 1...100 {
            let id = "s" + String(1000 + i).dropFirst()
            boards.append(try MotionBatchProcess(["replay", file, "--publish", broker.url(nil), "--board-id", id, "--pace", "realtime",
                                                  "--outbox", "\(id).outbox"], in: dir, name: id))
        }
        let launch = Date().timeIntervalSince(started)
        for b in boards { #expect(b.wait(seconds: 200) == 0, "\(b.stderr.suffix(300))") }
        let boardsDone = Date()
        // Lag: from the last board's end until the collector holds every board's summary.
        let summaries = { (1...100).filter { i in
            let id = "s" + String(1000 + i).dropFirst()
            let d = dir.appendingPathComponent("collected/\(id)").path
            return ((try? FileManager.default.contentsOfDirectory(atPath: d)) ?? []).contains { $0.hasSuffix(".summary.json") }
        }.count }
        waitUntil(seconds: 60) { summaries() == 100 }
        let lag = Date().timeIntervalSince(boardsDone)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 20) == 0)
        #expect(summaries() == 100, "every board's summary arrived")
        let report = try FleetReport.read(dir.appendingPathComponent("collected").path)
        #expect(report.boards.count == 100)
        #expect(report.boards.allSatisfy { $0.missing == 0 && $0.samples == 3000 }, "nothing missing")
        let messages = report.boards.reduce(0) { $0 + $1.messages }
        print("fleet scale: 100 boards, \(messages) messages in \(formatted(Date().timeIntervalSince(started))) s (launch \(formatted(launch)) s); collector lag after the last board \(formatted(lag)) s; \(c.stderr.split(separator: "\n").last ?? "")")
    }

    func formatted(_ v: Double) -> String { String(format: "%.2f", v) }
}
