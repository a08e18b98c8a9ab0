import Foundation
import Testing
import MotionSystem
import MotionTestSupport
@testable import MotionFleet

@Suite("OutboxJournal")
struct OutboxJournalTests {
    static let h = OutboxRecord.header + "\n"

    @Test("records round-trip through their lines")
    func roundTrip() throws {
        let records: [OutboxRecord] = [.message(OutboxEntry(id: 7, kind: .summary, topic: "a/b/summary", payload: "{\"x\":\"a b\"}")),
                                       .acknowledged(7), .dropped(3), .refused(12)]
        for r in records {
            #expect(try OutboxRecord.parse(Substring(r.line.dropLast()), file: "f", lineNumber: 1) == r)
        }
    }

    @Test("malformed lines name file, line and column", arguments: [
        ("? 1\n", 2, 1), ("+ 0 batch t {}\n", 2, 3), ("+ 1 nope t {}\n", 2, 5), ("+ 1 batch t [1]\n", 2, 13), ("- 1 extra\n", 2, 4),
        ("+ 5 batch t {}\n+ 5 batch t {}\n", 3, 3),
    ])
    func malformed(text: String, line: Int, column: Int) {
        do {
            _ = try OutboxJournal.parse(Array((Self.h + text).utf8), file: "box")
            Issue.record("accepted \(text)")
        } catch {
            guard case let .malformed(f, l, c, problem) = error else { Issue.record("\(error)"); return }
            #expect(f == "box" && l == line && c == column, "\(error)")
            #expect(!problem.isEmpty)
        }
    }

    @Test("a file that is not an outbox is refused at line 1")
    func notAnOutbox() {
        #expect(throws: FleetError.self) { try OutboxJournal.parse(Array("time_s,accel_x\n".utf8), file: "x") }
    }

    @Test("acknowledged, refused and dropped entries are gone; dropped ones counted; ids continue after the highest")
    func liveEntries() throws {
        let text = Self.h + "+ 1 batch t {\"a\":1}\n+ 2 batch t {\"a\":2}\n+ 3 event t {\"a\":3}\n- 1\nx 2\n+ 4 summary t {}\nr 4\n"
        let j = try OutboxJournal.parse(Array(text.utf8), file: "f")
        #expect(j.entries.map(\.id) == [3])
        #expect(j.dropped == 1)
        #expect(j.nextID == 5)
        #expect(j.tornBytes == 0)
    }

    @Test("the file on disk: a torn last line is cut on open, appends continue after it, compaction keeps the live entries")
    func onDisk() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "fleet-outbox")
        let path = dir.appendingPathComponent("fleet.outbox").path
        do {
            let (f, j) = try OutboxFile.open(path)
            #expect(j.entries.isEmpty)
            try f.append([.message(OutboxEntry(id: 1, kind: .batch, topic: "t/b/batch", payload: "{}")),
                          .message(OutboxEntry(id: 2, kind: .batch, topic: "t/b/batch", payload: "{\"n\":2}"))])
            try f.sync()
        }
        let fh = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        fh.seekToEndOfFile(); fh.write(Data("- 1\n+ 3 bat".utf8)); try fh.close()
        let (f2, j2) = try OutboxFile.open(path)
        #expect(j2.entries.map(\.id) == [2])
        #expect(j2.tornBytes == 7)
        try f2.append([.acknowledged(2)])
        try f2.compact([])
        try f2.append([.message(OutboxEntry(id: 4, kind: .event, topic: "t/b/event", payload: "{}"))])
        let (_, j3) = try OutboxFile.open(path)
        #expect(j3.entries.map(\.id) == [4])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.h + "+ 4 event t/b/event {}\n")
    }
}

@Suite("FleetURL")
struct FleetURLTests {
    @Test("parses users, ports, IPv6 and prefixes")
    func parses() throws {
        #expect(try FleetURL.parse("mqtt://127.0.0.1/fleet") == FleetURL(tls: false, user: nil, host: "127.0.0.1", port: 1883, prefix: "fleet"))
        #expect(try FleetURL.parse("mqtts://board7@broker.lan:9883/lab/a") == FleetURL(tls: true, user: "board7", host: "broker.lan", port: 9883, prefix: "lab/a"))
        #expect(try FleetURL.parse("mqtt://[::1]:1999/f").host == "::1")
        #expect(try FleetURL.parse("mqtts://h/f").port == 8883)
    }

    @Test("refuses what cannot work", arguments: ["http://h/f", "mqtt://h", "mqtt://h/", "mqtt://h:0/f", "mqtt://h:x/f", "mqtt://u:pw@h/f",
                                                  "mqtt://h/a/+", "mqtt://h/a//b", "mqtt:///f", "mqtt://h/#"])
    func refuses(_ text: String) {
        #expect(throws: FleetError.self) { try FleetURL.parse(text) }
    }

    @Test("plain mqtt:// only to loopback unless --insecure")
    func privacy() throws {
        try FleetURL.parse("mqtt://127.0.0.1/f").checkTransport(insecure: false)
        try FleetURL.parse("mqtt://localhost/f").checkTransport(insecure: false)
        #expect(throws: FleetError.insecure("10.0.0.2")) { try FleetURL.parse("mqtt://10.0.0.2/f").checkTransport(insecure: false) }
        try FleetURL.parse("mqtt://10.0.0.2/f").checkTransport(insecure: true)
        try FleetURL.parse("mqtts://10.0.0.2/f").checkTransport(insecure: false)
        #expect(throws: FleetError.self) { try FleetURL.parse("mqtt://127.example.com/f").checkTransport(insecure: false) }
    }
}

@Suite("FleetTopics")
struct FleetTopicsTests {
    @Test("topics per kind and back")
    func topics() throws {
        let t = try FleetTopics(prefix: "lab/fleet", board: "b-7")
        for k in FleetMessage.Kind.allCases {
            let parsed = FleetTopics.parse(t.topic(k), prefix: "lab/fleet")
            #expect(parsed?.board == "b-7" && parsed?.kind == k)
        }
        #expect(FleetTopics.parse("lab/fleet/b-7/other", prefix: "lab/fleet") == nil)
        #expect(FleetTopics.parse("lab/b-7/batch", prefix: "lab/fleet") == nil)
        #expect(throws: FleetError.self) { try FleetTopics(prefix: "p", board: "a/b") }
        #expect(throws: FleetError.self) { try FleetTopics(prefix: "p", board: "") }
    }

    @Test("the pseudonym is stable, differs per machine and does not contain the machine id")
    func pseudonym() {
        let a = FleetTopics.pseudonym(machineID: "4f1c2d9e8b7a6c5d4e3f2a1b0c9d8e7f")
        #expect(a == FleetTopics.pseudonym(machineID: "4f1c2d9e8b7a6c5d4e3f2a1b0c9d8e7f"))
        #expect(a != FleetTopics.pseudonym(machineID: "4f1c2d9e8b7a6c5d4e3f2a1b0c9d8e7e"))
        #expect(FleetTopics.isValidBoardID(a))
        #expect(!a.contains("4f1c2d9e"))
    }

    @Test("a message carries the schema version and the board first, then the NDJSON object")
    func envelope() {
        let m = FleetMessage.wrap(.batch, board: "b1", .object([("type", .string("batch")), ("session", .string("s")), ("seq", .number(3))]))
        #expect(m.payload == "{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s\",\"seq\":3}")
    }
}
