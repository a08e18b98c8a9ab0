import Foundation
import Testing
import MotionCore
import MotionTestSupport
@testable import MotionFleet
#if canImport(Glibc)
import Glibc
#endif

extension FleetBrokerTests {
    @Test("a board killed with SIGKILL mid-session, its last messages never collected: its periodic status (not the last will, which carries no counts) tells the collector how far it got; the report shows the missing tail",
          .timeLimit(.minutes(2)))
    func killedBoardTail() throws {
        let broker = try MosquittoBroker()
        let c = try collector(broker)
        let walk = try syntheticWalk(seconds: 40, in: dir, name: "walk40.csv")
        let b = try board(broker, user: "b1", id: "b1", file: walk, pace: "realtime", extra: ["--status-interval", "1"])
        waitUntil(seconds: 10) { (try? collected("b1").values.first?.count ?? 0) ?? 0 >= 3 }
        // From here the broker refuses the board's batch and event messages (its statuses still go):
        // the collector gets none of them, as if they were lost on the way.
        let acl = try MosquittoBroker.contribACL()
        #expect(acl.contains("pattern write fleet/%u/#"))
        try broker.reloadACL(acl.replacingOccurrences(of: "pattern write fleet/%u/#", with: "pattern write fleet/%u/status"))
        waitUntil(seconds: 10) { b.stderr.contains("refused fleet/b1/batch") }
        usleep(3_000_000)
        b.signal(SIGKILL)
        b.wait(seconds: 5)
        // The broker publishes the board's last will (retained, state offline, no counts).
        waitUntil(seconds: 5) { ((try? String(contentsOf: dir.appendingPathComponent("collected/b1/status.json"), encoding: .utf8)) ?? "").contains("\"state\":\"offline\"") }
        usleep(300_000)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 10) == 0, "\(c.stderr)")
        let own = ndjsonObjects(b.stdout)
        let session = try #require(own.first?["session"] as? String)
        let printed = own.compactMap { $0["seq"] as? Int }.max() ?? 0
        let got = Set((try collected("b1")[session] ?? []).compactMap { $0["seq"] as? Int })
        let highest = try #require(got.max())
        #expect(got == Set(1...highest), "the collector holds a gap-free start")
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("collected/b1/status.json"))) as? [String: Any])
        let status = try #require(file["status"] as? [String: Any])
        #expect(status["state"] as? String == "offline" && status["last_seq"] == nil, "the last will, without counts: \(status)")
        let figures = try #require((file["sessions"] as? [[String: Any]])?.first { $0["session"] as? String == session })
        let last = try #require(figures["last_seq"] as? Int, "the largest last_seq of the session's statuses is kept: \(figures)")
        #expect(last > highest && last <= printed, "the status said more than the collector got (\(highest)), at most what the board printed (\(printed)): \(last)")
        #expect((figures["sent"] as? [String: Int])?["batch"] ?? 0 > 0)
        let report = try MotionBatchProcess(["collect", "report", "collected", "--json"], in: dir, name: "report")
        #expect(report.wait(seconds: 30) == 0, "\(report.stderr)")
        let row = try #require(((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["boards"] as? [[String: Any]])?.first)
        let missing = try #require((row["missing"] as? [[String: Any]])?.first { $0["session"] as? String == session }, "\(row)")
        #expect(missing["tail"] as? Int == last - highest && missing["in_gaps"] as? Int == 0, "\(missing)")
        #expect(row["missing_messages"] as? Int == last - highest && row["state"] as? String == "offline")
        print("fleet killed board: printed \(printed), collected 1-\(highest), its last status said \(last): tail \(last - highest) reported")
    }
}

extension FleetBrokerTests {
    @Test("last seen is the newest message's receive time as the collector stored it: a copy of the directory (new file times) reports the same", .timeLimit(.minutes(1)))
    func lastSeenStored() throws {
        let broker = try MosquittoBroker()
        let c = try collector(broker)
        let before = Int64(Date().timeIntervalSince1970 * 1e9)
        try RawPublisher.publish((1...3).map { ("fleet/b1/batch", Array("{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s1\",\"seq\":\($0)}".utf8)) },
                                 broker: broker, user: "b1")
        waitUntil(seconds: 10) { FileManager.default.fileExists(atPath: dir.appendingPathComponent("collected/b1/last_seen").path) }
        usleep(300_000)
        let after = Int64(Date().timeIntervalSince1970 * 1e9)
        c.signal(SIGTERM)
        #expect(c.wait(seconds: 10) == 0, "\(c.stderr)")
        let stored = try #require(Int64(try String(contentsOf: dir.appendingPathComponent("collected/b1/last_seen"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(stored >= before && stored <= after, "the receive time of the newest message")
        func lastSeen(_ d: String) throws -> String? {
            let r = try MotionBatchProcess(["collect", "report", d, "--json"], in: dir, name: "report-\(d)")
            #expect(r.wait(seconds: 30) == 0, "\(r.stderr)")
            return (((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["boards"] as? [[String: Any]])?.first)?["last_seen_utc"] as? String
        }
        let original = try lastSeen("collected")
        #expect(original == UTCTime.iso8601(stored))
        // cp -r: every file of the copy is new.
        usleep(1_100_000)
        let cp = Process()
        cp.executableURL = URL(fileURLWithPath: "/bin/cp")
        cp.arguments = ["-r", dir.appendingPathComponent("collected").path, dir.appendingPathComponent("copy").path]
        try cp.run()
        cp.waitUntilExit()
        let copied = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("copy/b1/s1.ndjson").path)[.modificationDate] as? Date
        #expect(copied.map { $0.timeIntervalSince1970 * 1e9 > Double(after) } == true, "the copy's files are newer")
        #expect(try lastSeen("copy") == original, "the copy reports the same last seen")
    }
}
