import Foundation
import Testing
import MotionCore
import MotionTestSupport
@testable import MotionFleet
#if canImport(Glibc)
import Glibc
#endif

extension FleetBrokerTests {
    /// The hostile messages (reproductions 2, 3 and 5), as a board's user may publish them.
    static let hostile: [(payload: [UInt8], reason: String)] = {
        let head = "{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s1\""
        let utf16 = "{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s1\",\"seq\":9}"
        return [
            (Array("{\"schema\":1,\"board\":\"b1\",\"session\":\"notype\",\"seq\":1}".utf8), "type"),
            (Array("{\"schema\":1,\"board\":\"b1\",\"type\":5,\"session\":\"s1\",\"seq\":1}".utf8), "type"),
            ([0xFF, 0xFE] + utf16.utf16.flatMap { (u: UInt16) -> [UInt8] in [UInt8(u & 0xFF), UInt8(u >> 8)] }, "encoding"),
            (Array("{\"schema\":true,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s1\",\"seq\":1}".utf8), "schema"),
            (Array("{\"schema\":999,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s1\",\"seq\":1}".utf8), "schema"),
            (Array((head + ",\"seq\":true}").utf8), "seq"),
            (Array((head + ",\"seq\":9223372036854775807}").utf8), "seq"),
            (Array((head + ",\"seq\":5,\"steps\":9223372036854775807}").utf8), "value"),
            (Array((head + ",\"seq\":6,\"wakeups_per_hour\":{\"scheduler\":1e308}}").utf8), "value"),
            (Array((head + ",\"seq\":7,\"pad\":\"" + String(repeating: "x", count: 5000) + "\"}").utf8), "too_large"),
        ]
    }()

    @Test("hostile messages are rejected with a counted reason before anything is written; the collector and the report survive hostile lines on disk",
          .timeLimit(.minutes(2)))
    func hostileMessages() throws {
        let broker = try MosquittoBroker()
        let c = try collector(broker, extra: ["--max-payload", "4K", "--stats-json", "stats.json"])
        let good = "{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s1\",\"seq\":1,\"steps\":4,\"total_samples\":50}"
        let summary = "{\"schema\":1,\"board\":\"b1\",\"type\":\"summary\",\"session\":\"s1\",\"seq\":2,\"steps\":9,\"samples\":100,\"activity_time_s\":{\"walking\":2}}"
        let acked = try RawPublisher.publish(Self.hostile.map { ("fleet/b1/batch", $0.payload) } + [("fleet/b1/batch", Array(good.utf8)), ("fleet/b1/summary", Array(summary.utf8))],
                                             broker: broker, user: "b1")
        #expect(acked == Self.hostile.count + 2)
        waitUntil(seconds: 10) { FileManager.default.fileExists(atPath: dir.appendingPathComponent("collected/b1/s1.summary.json").path) }
        usleep(500_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 10) == 0, "\(c.stderr)")
        let ndjson = dir.appendingPathComponent("collected/b1/s1.ndjson")
        #expect(try String(contentsOf: ndjson, encoding: .utf8) == good + "\n" + summary + "\n", "only the two fleet messages were written")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("collected/b1/notype.ndjson").path))
        #expect(c.stderr.contains("\(Self.hostile.count) rejected"), "\(c.stderr)")
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("stats.json"))) as? [String: Any])
        let byReason = try #require(stats["rejected_by_reason"] as? [String: Int])
        for (reason, n) in Dictionary(Self.hostile.map { ($0.reason, 1) }, uniquingKeysWith: +) {
            #expect(byReason[reason] == n, "\(reason): \(byReason)")
        }
        #expect(stats["written"] as? Int == 2)

        // Lines an older collector wrote: the blocking line, a figure that crashed the report.
        let bad = ["{\"schema\":1,\"board\":\"b1\",\"session\":\"notype\",\"seq\":1}",
                   "{\"schema\":1,\"board\":\"b1\",\"type\":\"summary\",\"session\":\"s1\",\"seq\":3,\"steps\":9223372036854775807,\"activity_time_s\":{\"walking\":1e308}}"]
        let h = try FileHandle(forWritingTo: ndjson)
        h.seekToEndOfFile()
        h.write(Data((bad.joined(separator: "\n") + "\n").utf8))
        try h.close()
        let report = try MotionBatchProcess(["collect", "report", "collected", "--json"], in: dir, name: "report")
        #expect(report.wait(seconds: 30) == 0, "\(report.stderr)")
        #expect(report.stderr.contains("s1.ndjson:3: ") && report.stderr.contains("s1.ndjson:4: "), "\(report.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        #expect(json["skipped_lines"] as? Int == 2)
        let row = try #require((json["boards"] as? [[String: Any]])?.first)
        #expect(row["steps"] as? Int == 9, "the summary's steps; the skipped lines count for nothing")
        for extra in [["--html", "r.html"], ["--strict"]] {
            let r = try MotionBatchProcess(["collect", "report", "collected"] + extra, in: dir, name: "report-\(extra[0])")
            #expect(r.wait(seconds: 30) == (extra[0] == "--strict" ? 1 : 0), "\(r.stderr)")
        }

        // A collector restarted on that directory starts, warns (file and line) and goes on collecting.
        let again = try collector(broker, name: "again")
        #expect(again.stderr.contains("s1.ndjson:3: ") && again.stderr.contains("line skipped"), "\(again.stderr)")
        let third = "{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s2\",\"seq\":1}"
        try RawPublisher.publish([("fleet/b1/batch", Array(third.utf8))], broker: broker, user: "b1")
        waitUntil(seconds: 10) { FileManager.default.fileExists(atPath: dir.appendingPathComponent("collected/b1/s2.ndjson").path) }
        again.signal(SIGTERM)
        #expect(again.wait(seconds: 10) == 0, "\(again.stderr)")
        #expect((try? String(contentsOf: dir.appendingPathComponent("collected/b1/s2.ndjson"), encoding: .utf8)) == third + "\n")
    }

    @Test("loss is visible: the collector's report lists the gaps and the tail after the last message received, against the board's status", .timeLimit(.minutes(1)))
    func missingReported() throws {
        let broker = try MosquittoBroker()
        let c = try collector(broker)
        func batch(_ n: Int) -> (topic: String, payload: [UInt8]) {
            ("fleet/b1/batch", Array("{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s1\",\"seq\":\(n)}".utf8))
        }
        let status = "{\"schema\":1,\"board\":\"b1\",\"type\":\"status\",\"session\":\"s1\",\"state\":\"online\",\"outbox_dropped\":2,\"last_seq\":10}"
        try RawPublisher.publish([batch(1), batch(2), batch(5), ("fleet/b1/status", Array(status.utf8))], broker: broker, user: "b1")
        waitUntil(seconds: 10) { FileManager.default.fileExists(atPath: dir.appendingPathComponent("collected/b1/status.json").path) }
        usleep(300_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 10) == 0, "\(c.stderr)")
        let table = try MotionBatchProcess(["collect", "report", "collected"], in: dir, name: "report-table")
        #expect(table.wait(seconds: 30) == 0, "\(table.stderr)")
        #expect(table.stdout.contains("missing: b1 session s1: 3-4; 5 after the last received"), "\(table.stdout)")
        let report = try MotionBatchProcess(["collect", "report", "collected", "--json"], in: dir, name: "report-json")
        #expect(report.wait(seconds: 30) == 0, "\(report.stderr)")
        let row = try #require(((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["boards"] as? [[String: Any]])?.first)
        #expect(row["missing_messages"] as? Int == 7)
        #expect(row["outbox_dropped"] as? Int == 2)
        let missing = try #require((row["missing"] as? [[String: Any]])?.first)
        #expect(missing["tail"] as? Int == 5 && missing["in_gaps"] as? Int == 2)
        // A restarted collector gets the retained status again: not news, last seen stays.
        let statusFile = dir.appendingPathComponent("collected/b1/status.json")
        let before = try String(contentsOf: statusFile, encoding: .utf8)
        let again = try collector(broker, name: "again")
        usleep(1_000_000)
        again.signal(SIGTERM)
        #expect(again.wait(seconds: 10) == 0, "\(again.stderr)")
        #expect(try String(contentsOf: statusFile, encoding: .utf8) == before, "the redelivered retained status did not rewrite status.json")
    }
}

extension FleetBrokerTests {
    @Test("a payload above the collector's --max-payload never reaches its memory: it announces an MQTT v5 maximum packet size, so a broker without message_size_limit drops it for the collector; the collector goes on",
          .timeLimit(.minutes(1)))
    func oversizeNeverDelivered() throws {
        let broker = try MosquittoBroker(settings: ["message_size_limit": nil])
        let c = try collector(broker, extra: ["--max-payload", "4K", "--stats-json", "stats.json"])
        let head = "{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s1\",\"seq\":"
        func padded(_ seq: Int, to bytes: Int) -> [UInt8] {
            let start = head + "\(seq),\"pad\":\""
            return Array((start + String(repeating: "x", count: bytes - start.utf8.count - 2) + "\"}").utf8)
        }
        let limit = 4096
        let messages = [padded(1, to: limit + 100),              // within the packet's allowance: delivered, refused as too_large
                        padded(2, to: limit + 2 * FleetCollector.packetAllowance),  // a little over: never delivered
                        padded(3, to: 8 << 20),                   // 8 MB: never delivered
                        Array((head + "4}").utf8)]
        let acked = try RawPublisher.publish(messages.map { ("fleet/b1/batch", $0) }, broker: broker, user: "b1")
        #expect(acked == 4, "the broker took all four (it has no size limit)")
        waitUntil(seconds: 10) { ((try? String(contentsOf: dir.appendingPathComponent("collected/b1/s1.ndjson"), encoding: .utf8)) ?? "").contains("\"seq\":4") }
        usleep(300_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 10) == 0, "the collector went on and stopped cleanly: \(c.stderr)")
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("stats.json"))) as? [String: Any])
        #expect(stats["received"] as? Int == 2, "the two above the packet limit never arrived: \(stats)")
        #expect((stats["rejected_by_reason"] as? [String: Int])?["too_large"] == 1 && stats["written"] as? Int == 1, "\(stats)")
        #expect(try String(contentsOf: dir.appendingPathComponent("collected/b1/s1.ndjson"), encoding: .utf8) == head + "4}\n")
    }
}
