import Foundation
import Testing
import MotionCore
@testable import MotionFleet

@Suite("FleetMessageSchema")
struct FleetMessageSchemaTests {
    static let head = "{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s1\",\"seq\":1"

    @Test("a board's message passes; a UTF-8 byte order mark is stripped")
    func passes() throws {
        let m = try FleetMessageSchema.check(Array((Self.head + ",\"steps\":3,\"activity_time_s\":null}").utf8), board: "b1", kind: .batch).get()
        #expect(m.type == "batch" && m.session == "s1" && m.sequence == 1)
        let bom = try FleetMessageSchema.check([0xEF, 0xBB, 0xBF] + Array((Self.head + "}").utf8), board: "b1", kind: .batch).get()
        #expect(bom.text == Self.head + "}", "stored without the byte order mark")
        let status = try FleetMessageSchema.check(Array("{\"schema\":1,\"board\":\"b1\",\"type\":\"status\",\"session\":\"s1\",\"state\":\"online\"}".utf8),
                                                  board: "b1", kind: .status).get()
        #expect(status.sequence == 0, "a status has no sequence number")
    }

    static let refused: [(String, FleetMessageSchema.Reason)] = [
        ("{\"schema\":1,\"board\":\"b1\",\"session\":\"notype\",\"seq\":1}", .type),
        ("{\"schema\":1,\"board\":\"b1\",\"type\":5,\"session\":\"s\",\"seq\":1}", .type),
        ("{\"schema\":1,\"board\":\"b1\",\"type\":\"event\",\"session\":\"s\",\"seq\":1}", .type),  // not the topic's kind
        ("{\"schema\":true,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s\",\"seq\":1}", .schema),
        ("{\"schema\":999,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s\",\"seq\":1}", .schema),
        ("{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s\",\"seq\":true}", .seq),
        ("{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s\",\"seq\":9223372036854775807}", .seq),
        ("{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s\",\"seq\":1.5}", .seq),
        ("{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s\",\"seq\":0}", .seq),
        ("{\"schema\":1,\"board\":\"b2\",\"type\":\"batch\",\"session\":\"s\",\"seq\":1}", .board),
        ("{\"schema\":1,\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s/x\",\"seq\":1}", .session),
        (head + ",\"steps\":9223372036854775807}", .value),
        (head + ",\"steps\":true}", .value),
        (head + ",\"lost_samples\":-1}", .value),
        (head + ",\"activity_time_s\":{\"walking\":1e308}}", .value),
        (head + ",\"wakeups_per_hour\":{\"scheduler\":1e308}}", .value),
        (head + ",\"steps\":NaN}", .json),
        (head + ",\"steps\":1e999}", .json),
        (head + ",\"seq\":2}", .json),  // a duplicate key
        ("{\"schema\":1,\n\"board\":\"b1\",\"type\":\"batch\",\"session\":\"s\",\"seq\":1}", .multiline),
        ("[1]", .json), ("not json", .json),
    ]

    @Test("every reproduction of the issue is refused with its counted reason", arguments: refused)
    func refuses(payload: String, reason: FleetMessageSchema.Reason) {
        switch FleetMessageSchema.check(Array(payload.utf8), board: "b1", kind: .batch) {
        case .success: Issue.record("took \(payload)")
        case .failure(let r): #expect(r.reason == reason, "\(payload): \(r.problem)")
        }
    }

    @Test("UTF-16 (with its byte order mark) and invalid UTF-8 are refused as encoding; a payload above the limit unread")
    func encodings() {
        let text = Self.head + "}"
        let utf16: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { (u: UInt16) -> [UInt8] in [UInt8(u & 0xFF), UInt8(u >> 8)] }
        let bigEndianMark: [UInt8] = [0xFE, 0xFF] + Array(text.utf8)
        let invalid: [UInt8] = Array(text.utf8.dropLast()) + [0xC3, 0x28, 0x7D]
        let cases: [([UInt8], FleetMessageSchema.Reason)] = [(utf16, .encoding), (bigEndianMark, .encoding), (invalid, .encoding), (Array(text.utf8), .tooLarge)]
        for (bytes, reason) in cases {
            guard case .failure(let r) = FleetMessageSchema.check(bytes, board: "b1", kind: .batch, maxBytes: reason == .tooLarge ? 20 : 1 << 20) else {
                Issue.record("took \(bytes.prefix(8))"); continue
            }
            #expect(r.reason == reason, "\(r.problem)")
        }
    }

    @Test("one validator: what the collector takes, the file reader reads; what it refuses, the reader skips", arguments: [
        head + "}", head + ",\"steps\":true}", "{\"schema\":1,\"board\":\"b1\",\"session\":\"notype\",\"seq\":1}", head + ",\"steps\":12,\"samples\":50}",
        "{\"schema\":1,\"board\":\"b1\",\"type\":5,\"session\":\"s\",\"seq\":1}", head + ",\"activity_time_s\":{\"walking\":1e308}}",
    ])
    func sameRules(payload: String) {
        let taken: Bool
        if case .success = ReceivedMessage.check(topic: "fleet/b1/batch", payload: Array(payload.utf8), prefix: "fleet") { taken = true } else { taken = false }
        let file = FleetNDJSON.parse(Array((payload + "\n").utf8), file: "f", board: "b1")
        #expect(file.messages.count == (taken ? 1 : 0))
        #expect(file.skipped.count == (taken ? 0 : 1))
    }
}

@Suite("RejectionTally")
struct RejectionTallyTests {
    @Test("the first rejection of each reason is logged, then counts at most once a minute; all reasons counted")
    func logs() {
        var t = RejectionTally()
        let minute = RejectionTally.interval
        #expect(t.record(.schema, detail: "a", now: 0)?.contains("rejected a") == true)
        #expect(t.record(.schema, detail: "b", now: 1) == nil, "the second of a reason waits for the count line")
        #expect(t.record(.encoding, detail: "c", now: 2)?.contains("rejected c") == true, "a new reason is a change of state")
        for i in 0..<1000 { #expect(t.record(.schema, detail: "d", now: 3 + Int64(i)) == nil) }
        #expect(t.tick(now: minute - 1) == nil)
        let line = t.tick(now: minute)
        #expect(line?.contains("1001 more messages rejected") == true, "\(line ?? "nil")")
        #expect(line?.contains("schema 1001") == true)
        #expect(t.tick(now: 2 * minute) == nil, "nothing new, nothing logged")
        #expect(t.counts[.schema] == 1002 && t.counts[.encoding] == 1 && t.total == 1003)
        #expect(t.summary == "encoding 1, schema 1002")
    }
}
