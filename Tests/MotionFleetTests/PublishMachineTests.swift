import Testing
@testable import MotionFleet

/// A broker simulated in the test: it answers the machine's actions (journal kept as records,
/// publications received in order, acknowledged when the test says so).
struct SimulatedLink {
    var machine: PublishMachine
    var journal: [OutboxRecord] = []
    var synced = 0
    var published: [OutboxEntry] = []
    var connects = 0
    var compactions: [[OutboxEntry]] = []
    var logs: [PublishEvent] = []
    var subscribed: [[String]] = []
    /// Positions in `journal` at each sync: what a crash keeps.
    var syncedJournal: [OutboxRecord] = []

    init(_ settings: PublishMachine.Settings = PublishMachine.Settings(ack: .broker), journal: OutboxJournal = OutboxJournal()) {
        machine = PublishMachine(settings: settings, journal: journal)
        // What the journal file holds is on disk already.
        self.journal = journal.entries.map { e in .message(OutboxEntry(id: e.id, kind: e.kind, topic: e.topic, payload: e.payload)) }
        syncedJournal = self.journal
    }

    @discardableResult
    mutating func feed(_ input: PublishMachine.Input) -> [PublishMachine.Action] {
        let actions = machine.handle(input)
        for a in actions {
            switch a {
            case .append(let r): journal.append(r)
            case .sync: synced += 1; syncedJournal = journal
            case .connect: connects += 1
            case .abandonConnection: break
            case .publish(let e, _):
                // Nothing is published before it was synced into the journal.
                if e.id != 0 { #expect(syncedJournal.contains(.message(e)), "published before it was journaled and synced") }
                published.append(e)
            case .compact(let entries): compactions.append(entries); journal = entries.map { .message($0) }
            case .subscribe(let filters): subscribed.append(filters)
            case .log(let e): logs.append(e)
            }
        }
        return actions
    }

    /// A link whose outbox holds at most `n` batch messages of 2-digit sequence numbers.
    static func limited(toBatchMessages n: Int) -> SimulatedLink {
        var s = PublishMachine.Settings(ack: .broker)
        s.outboxMaxBytes = n * OutboxEntry(id: 10, kind: .batch, topic: "fleet/b1/batch", payload: "{\"seq\":10}").bytes
        return SimulatedLink(s)
    }

    mutating func send(_ n: Int, kind: FleetMessage.Kind = .batch, from: Int = 1) {
        for i in from..<(from + n) {
            feed(.enqueue(FleetMessage(kind: kind, payload: "{\"seq\":\(i)}"), topic: "fleet/b1/\(kind.rawValue)"))
        }
    }

    /// The payload seq numbers published, in order.
    var publishedSeqs: [Int] { published.filter { $0.id != 0 }.map { Int($0.payload.dropFirst(7).dropLast())! } }
    /// Acknowledges everything published and not yet acknowledged.
    mutating func ackAll() {
        for e in machine.entries where published.contains(where: { $0.id == e.id }) { feed(.acknowledged(id: e.id)) }
    }
}

@Suite("PublishMachine")
struct PublishMachineTests {
    @Test("journals and syncs before publishing, publishes in order at the wake-up, forgets what is acknowledged")
    func journalBeforePublish() {
        var l = SimulatedLink()
        l.feed(.wake(now: 0))
        #expect(l.connects == 1)
        l.feed(.connected(now: 1))
        l.send(3)
        #expect(l.published.isEmpty, "nothing goes out before the wake-up's sync")
        l.feed(.wake(now: 1_000_000_000))
        #expect(l.synced == 1)
        #expect(l.publishedSeqs == [1, 2, 3])
        l.ackAll()
        #expect(l.machine.backlog == 0)
        #expect(l.journal.filter { if case .acknowledged = $0 { true } else { false } }.count == 3)
    }

    @Test("one fsync per wake-up, however many messages")
    func oneSyncPerWake() {
        var l = SimulatedLink()
        for w in 0..<10 {
            l.send(5, from: w * 5 + 1)
            l.feed(.wake(now: Int64(w) * 1_000_000_000))
        }
        #expect(l.synced == 10)
    }

    @Test("a broker down: messages accumulate, the back-off doubles up to the cap, the backlog drains in order on reconnection")
    func backoffAndDrain() {
        var s = PublishMachine.Settings(ack: .broker)
        s.reconnectMaxNanoseconds = 8_000_000_000
        var l = SimulatedLink(s)
        var retries: [Int64] = []
        var t: Int64 = 0
        var seq = 1
        for _ in 0..<60 {
            l.send(1, from: seq); seq += 1
            let actions = l.feed(.wake(now: t))
            if actions.contains(.connect) {
                let before = l.logs.count
                l.feed(.connectFailed(PublishProblem(.unreachable, "connection refused"), now: t))
                if case .down(let at) = l.machine.connection { retries.append(at - t) }
                _ = before
            }
            t += 1_000_000_000
        }
        #expect(Array(retries.prefix(5)) == [1, 2, 4, 8, 8].map { Int64($0) * 1_000_000_000 })
        #expect(l.logs.filter { if case .connectFailed = $0 { true } else { false } }.count == 1, "the same problem is logged once")
        #expect(l.published.isEmpty)
        l.feed(.wake(now: t + 10_000_000_000))
        l.feed(.connected(now: t + 10_000_000_000))
        for _ in 0..<5 { l.ackAll(); l.feed(.wake(now: t + 11_000_000_000)) }
        #expect(l.publishedSeqs == Array(1...60))
        #expect(l.machine.backlog == 0)
    }

    @Test("a lost connection: what was in flight is published again, in order, before anything newer")
    func resendAfterLoss() {
        var l = SimulatedLink()
        l.feed(.wake(now: 0)); l.feed(.connected(now: 0))
        l.send(4)
        l.feed(.wake(now: 1))
        l.feed(.acknowledged(id: l.published[0].id))
        l.feed(.connectionLost(PublishProblem(.connectionLost, "broker gone"), now: 2))
        l.send(1, from: 5)
        l.feed(.wake(now: 2_000_000_000))
        l.feed(.connected(now: 2_000_000_000))
        #expect(l.publishedSeqs == [1, 2, 3, 4, 2, 3, 4, 5])
    }

    @Test("at most inFlightLimit unacknowledged; more go out as acknowledgements come")
    func inFlightWindow() {
        var s = PublishMachine.Settings(ack: .broker)
        s.inFlightLimit = 3
        var l = SimulatedLink(s)
        l.feed(.wake(now: 0)); l.feed(.connected(now: 0))
        l.send(7)
        l.feed(.wake(now: 1))
        #expect(l.publishedSeqs == [1, 2, 3])
        l.feed(.acknowledged(id: l.published[0].id))
        #expect(l.publishedSeqs == [1, 2, 3, 4])
        #expect(l.machine.unacknowledged == 3)
    }

    @Test("over --outbox-max the oldest batch messages go first and are counted; summaries never")
    func outboxLimit() {
        var l = SimulatedLink.limited(toBatchMessages: 5)
        l.send(1, kind: .summary, from: 100)
        l.send(10)
        #expect(l.machine.backlog <= 5)
        #expect(l.machine.entries.first?.kind == .summary)
        #expect(l.machine.dropped == 10 - (l.machine.backlog - 1))
        let kept = l.machine.entries.filter { $0.kind == .batch }.map { Int($0.payload.dropFirst(7).dropLast())! }
        #expect(kept == Array((11 - kept.count)...10), "the newest are kept")
        l.send(20, kind: .summary, from: 200)
        #expect(l.machine.entries.filter { $0.kind == .summary }.count == 21)
    }

    @Test("refused messages leave the outbox and are reported, not retried")
    func refused() {
        var l = SimulatedLink()
        l.feed(.wake(now: 0)); l.feed(.connected(now: 0))
        l.send(2)
        l.feed(.wake(now: 1))
        l.feed(.refused(id: l.published[0].id, reason: "Not authorized"))
        #expect(l.machine.backlog == 1)
        #expect(l.logs.contains(.refused(topic: "fleet/b1/batch", reason: "Not authorized")))
        #expect(l.journal.contains(.refused(l.published[0].id)))
    }

    @Test("restart from the journal: unacknowledged messages are sent first; ids continue")
    func restartFromJournal() throws {
        var l = SimulatedLink()
        l.feed(.wake(now: 0)); l.feed(.connected(now: 0))
        l.send(5)
        l.feed(.wake(now: 1))
        l.feed(.acknowledged(id: l.published[0].id))
        l.feed(.acknowledged(id: l.published[1].id))
        // Crash: the file holds what was written (the acknowledgements were not synced, and a torn line).
        let text = OutboxRecord.header + "\n" + l.journal.map(\.line).joined() + "+ 99 batch fl"
        let j = try OutboxJournal.parse(Array(text.utf8), file: "o")
        #expect(j.entries.count == 3)
        #expect(j.tornBytes == 13)
        var r = SimulatedLink(journal: j)
        r.send(1, from: 6)
        r.feed(.wake(now: 0)); r.feed(.connected(now: 0))
        #expect(r.publishedSeqs == [3, 4, 5, 6])
        #expect(r.published.last!.id == 6)
    }

    @Test("the status is retained, not journaled, and only the latest is sent on connection")
    func status() {
        var l = SimulatedLink()
        l.feed(.status(FleetMessage(kind: .status, payload: "{\"state\":\"online\"}"), topic: "fleet/b1/status"))
        l.feed(.status(FleetMessage(kind: .status, payload: "{\"state\":\"paused\"}"), topic: "fleet/b1/status"))
        let actions = l.feed(.wake(now: 0)) + l.feed(.connected(now: 0))
        #expect(actions.contains(.publish(OutboxEntry(id: 0, kind: .status, topic: "fleet/b1/status", payload: "{\"state\":\"paused\"}"), retain: true)))
        #expect(l.published.count == 1)
        #expect(l.journal.isEmpty)
    }

    @Test("an unanswered connection attempt is abandoned after the timeout and retried")
    func connectTimeout() {
        var l = SimulatedLink()
        l.feed(.wake(now: 0))
        let a = l.feed(.wake(now: 11_000_000_000))
        #expect(a.contains(.abandonConnection))
        #expect(l.logs.contains { if case .connectFailed(let p, _) = $0 { p.kind == .timeout } else { false } })
    }

    @Test("the journal is compacted once dead records outweigh live ones; the compacted file reads back to the backlog")
    func compaction() throws {
        var s = PublishMachine.Settings(ack: .broker)
        s.compactAboveBytes = 2000
        var l = SimulatedLink(s)
        l.feed(.wake(now: 0)); l.feed(.connected(now: 0))
        for w in 0..<200 {
            l.send(1, from: w + 1)
            l.feed(.wake(now: Int64(w) * 1_000_000_000))
            if w % 2 == 0 { l.ackAll() }
        }
        #expect(!l.compactions.isEmpty)
        let text = OutboxRecord.header + "\n" + l.journal.map(\.line).joined()
        let j = try OutboxJournal.parse(Array(text.utf8), file: "o")
        #expect(j.entries == l.machine.entries)
        #expect(text.utf8.count < 4 * max(2000, l.machine.backlogBytes))
    }
}

@Suite("PublishMachine: samples under --outbox-max")
struct PublishMachineSamplesLimitTests {
    @Test("samples messages are dropped before any batch message, oldest first")
    func samplesFirst() {
        var l = SimulatedLink.limited(toBatchMessages: 6)
        // Interleaved as the observer sends them: batch 1, samples 1, batch 2, samples 2, ...
        for i in 1...4 {
            l.send(1, kind: .batch, from: i)
            l.send(1, kind: .samples, from: i)
        }
        let kinds = l.machine.entries.map(\.kind)
        #expect(kinds.filter { $0 == .batch }.count == 4, "no batch message dropped while samples remain: \(kinds)")
        let samples = l.machine.entries.filter { $0.kind == .samples }.map { Int($0.payload.dropFirst(7).dropLast())! }
        #expect(samples == Array((5 - samples.count)...4), "the newest samples are kept")
        #expect(l.machine.dropped == 4 - samples.count)
        #expect(l.machine.dropped > 0)
    }
}
