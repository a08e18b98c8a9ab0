import Testing
@testable import MotionFleet

/// `--ack collector`: an entry leaves the outbox only when a collector acknowledges it.
@Suite("PublishMachine end-to-end acknowledgement")
struct PublishMachineAckTests {
    static let second: Int64 = 1_000_000_000

    static func link(inFlight: Int = 100) -> SimulatedLink {
        var s = PublishMachine.Settings()
        s.inFlightLimit = inFlight
        var l = SimulatedLink(s)
        l.machine.subscriptions = ["fleet/_ack/b1/+", "fleet/_collector/+/status"]
        return l
    }

    static func send(_ l: inout SimulatedLink, _ seqs: ClosedRange<Int>, session: String = "s1", kind: FleetMessage.Kind = .batch) {
        for i in seqs { l.feed(.enqueue(FleetMessage(kind: kind, payload: "{\"session\":\"\(session)\",\"seq\":\(i)}"), topic: "fleet/b1/\(kind.rawValue)")) }
    }

    static func seqs(_ entries: [OutboxEntry]) -> [Int] { entries.filter { $0.id != 0 }.compactMap { $0.position?.sequence } }

    /// An outbox limit of `n` batch messages of session s1 (2-digit sequence numbers) and one
    /// drops declaration of that session (one range; a few bytes to spare, less than a message).
    static func limit(batchMessages n: Int) -> Int {
        var d = FleetDrops(session: "s1")
        d.add(sequence: 10_000)
        d.add(sequence: 10_001)
        d.dropped = 1000
        return n * OutboxEntry(id: 10, kind: .batch, topic: "fleet/b1/batch", payload: "{\"session\":\"s1\",\"seq\":10}").bytes
            + OutboxEntry(id: 100, kind: .drops, topic: "fleet/b1/drops", payload: d.message(board: "b1").payload).bytes
    }

    /// PUBACKs for everything published so far.
    static func brokerTakes(_ l: inout SimulatedLink) {
        for e in l.published where e.id != 0 { l.feed(.acknowledged(id: e.id)) }
    }

    static func ack(_ seq: Int, session: String = "s1", samples: Int = 0, collector: String = "c1") -> PublishMachine.Input {
        .collectorAck(FleetAck(board: "b1", collector: collector, sessions: [FleetAck.Session(session: session, sequence: seq, samplesSequence: samples)]))
    }

    @Test("the broker's PUBACK keeps the entry (journaled 'b'); a collector's acknowledgement removes what it covers, per session")
    func collectorRemoves() {
        var l = Self.link()
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        #expect(l.subscribed == [["fleet/_ack/b1/+", "fleet/_collector/+/status"]], "the acknowledgements and presence are subscribed on connection")
        Self.send(&l, 1...5)
        l.feed(.wake(now: Self.second))
        Self.brokerTakes(&l)
        #expect(l.machine.backlog == 5, "the broker's acknowledgement is not the collector's")
        #expect(l.machine.awaitingBroker == 0)
        #expect(l.journal.filter { if case .atBroker = $0 { true } else { false } }.count == 5)
        l.feed(Self.ack(10, session: "other"))
        #expect(l.machine.backlog == 5, "another session's acknowledgement covers nothing here")
        l.feed(Self.ack(3))
        #expect(Self.seqs(l.machine.entries) == [4, 5])
        #expect(l.journal.filter { if case .acknowledged = $0 { true } else { false } }.count == 3)
        l.feed(Self.ack(5, collector: "standby"))
        #expect(l.machine.backlog == 0, "any collector that wrote it")
    }

    @Test("while no collector is online, what the broker took is not sent again after a reconnection; what it did not take is")
    func noResendWithoutCollector() {
        var l = Self.link()
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        Self.send(&l, 1...4)
        l.feed(.wake(now: Self.second))
        for e in l.published.prefix(2) { l.feed(.acknowledged(id: e.id)) }
        l.feed(.connectionLost(PublishProblem(.connectionLost, "gone"), now: 2 * Self.second))
        l.published.removeAll()
        l.feed(.wake(now: 10 * Self.second))
        l.feed(.connected(now: 10 * Self.second))
        l.feed(.wake(now: 11 * Self.second))
        #expect(Self.seqs(l.published) == [3, 4])
        l.feed(.wake(now: 200 * Self.second))
        #expect(Self.seqs(l.published) == [3, 4], "no resend without a collector, however long")
    }

    @Test("a collector coming online: after the grace what it has not acknowledged is sent again, oldest first, paced by the in-flight limit")
    func resendOnPresence() {
        var l = Self.link(inFlight: 2)
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        Self.send(&l, 1...4)
        for t in 1...3 {
            l.feed(.wake(now: Int64(t) * Self.second))
            Self.brokerTakes(&l)
        }
        #expect(Self.seqs(l.published) == [1, 2, 3, 4] && l.machine.awaitingBroker == 0)
        l.published.removeAll()
        l.feed(.collectorPresence(collector: "c1", online: true))
        l.feed(Self.ack(1))
        Self.send(&l, 5...5)
        l.feed(.wake(now: 4 * Self.second))
        #expect(Self.seqs(l.published) == [5], "within the grace only what is new goes (the collector drains what the broker queued)")
        Self.brokerTakes(&l)
        l.published.removeAll()
        l.feed(.wake(now: 9 * Self.second))
        #expect(Self.seqs(l.published) == [2, 3], "the unacknowledged, oldest first, two in flight")
        #expect(l.logs.contains(.resending(count: 3)), "what the broker took before the collector came online; not 5, taken while it was online")
        Self.brokerTakes(&l)
        l.feed(.wake(now: 10 * Self.second))
        #expect(Self.seqs(l.published) == [2, 3, 4])
        l.feed(Self.ack(5))
        #expect(l.machine.backlog == 0)
        l.feed(.collectorPresence(collector: "c1", online: false))
        #expect(l.logs.contains(.collectorOffline(collector: "c1")))
    }

    @Test("samples entries need the collector's samples position; the outbox limit still drops (counted) while no collector acknowledges")
    func samplesAndLimit() {
        var l = Self.link()
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        Self.send(&l, 1...1)
        Self.send(&l, 1...1, kind: .samples)
        l.feed(.wake(now: Self.second))
        Self.brokerTakes(&l)
        l.feed(Self.ack(1, samples: 0))
        #expect(l.machine.entries.map(\.kind) == [.samples])
        l.feed(Self.ack(1, samples: 1))
        #expect(l.machine.backlog == 0)

        var s = PublishMachine.Settings()
        s.outboxMaxBytes = Self.limit(batchMessages: 3)
        var full = SimulatedLink(s)
        Self.send(&full, 10...20)
        #expect(full.machine.dropped == 8)
        #expect(Self.seqs(full.machine.entries) == [18, 19, 20])
        let summaryBytes = OutboxEntry(id: 16, kind: .summary, topic: "fleet/b1/summary", payload: "{\"session\":\"s1\",\"seq\":16}").bytes
        full.feed(.makeRoom(bytes: summaryBytes))
        let afterRoom = full.machine.dropped
        #expect(afterRoom > 3 && full.machine.backlogBytes + summaryBytes <= s.outboxMaxBytes!, "room made before the summary, so that it carries the final count")
        Self.send(&full, 16...16, kind: .summary)
        #expect(full.machine.dropped == afterRoom, "the summary then fits: no drop after it")
    }

    @Test("the journal keeps 'b' across a restart: what the broker took is not sent again until a collector is online")
    func journalKeepsBrokerState() throws {
        let text = "# motionbatch-outbox 1\n+ 1 batch fleet/b1/batch {\"session\":\"s1\",\"seq\":1}\n+ 2 batch fleet/b1/batch {\"session\":\"s1\",\"seq\":2}\nb 1\n"
        let j = try OutboxJournal.parse(Array(text.utf8), file: "o")
        #expect(j.entries.map(\.atBroker) == [true, false])
        #expect(try OutboxJournal.parse(OutboxJournal.compacted(j.entries), file: "c").entries == j.entries, "compaction keeps the record")
        var l = SimulatedLink(PublishMachine.Settings(), journal: j)
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        #expect(Self.seqs(l.published) == [2])
        var broker = SimulatedLink(PublishMachine.Settings(ack: .broker), journal: j)
        broker.feed(.wake(now: 0))
        broker.feed(.connected(now: 0))
        #expect(Self.seqs(broker.published) == [1, 2], "--ack broker: a 'b' record means nothing")
    }

    @Test("a refusal (per topic), a drop regime, a compaction: logged once when it starts, then counted at most once a minute")
    func quietLogs() {
        var s = PublishMachine.Settings()
        s.outboxMaxBytes = Self.limit(batchMessages: 3)
        var l = SimulatedLink(s)
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        Self.send(&l, 10...99)
        l.feed(.wake(now: Self.second))
        for e in l.published where e.kind == .batch { l.feed(.refused(id: e.id, reason: "Not authorized")) }
        func count(_ match: (PublishEvent) -> Bool) -> Int { l.logs.filter(match).count }
        #expect(count { if case .dropped = $0 { true } else { false } } == 1, "\(l.logs)")
        #expect(count { if case .refused = $0 { true } else { false } } == 1)
        #expect(l.machine.dropped == 87, "every drop counted")
        l.feed(.wake(now: 30 * Self.second))
        #expect(count { if case .repeated = $0 { true } else { false } } == 0, "not within the minute")
        l.feed(.wake(now: 61 * Self.second))
        let first = l.logs.compactMap { if case .dropped(let n, _) = $0 { n } else { nil } }.first ?? 0
        #expect(l.logs.contains(.repeated(what: "dropped", count: 87 - first, total: 87)), "\(l.logs.suffix(3))")
        l.feed(.wake(now: 200 * Self.second))
        #expect(l.logs.contains(.repeated(what: "refused fleet/b1/batch", count: 2, total: nil)))
        #expect(count { if case .repeated = $0 { true } else { false } } == 2, "nothing new, nothing logged")
    }

    @Test("the issue's reproduction 5: compaction many times over is logged once, then counted at most once a minute")
    func compactionLoggedOnce() {
        var s = PublishMachine.Settings(ack: .broker)
        s.compactAboveBytes = 512
        var l = SimulatedLink(s)
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        var compactions = 0
        for t in 1...300 {
            Self.send(&l, t...t)
            let actions = l.feed(.wake(now: Int64(t) * Self.second / 10))
            compactions += actions.filter { if case .compact = $0 { true } else { false } }.count
            Self.brokerTakes(&l)
        }
        #expect(compactions > 5, "the journal was compacted many times (\(compactions))")
        #expect(l.logs.filter { if case .compacted = $0 { true } else { false } }.count == 1, "one line when it starts")
        l.feed(.wake(now: 100 * Self.second))
        #expect(l.logs.contains { if case .repeated(what: "compacted", _, _) = $0 { true } else { false } }, "then a count")
    }

    @Test("presence: once a collector acknowledged the board, only its presence counts: another partition's collector online does not make the board send again what the broker holds for its own")
    func ownCollectorPresence() {
        var l = Self.link()
        l.feed(.wake(now: 0))
        l.feed(.connected(now: 0))
        Self.send(&l, 1...2)
        l.feed(.wake(now: Self.second))
        Self.brokerTakes(&l)
        l.feed(Self.ack(1, collector: "a"))
        #expect(l.machine.ackingCollectors == ["a"] && l.machine.backlog == 1)
        l.published.removeAll()
        l.feed(.collectorPresence(collector: "b", online: true))
        #expect(!l.machine.collectorOnline, "b collects other boards")
        for t in [4, 70, 140] { l.feed(.wake(now: Int64(t) * Self.second)) }
        #expect(l.published.isEmpty && !l.logs.contains { if case .resending = $0 { true } else { false } }, "nothing sent again while a is away: \(l.logs.suffix(2))")
        l.feed(.collectorPresence(collector: "a", online: true))
        #expect(l.machine.collectorOnline && l.logs.contains(.collectorOnline(collector: "a", unacknowledged: 1)))
        l.feed(.wake(now: 143 * Self.second))
        #expect(Self.seqs(l.published) == [2], "its own collector back: what it did not acknowledge goes again")
        l.feed(.collectorPresence(collector: "a", online: false))
        #expect(l.logs.contains(.collectorOffline(collector: "a")))

        // A board no collector acknowledged yet counts any collector.
        var fresh = Self.link()
        fresh.feed(.wake(now: 0))
        fresh.feed(.connected(now: 0))
        fresh.feed(.collectorPresence(collector: "b", online: true))
        #expect(fresh.machine.collectorOnline)

        // The board's old collector is retired (its retained acknowledgement stays), a new one is
        // online: once it acknowledges the board, what the broker holds goes again after the grace.
        var moved = Self.link()
        moved.feed(.wake(now: 0))
        moved.feed(.connected(now: 0))
        Self.send(&moved, 1...3)
        moved.feed(.wake(now: Self.second))
        Self.brokerTakes(&moved)
        moved.feed(Self.ack(0, collector: "old"))
        moved.feed(.collectorPresence(collector: "new", online: true))
        #expect(!moved.machine.collectorOnline)
        moved.published.removeAll()
        moved.feed(Self.ack(1, collector: "new"))
        #expect(moved.machine.collectorOnline && moved.logs.contains(.collectorOnline(collector: "new", unacknowledged: 2)))
        moved.feed(.wake(now: 4 * Self.second))
        #expect(Self.seqs(moved.published) == [2, 3], "sent again after the grace, not after a 60-s stall")
    }
}
