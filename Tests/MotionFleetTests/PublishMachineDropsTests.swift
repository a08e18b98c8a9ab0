import MotionCore
import Testing
@testable import MotionFleet

/// `--outbox-max` drops declared per session (``FleetDrops``), and what the collector does with
/// the declaration (``DedupeLedger``, ``SamplesChain``, ``FleetReport``).
@Suite("Outbox drops declared")
struct PublishMachineDropsTests {
    static let second = PublishMachineAckTests.second

    /// The `drops` entries of the outbox, read back.
    static func declarations(_ l: SimulatedLink) -> [FleetDrops] {
        l.machine.entries.filter { $0.kind == .drops }.compactMap { e in
            guard let node = try? JSONReader.parse(Array(e.payload.utf8)), case .success(let d) = FleetDrops.parse(node) else { return nil }
            return d
        }
    }

    /// The journal as a restarted board reads it.
    static func reopened(_ l: SimulatedLink) throws -> OutboxJournal {
        try OutboxJournal.parse(Array((OutboxRecord.header + "\n" + l.journal.map(\.line).joined()).utf8), file: "outbox")
    }

    @Test("a session's drops are declared in one drops entry, never dropped, replaced as more are dropped; taken and not taken counted apart; the counts survive a restart and a compaction")
    func declared() throws {
        var s = PublishMachine.Settings()
        s.outboxMaxBytes = PublishMachineAckTests.limit(batchMessages: 3)
        var l = SimulatedLink(s)
        l.machine.subscriptions = ["fleet/_ack/b1/+"]
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        PublishMachineAckTests.send(&l, 10...12)
        l.feed(.wake(now: Self.second))
        PublishMachineAckTests.brokerTakes(&l)
        PublishMachineAckTests.send(&l, 13...40)
        let d = try #require(Self.declarations(l).first)
        #expect(Self.declarations(l).count == 1, "one declaration per session")
        #expect(d.ranges == [10...37] && PublishMachineAckTests.seqs(l.machine.entries) == [38, 39, 40])
        #expect(d.droppedTaken == 3 && d.dropped == 25, "10-12 were at the broker (they may have reached a collector), 13-37 never left the board")
        #expect(l.machine.drops(session: "s1") == d)
        let replaced = l.journal.filter { if case .message(let e) = $0 { e.kind == .drops } else { false } }.count
        #expect(replaced > 1 && l.journal.filter { if case .acknowledged = $0 { true } else { false } }.count == replaced - 1,
                "each newer declaration replaces the older in the journal")
        // Another session's drops have a declaration of their own.
        PublishMachineAckTests.send(&l, 1...5, session: "s2")
        #expect(Set(Self.declarations(l).map(\.session)) == ["s1", "s2"])
        #expect(l.machine.drops(session: "s1").ranges == [10...40], "the older session dropped first")

        // A restart reads the counts back from the live declarations (not from the 'x' records),
        // also after a compaction removed those.
        let j = try Self.reopened(l)
        let restarted = PublishMachine(settings: s, journal: j)
        #expect(restarted.drops(session: "s1") == l.machine.drops(session: "s1"))
        let compacted = try OutboxJournal.parse(OutboxJournal.compacted(j.entries), file: "c")
        #expect(PublishMachine(settings: s, journal: compacted).drops(session: "s2") == l.machine.drops(session: "s2"))
        #expect(PublishMachine(settings: s, journal: compacted).drops(session: "s3").dropped == 0, "a new session starts at 0 (no count carried over)")
    }

    @Test("a declaration leaves the outbox when a collector's acknowledgement passes everything it declares (batch numbers and samples)")
    func declarationAcknowledged() {
        var s = PublishMachine.Settings()
        s.outboxMaxBytes = 4 * OutboxEntry(id: 10, kind: .samples, topic: "fleet/b1/samples", payload: "{\"session\":\"s1\",\"seq\":10,\"part\":1,\"parts\":2}").bytes + 400
        var l = SimulatedLink(s)
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        for seq in 10...14 {
            PublishMachineAckTests.send(&l, seq...seq)
            for part in 1...2 {
                l.feed(.enqueue(FleetMessage(kind: .samples, payload: "{\"session\":\"s1\",\"seq\":\(seq),\"part\":\(part),\"parts\":2}"), topic: "fleet/b1/samples"))
            }
        }
        let d = Self.declarations(l)
        #expect(d.count == 1 && d[0].ranges.isEmpty, "samples go first")
        let through = d.first?.samplesThrough
        #expect(through.map { $0.parts == 2 && $0.sequence >= 10 } == true, "the newest dropped samples message, with its batch's parts: \(String(describing: through))")
        l.feed(.wake(now: Self.second))
        PublishMachineAckTests.brokerTakes(&l)
        guard let t = through else { return }
        // Acknowledged up to before the declared place: the declaration stays.
        let before = t.part > 1 ? (t.sequence, t.part - 1) : (t.sequence - 1, 2)
        l.feed(.collectorAck(FleetAck(board: "b1", collector: "c1", sessions: [FleetAck.Session(session: "s1", sequence: 14, samplesSequence: before.0, samplesPart: before.1)])))
        #expect(l.machine.entries.contains { $0.kind == .drops })
        l.feed(.collectorAck(FleetAck(board: "b1", collector: "c1", sessions: [FleetAck.Session(session: "s1", sequence: 14, samplesSequence: t.sequence, samplesPart: t.part)])))
        #expect(!l.machine.entries.contains { $0.kind == .drops }, "settled by the collector: gone")
    }

    @Test("the collector's ledger: declared numbers settle the contiguous position; one that arrives after all is taken once; a hostile range costs nothing")
    func ledgerSettles() {
        var l = DedupeLedger()
        for n in [1, 2, 6, 9] { _ = l.take(board: "b", session: "s", sequence: n) }
        func take(_ n: Int) -> Bool { l.take(board: "b", session: "s", sequence: n) }
        func settle(_ r: [ClosedRange<Int>]) -> Bool { l.settle(board: "b", session: "s", r) }
        var position: Int { l.contiguous(board: "b", session: "s") }
        #expect(position == 2)
        var moved = settle([3...5])
        #expect(moved && position == 6)
        moved = settle([3...5])
        #expect(!moved, "settled before")
        var taken = take(4)
        #expect(taken, "the broker delivered it after all: written once")
        taken = take(4)
        #expect(!taken)
        taken = take(6)
        #expect(!taken, "still a duplicate")
        moved = settle([7...12])
        #expect(moved && position == 12, "9 was taken, 7-8 and 10-12 settled")
        taken = take(9)
        #expect(!taken, "a settlement does not reopen a taken number")
        taken = take(11)
        #expect(taken)
        moved = settle([20...FleetMessageSchema.maxSequence])
        #expect(moved && position == 12 && l.gaps(board: "b", session: "s") == 0, "a range of 2^53 numbers: one range")
        taken = take(13)
        #expect(taken && position == 13, "14-19 still open")
        moved = settle([14...19])
        #expect(moved && position == FleetMessageSchema.maxSequence)
    }

    @Test("the samples chain resumes after a declared drop, also in a session it had no position for")
    func chainResumes() {
        var c = SamplesChain()
        let k = "b1/s1"
        c.advance(k, to: .init(sequence: 2, part: 1, parts: 1))
        #expect(c.judge(k, sequence: 5, part: 1, parts: 1, previous: 4) == .gap)
        var moved = c.settle(k, through: .init(sequence: 4, part: 2, parts: 2))
        #expect(moved)
        #expect(c.judge(k, sequence: 5, part: 1, parts: 1, previous: 4) == .next)
        moved = c.settle(k, through: .init(sequence: 3, part: 1, parts: 1))
        #expect(!moved, "never backwards")
        moved = c.settle("b1/new", through: .init(sequence: 7, part: 1, parts: 3))
        #expect(moved)
        #expect(c.judge("b1/new", sequence: 7, part: 2, parts: 3, previous: 6) == .next, "the next part of a batch whose first part was dropped")
    }

    @Test("the report: declared numbers not received are dropped, not missing; received ones are neither; the tail is only what nobody declared")
    func reportSeparates() {
        func line(_ members: String) -> String { "{\"schema\":1,\"board\":\"b1\",\"session\":\"s\"," + members + "}" }
        var d = FleetDrops(session: "s")
        for n in [3, 4, 5, 8, 9] { d.add(sequence: n) }
        d.dropped = 4
        d.droppedTaken = 1
        let drops = d.message(board: "b1").payload
        let lines = [line("\"type\":\"batch\",\"seq\":1"), line("\"type\":\"batch\",\"seq\":2"), line("\"type\":\"batch\",\"seq\":5"), line("\"type\":\"batch\",\"seq\":7"), drops]
        let file = FleetNDJSON.parse(Array((lines.joined(separator: "\n") + "\n").utf8), file: "f", board: "b1")
        #expect(file.skipped.isEmpty && file.drops.count == 1 && file.messages.count == 4)
        let row = FleetReport.board("b1", sessions: [("s", file)], statuses: ["s": FleetReport.SessionStatus(lastSequence: 12)])
        #expect(row.missingBySession == [FleetReport.Missing(session: "s", gaps: [6...6], inGaps: 1, tail: 3, dropped: [3...4, 8...9], inDropped: 4)])
        #expect(row.missing == 4 && row.droppedMessages == 4)
        #expect(row.outboxDropped == 4 && row.outboxDroppedTaken == 1, "the board's own counts, apart")
        let all = FleetReport.board("b1", sessions: [("s", file)])
        #expect(all.missing == 1 && all.droppedMessages == 4, "without a status the declaration still says the session reached 9")
    }
}
