import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI

/// The fleet options' usage errors and `collect report`'s formats (the broker tests are in MotionFleetTests).
@Suite("fleet commands")
struct FleetCommandTests {
    static let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path

    @Test("usage errors exit 64 with the problem", arguments: [
        (["replay", walk, "--board-id", "b1"], "'--board-id' needs '--publish URL'"),
        (["replay", walk, "--pace", "realtime"], "'--pace' needs '--publish URL'"),
        (["replay", walk, "--publish", "mqtt://10.1.2.3/fleet"], "is not loopback"),
        (["replay", walk, "--publish", "mqtt://127.0.0.1/fleet", "--board-id", "a/b"], "invalid board id"),
        (["replay", walk, "--publish", "mqtts://127.0.0.1/fleet"], "needs '--ca-file FILE'"),
        (["replay", walk, "--publish", "mqtt://127.0.0.1/fleet", "--password-file", "x"], "needs a user in the URL"),
        (["replay", walk, "--publish", "mqtt://127.0.0.1/fleet", "--pace", "slow"], "invalid for '--pace'"),
        (["replay", walk, "--publish", "mqtt://127.0.0.1/fleet", "--json"], "cannot be combined"),
        (["replay", walk, "--publish", "mqtt://127.0.0.1/fleet", "--outbox-max", "1K"], "at least 4K"),
        (["collect", "mqtt://127.0.0.1/fleet"], "needs '--output-dir DIR'"),
        (["collect", "mqtt://127.0.0.1/fl+eet", "--output-dir", "d"], "topic prefix"),
        (["collect", "mqtt://127.0.0.1/fleet", "--output-dir", "d", "--retention", "5M"], "invalid for '--retention'"),
        (["collect", "mqtt://127.0.0.1/fleet", "--output-dir", "d", "--max-payload", "10"], "invalid for '--max-payload'"),
        (["replay", walk, "--publish", "mqtt://127.0.0.1/fleet", "--ack", "nobody"], "invalid for '--ack'"),
        (["replay", walk, "--ack", "broker"], "'--ack' needs '--publish URL'"),
    ])
    func usage(args: [String], message: String) {
        let r = runCLI(args)
        #expect(r.code == 64, "\(args): \(r.err)")
        #expect(r.err.contains(message), "\(r.err)")
        #expect(r.out.isEmpty)
    }

    @Test("collect report: a table, --json and an --html page of a collected directory; a missing directory fails")
    func report() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "fleet-report")
        let b = dir.appendingPathComponent("b1")
        try FileManager.default.createDirectory(at: b, withIntermediateDirectories: true)
        try """
        {"schema":1,"board":"b1","type":"batch","session":"s1","seq":1,"steps":4,"lost_samples":0,"total_samples":50}
        {"schema":1,"board":"b1","type":"summary","seq":2,"session":"s1","steps":9,"lost_samples":1,"samples":100,"activity_time_s":{"walking":2}}

        """.write(to: b.appendingPathComponent("s1.ndjson"), atomically: true, encoding: .utf8)
        let t = runCLI(["collect", "report", dir.path])
        #expect(t.code == 0 && t.out.contains("b1") && t.out.contains("walking 2 s"), "\(t.out)\(t.err)")
        let j = runCLI(["collect", "report", dir.path, "--json"])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(j.out.utf8)) as? [String: Any])
        let row = try #require((o["boards"] as? [[String: Any]])?.first)
        #expect(row["steps"] as? Int == 9 && row["lost_samples"] as? Int == 1 && row["samples"] as? Int == 100)
        let html = dir.appendingPathComponent("fleet.html").path
        let h = runCLI(["collect", "report", dir.path, "--html", html])
        #expect(h.code == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<td class=\"l\">b1</td>") && page.contains("border-collapse"))
        let bad = runCLI(["collect", "report", dir.appendingPathComponent("nope").path])
        #expect(bad.code == 1 && bad.err.contains("not a directory"))
        try "{\"type\":\n".write(to: b.appendingPathComponent("s2.ndjson"), atomically: true, encoding: .utf8)
        let malformed = runCLI(["collect", "report", dir.path])
        #expect(malformed.code == 0 && malformed.err.contains("s2.ndjson:1: ") && malformed.err.contains("line skipped"), "\(malformed.err)")
        #expect(malformed.out.contains("skipped lines: 1"))
        let strict = runCLI(["collect", "report", dir.path, "--strict"])
        #expect(strict.code == 1 && strict.err.contains("--strict"), "\(strict.err)")
    }

    @Test("capture --publish warns at start, in one line, when --outbox-max and --max-disk need more than their file system has")
    func diskWarning() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "fleet-disk")
        let base = ["capture", "-u", "xml:/nonexistent", "--output-dir", dir.appendingPathComponent("rec").path, "--rotate", "1h",
                    "--publish", "mqtt://127.0.0.1:1/fleet", "--board-id", "b1"]
        let big = runCLI(base + ["--max-disk", "900T"])
        let warnings = big.err.split(separator: "\n").filter { $0.hasPrefix("publish: warning:") }
        #expect(warnings.count == 1, "\(big.err)")
        #expect(warnings.first.map { $0.contains("--outbox-max 64.0 MiB and --max-disk 921600.0 GiB need") && $0.contains("free") } == true, "\(big.err)")
        let fits = runCLI(base + ["--max-disk", "1M", "--outbox-max", "4K"])
        #expect(!fits.err.contains("publish: warning"), "\(fits.err)")
        let outbox = runCLI(base + ["--outbox-max", "900T"])
        #expect(outbox.err.contains("publish: warning: --outbox-max 921600.0 GiB needs"), "without --max-disk the outbox alone: \(outbox.err)")
    }
}
