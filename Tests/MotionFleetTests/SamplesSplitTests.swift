import Foundation
import MotionCore
import Testing
@testable import MotionFleet

/// A batch's samples split to stay within `--max-payload`, and the collector's gap rule
/// (``SamplesChain``) and the board's samples acknowledgement (a position, not a maximum).
@Suite("Samples split under the payload limit, and their acknowledgement")
struct SamplesSplitTests {
    @Test("a batch larger than the limit: several parts, each within it, whole rows in order, read back to the batch")
    func splitWithinLimit() throws {
        let b = FleetSamplesTests.batch(400, gyro: true)
        let whole = try FleetSamples.message(b, sensors: [.accel, .gyro], board: "b1", session: "s1", sequence: 9, previous: 4)
        #expect(try FleetSamples.messages(b, sensors: [.accel, .gyro], board: "b1", session: "s1", sequence: 9, previous: 4,
                                          maxPayload: whole.payload.utf8.count) == [whole], "within the limit: one message, no part")
        #expect(!whole.payload.contains("\"part\""))
        for limit in [1024, 4096, whole.payload.utf8.count - 1] {
            let parts = try FleetSamples.messages(b, sensors: [.accel, .gyro], board: "b1", session: "s1", sequence: 9, previous: 4, maxPayload: limit)
            #expect(parts.count > 1, "limit \(limit)")
            var all: [Sample] = []
            for (i, m) in parts.enumerated() {
                #expect(m.payload.utf8.count <= limit, "part \(i + 1) of \(parts.count): \(m.payload.utf8.count) bytes above \(limit)")
                let d = try FleetSamples.decode(m.payload, name: "m")
                #expect(d.part == i + 1 && d.parts == parts.count && d.previous == 4)
                guard case .success(let r) = ReceivedMessage.check(topic: "fleet/b1/samples", payload: Array(m.payload.utf8), prefix: "fleet", maxBytes: limit) else {
                    Issue.record("part \(i + 1) refused by a collector with --max-payload \(limit)"); continue
                }
                #expect(r.sequence == 9)
                all += d.samples
            }
            #expect(all == b.samples, "limit \(limit): the parts hold the batch, in order")
        }
        #expect(throws: FleetError.self, "a row that does not fit alone") {
            try FleetSamples.messages(b, sensors: [.accel, .gyro], board: "b1", session: "s1", sequence: 9, previous: 4, maxPayload: 300)
        }
    }

    @Test("part, parts and prev_seq are range-checked where they enter")
    func partsChecked() {
        let rows = "\"samples_format\":1,\"count\":1,\"columns\":\"timestamp_ns,accel_x,accel_y,accel_z\",\"rows\":\"1,0,0,9.8\\n\""
        for bad in ["\"part\":3,\"parts\":2,", "\"part\":0,\"parts\":2,", "\"parts\":true,", "\"prev_seq\":-1,", "\"prev_seq\":1e300,", "\"part\":1.5,\"parts\":2,"] {
            #expect(throws: FleetError.self, "\(bad)") { try FleetSamples.decode("{" + bad + rows + "}", name: "m") }
        }
        #expect((try? FleetSamples.decode("{\"part\":2,\"parts\":2,\"prev_seq\":0," + rows + "}", name: "m"))?.part == 2)
    }

    @Test("the collector's chain: the next message (prev_seq, part) is written, a duplicate not, one after a gap waits")
    func chain() {
        var c = SamplesChain()
        let k = "b1/s1"
        #expect(c.judge(k, sequence: 3, part: 1, parts: 1, previous: 2) == .gap, "a session's first message names no previous one")
        #expect(c.judge(k, sequence: 2, part: 1, parts: 2, previous: 0) == .next)
        c.advance(k, to: .init(sequence: 2, part: 1, parts: 2))
        #expect(c.acknowledged(k) == (2, 1), "only part 1 of batch 2")
        #expect(c.judge(k, sequence: 3, part: 1, parts: 1, previous: 2) == .gap, "batch 2's part 2 is missing")
        #expect(c.judge(k, sequence: 2, part: 1, parts: 2, previous: 0) == .duplicate)
        #expect(c.judge(k, sequence: 2, part: 2, parts: 2, previous: 0) == .next)
        c.advance(k, to: .init(sequence: 2, part: 2, parts: 2))
        #expect(c.acknowledged(k) == (2, nil))
        #expect(c.judge(k, sequence: 5, part: 1, parts: 1, previous: 4) == .gap, "batch 4's samples are missing")
        #expect(c.judge(k, sequence: 4, part: 1, parts: 1, previous: 2) == .next)
        #expect(c.judge(k, sequence: 4, part: 1, parts: 1, previous: nil) == .next, "a board without prev_seq: the timestamps decide")
    }

    @Test("the board: a samples acknowledgement covers up to its position (and part); a gap's later messages stay")
    func boardPosition() {
        var l = PublishMachineAckTests.link()
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        for (seq, part) in [(1, 1), (1, 2), (2, 1)] {
            l.feed(.enqueue(FleetMessage(kind: .samples, payload: "{\"session\":\"s1\",\"seq\":\(seq),\"part\":\(part),\"parts\":\(seq == 1 ? 2 : 1)}"), topic: "fleet/b1/samples"))
        }
        l.feed(.wake(now: PublishMachineAckTests.second))
        PublishMachineAckTests.brokerTakes(&l)
        let ack = { (samples: Int, part: Int?) in
            PublishMachine.Input.collectorAck(FleetAck(board: "b1", collector: "c1", sessions: [FleetAck.Session(session: "s1", sequence: 5, samplesSequence: samples, samplesPart: part)]))
        }
        l.feed(ack(1, 1))
        #expect(l.machine.entries.map { $0.position!.part } == [2, 1], "part 1 of batch 1 only")
        l.feed(ack(1, nil))
        #expect(l.machine.entries.map { $0.position!.sequence } == [2])
        l.feed(ack(2, nil))
        #expect(l.machine.backlog == 0)
    }

    @Test("a gap: while later messages are acknowledged, the oldest one waits; after resendAfter it is sent again, oldest first")
    func gapResent() {
        var l = PublishMachineAckTests.link()
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        l.feed(.collectorPresence(collector: "c1", online: true))
        let s = PublishMachineAckTests.second
        PublishMachineAckTests.send(&l, 1...1, kind: .samples)
        for t in 1...120 {
            PublishMachineAckTests.send(&l, (t + 1)...(t + 1))
            l.feed(.wake(now: Int64(t) * s))
            PublishMachineAckTests.brokerTakes(&l)
            // The collector writes every batch message, but not the samples message (lost, and
            // nothing after it of its kind is written).
            l.feed(PublishMachineAckTests.ack(t + 1, samples: 0))
            if t == 30 { #expect(l.machine.backlog == 1 && l.machine.entries[0].kind == .samples) }
            if t == 30 { l.published.removeAll() }
        }
        #expect(l.logs.contains(.resending(count: 1)), "sent again although later messages were acknowledged all along: \(l.logs.suffix(3))")
        #expect(l.published.contains { $0.kind == .samples }, "the missing samples message went again")
    }
}
