import MotionCore

/// Publishing through an on-disk outbox as a pure state machine: it is told what to send, what
/// the connection did and what the broker acknowledged, with the monotonic time read by the
/// driver in the batch wake-up, and answers with the ``Action``s to carry out (journal records,
/// one `fsync` per wake-up, connection attempts, publications, compaction, log events). It does
/// no I/O and reads no clock (`swift test --filter PublishMachine`).
///
/// Guarantees it keeps (docs/fleet.md, "The outbox"):
/// - a message is journaled (``Action/append(_:)``) and synced (``Action/sync``) before it is
///   published, and leaves the outbox only when acknowledged (or refused, or dropped);
/// - messages are published in order, oldest first (a session's drops declaration before them),
///   at most ``Settings/inFlightLimit`` unacknowledged;
///   after a lost connection every unacknowledged one is published again, in order;
/// - with ``AckMode/collector`` (the default) an entry leaves the outbox only when a collector's
///   ``FleetAck`` covers it: the broker's PUBACK only marks it as taken (`b ID`), and what the
///   broker took is not sent again while no collector is online (so a full broker queue cannot
///   overflow again); when a collector comes online (its retained presence) what it has not
///   acknowledged after ``Settings/resendGraceNanoseconds`` is sent again, oldest first, at most
///   ``Settings/inFlightLimit`` at a time, and again whenever acknowledgements stall for
///   ``Settings/resendAfterNanoseconds`` while one is online;
/// - over ``Settings/outboxMaxBytes`` the oldest `samples` messages are dropped first and
///   counted, then the oldest `batch` messages, then `event` messages; summaries never; what is
///   dropped of a session is declared in one `drops` message of that session (``FleetDrops``:
///   journaled, published, never dropped, replaced by the next one when more of the session is
///   dropped), so that a collector settles those numbers and acknowledges past them;
/// - presence: only this board's collectors count (those whose acknowledgement of it arrived;
///   any collector while none has), so that another partition's collector does not make it send
///   again what the broker holds for its own collector while that one is away;
/// - reconnection with exponential back-off from ``Settings/firstRetryNanoseconds`` capped at
///   ``Settings/reconnectMaxNanoseconds``, attempted only in a wake-up (no timer of its own);
/// - the journal is compacted when its dead records outweigh the live ones.
public struct PublishMachine: Sendable {
    /// Who must acknowledge a message before it leaves the outbox (`--ack`).
    public enum AckMode: String, Sendable, Equatable, CaseIterable {
        /// A collector, after its `fsync` (end to end; the default).
        case collector
        /// The broker (PUBACK): the weaker guarantee of a fleet without a collector; what the
        /// broker drops (its queue limit, a restart without persistence) is lost.
        case broker
    }

    /// What the machine is asked to do.
    public struct Settings: Sendable, Equatable {
        /// Who acknowledges (`--ack`).
        public var ack: AckMode = .collector
        /// After a collector comes online, what it has not acknowledged within this is sent again.
        public var resendGraceNanoseconds: Int64 = 2_000_000_000
        /// While a collector is online and the oldest message in the outbox was not acknowledged
        /// for this long (none was, or only later ones: a gap), what the broker took and no
        /// collector acknowledged is sent again, oldest first.
        public var resendAfterNanoseconds: Int64 = 60_000_000_000
        /// The back-off's cap (`--reconnect-max`, default 30 s).
        public var reconnectMaxNanoseconds: Int64 = 30_000_000_000
        /// The first retry's delay.
        public var firstRetryNanoseconds: Int64 = 1_000_000_000
        /// The outbox's limit (`--outbox-max`; default 64 MiB: about 145,000 batch messages, 40
        /// hours of 1-s batches without samples, 5 hours with), nil for none.
        public var outboxMaxBytes: Int? = 64 << 20
        /// Messages published and not yet acknowledged, at most.
        public var inFlightLimit = 100
        /// A connection attempt not answered within this is abandoned.
        public var connectTimeoutNanoseconds: Int64 = 10_000_000_000
        /// The journal is compacted only above this size.
        public var compactAboveBytes = 64 * 1024

        /// Creates the defaults (`ack`: who acknowledges).
        public init(ack: AckMode = .collector) { self.ack = ack }
    }

    /// The connection as the machine sees it.
    public enum Connection: Sendable, Equatable {
        /// Not connected; the next attempt at the first wake-up at or after `retryAt`.
        case down(retryAt: Int64)
        /// An attempt is under way since `since`.
        case connecting(since: Int64)
        /// Connected.
        case up
    }

    /// What happened.
    public enum Input: Sendable {
        /// A message to journal and send (not `status`).
        case enqueue(FleetMessage, topic: String)
        /// The board's state: retained, not journaled; only the latest is sent.
        case status(FleetMessage, topic: String)
        /// The batch wake-up: sync, connect when due, publish.
        case wake(now: Int64)
        /// The broker accepted the connection.
        case connected(now: Int64)
        /// The connection attempt failed.
        case connectFailed(PublishProblem, now: Int64)
        /// The connection ended.
        case connectionLost(PublishProblem, now: Int64)
        /// The broker acknowledged message `id` (PUBACK).
        case acknowledged(id: Int64)
        /// The broker refused message `id` (a PUBACK with a failure reason code).
        case refused(id: Int64, reason: String)
        /// A collector's acknowledgement of this board arrived (``AckMode/collector``).
        case collectorAck(FleetAck)
        /// A collector's presence arrived (`online` false: its last will or a clean stop).
        case collectorPresence(collector: String, online: Bool)
        /// Drop now what the outbox limit would drop to take a message of `bytes` (so that the
        /// message can carry the final count: the summary).
        case makeRoom(bytes: Int)
    }

    /// What the driver must do, in order.
    public enum Action: Sendable, Equatable {
        /// Append the record to the journal.
        case append(OutboxRecord)
        /// `fsync` the journal.
        case sync
        /// Start connecting (the answer is ``Input/connected(now:)`` or ``Input/connectFailed(_:now:)``).
        case connect
        /// Give up the connection attempt (destroy the client).
        case abandonConnection
        /// Publish at QoS 1 (`retain` for the status). A status has id 0 and is not acknowledged.
        case publish(OutboxEntry, retain: Bool)
        /// Subscribe at QoS 1 (the collectors' acknowledgements and presence; ``AckMode/collector``).
        case subscribe([String])
        /// Replace the journal atomically by one holding only these entries.
        case compact([OutboxEntry])
        /// Log.
        case log(PublishEvent)
    }

    /// The settings.
    public let settings: Settings
    /// The connection.
    public private(set) var connection: Connection = .down(retryAt: .min)
    /// Messages dropped by the outbox limit in this run (per session: ``drops(session:)``).
    public private(set) var dropped = 0
    /// Messages the broker refused.
    public private(set) var refusedCount = 0
    /// Messages acknowledged in this run.
    public private(set) var acknowledgedCount = 0
    /// Failed attempts since the last connection.
    public private(set) var failures = 0
    /// Messages sent again because no collector acknowledged them (``AckMode/collector``).
    public private(set) var resentCount = 0
    /// Collectors whose presence is `online`.
    public private(set) var collectorsOnline: Set<String> = []
    /// Collectors whose acknowledgement of this board arrived (also retained ones): the board's
    /// own collectors, whose presence counts (``collectorOnline``).
    public private(set) var ackingCollectors: Set<String> = []
    /// Messages enqueued in this run, per kind.
    public private(set) var enqueuedByKind: [FleetMessage.Kind: Int] = [:]
    /// The topics to subscribe to on each connection (``AckMode/collector``).
    public var subscriptions: [String] = []

    private var storage: [OutboxEntry?] = []
    private var removedFront = 0            // entries trimmed off the front of `storage`
    private var positions: [Int64: Int] = [:]  // id -> absolute position
    private var head = 0                    // absolute position of the oldest live entry (or end)
    private var nextToSend = 0              // absolute position of the first unpublished entry
    private var inFlight: Set<Int64> = []   // published on this connection, no PUBACK yet
    private var atBroker: Set<Int64> = []   // PUBACK received, no collector acknowledgement yet
    private var keys: [Int64: (session: String, sequence: Int, part: Int)] = [:]
    private var ackedThrough: [String: FleetAck.Session] = [:]
    private var lastWake: Int64 = 0
    private var resendAt: Int64?
    private var resendCandidates: Set<Int64> = []  // taken by the broker before the collector came online
    private var lastAckProgress: Int64 = 0
    /// Per session, what the outbox limit dropped (this run's drops and the journal's live declarations).
    private var drops: [String: FleetDrops] = [:]
    /// Per session, the id of its live `drops` entry.
    private var declarations: [String: Int64] = [:]
    /// Per `drops` entry, what an acknowledgement must cover before it leaves.
    private var declared: [Int64: (session: String, highest: Int, samples: FleetDrops.SamplesPlace?)] = [:]
    /// Per repeated event class: occurrences not logged yet, and when it was last logged.
    private var quiet: [String: (pending: Int, loggedAt: Int64)] = [:]
    /// The shortest time between two count lines of one repeated event, ns.
    public static let repeatInterval: Int64 = 60_000_000_000
    private var nextID: Int64
    private var liveBytes = 0
    private var fileBytes: Int
    private var unsynced = false
    private var status: OutboxEntry?
    private var statusSent = false
    private var lastLogged: PublishProblem?

    /// Creates a machine continuing the outbox `journal` (its unacknowledged messages are sent first).
    public init(settings: Settings, journal: OutboxJournal = OutboxJournal()) {
        self.settings = settings
        nextID = journal.nextID
        fileBytes = journal.validBytes
        for e in journal.entries {
            insert(e)
            if e.atBroker && settings.ack == .collector { atBroker.insert(e.id) }
            if e.kind == .drops, let node = try? JSONReader.parse(Array(e.payload.utf8)), case .success(let d) = FleetDrops.parse(node) {
                // The newest declaration of a session holds everything the older ones did.
                drops[d.session] = d
                declarations[d.session] = e.id
                declared[e.id] = (d.session, d.highest, d.samplesThrough)
            }
        }
    }

    // MARK: queries

    /// Messages in the outbox (not yet acknowledged, refused or dropped).
    public var backlog: Int { positions.count }
    /// The messages in the outbox, oldest first.
    public var entries: [OutboxEntry] { storage.compactMap { $0 } }
    /// Bytes of the messages in the outbox (their journal lines).
    public var backlogBytes: Int { liveBytes }
    /// Bytes of the journal as the machine tracks it.
    public var journalBytes: Int { fileBytes }
    /// Messages published and not yet acknowledged.
    public var unacknowledged: Int { inFlight.count }
    /// The id the next enqueued message gets.
    public var nextMessageID: Int64 { nextID }
    /// Messages in the outbox the broker has not taken yet (``AckMode/collector``: the rest wait
    /// for a collector).
    public var awaitingBroker: Int { positions.count - atBroker.count }
    /// What the outbox limit dropped of `session` (in this run, or declared in the journal's
    /// live `drops` entries): the counts the status and summary messages carry.
    public func drops(session: String) -> FleetDrops { drops[session] ?? FleetDrops(session: session) }
    /// Whether one of this board's collectors is online: one of ``ackingCollectors`` when any
    /// acknowledged it, else any collector (a board no collector acknowledged yet).
    public var collectorOnline: Bool {
        ackingCollectors.isEmpty ? !collectorsOnline.isEmpty : !collectorsOnline.isDisjoint(with: ackingCollectors)
    }

    // MARK: driving

    /// Applies `input`.
    /// - Returns: the actions, in order.
    public mutating func handle(_ input: Input) -> [Action] {
        var out: [Action] = []
        switch input {
        case let .enqueue(message, topic):
            precondition(message.kind != .status, "status messages go through .status")
            let e = OutboxEntry(id: nextID, kind: message.kind, topic: topic, payload: message.payload)
            nextID += 1
            insert(e)
            enqueuedByKind[message.kind, default: 0] += 1
            append(.message(e), into: &out)
            unsynced = true
            enforceLimit(into: &out)
        case let .status(message, topic):
            status = OutboxEntry(id: 0, kind: .status, topic: topic, payload: message.payload)
            statusSent = false
        case .wake(let now):
            lastWake = now
            if unsynced { out.append(.sync); unsynced = false }
            resendIfDue(now: now, into: &out)
            flushQuiet(now: now, into: &out)
            switch connection {
            case .down(let at) where now >= at:
                connection = .connecting(since: now)
                out.append(.connect)
            case .connecting(let since) where now - since >= settings.connectTimeoutNanoseconds:
                out.append(.abandonConnection)
                fail(PublishProblem(.timeout, "no answer from the broker within \(settings.connectTimeoutNanoseconds / 1_000_000_000) s"), now: now, lost: false, into: &out)
            default: break
            }
            publish(into: &out)
            compactIfWorth(into: &out)
        case .connected:
            connection = .up
            out.append(.log(.connected(backlog: backlog, failures: failures)))
            failures = 0
            lastLogged = nil
            nextToSend = head
            inFlight.removeAll()
            statusSent = false
            // The presence is read again from the retained messages of the subscription.
            collectorsOnline.removeAll()
            resendAt = nil
            if settings.ack == .collector, !subscriptions.isEmpty { out.append(.subscribe(subscriptions)) }
            // Nothing is published before the journal holds it.
            if unsynced { out.append(.sync); unsynced = false }
            publish(into: &out)
        case let .connectFailed(problem, now):
            fail(problem, now: now, lost: false, into: &out)
        case let .connectionLost(problem, now):
            if case .down = connection { break }
            fail(problem, now: now, lost: connection == .up, into: &out)
        case .acknowledged(let id):
            guard let p = positions[id] else { break }
            if settings.ack == .collector && !covered(id) {
                guard inFlight.remove(id) != nil else { break }
                if atBroker.isEmpty { lastAckProgress = lastWake }
                atBroker.insert(id)
                append(.atBroker(id), into: &out)
            } else {
                remove(at: p)
                acknowledgedCount += 1
                append(.acknowledged(id), into: &out)
            }
            if connection == .up { publish(into: &out) }
        case .collectorAck(let ack):
            guard settings.ack == .collector else { break }
            // A collector of this board: from now on only the presence of its collectors counts.
            let wasOnline = collectorOnline
            ackingCollectors.insert(ack.collector)
            for s in ack.sessions {
                // Any collector's positions: each says what that collector wrote.
                guard var a = ackedThrough[s.session] else { ackedThrough[s.session] = s; continue }
                a.sequence = max(a.sequence, s.sequence)
                if (s.samplesSequence, s.samplesPart ?? .max) > (a.samplesSequence, a.samplesPart ?? .max) {
                    a.samplesSequence = s.samplesSequence
                    a.samplesPart = s.samplesPart
                }
                ackedThrough[s.session] = a
            }
            let oldHead = head
            var removed = 0
            var p = head
            while p < removedFront + storage.count {
                if let e = storage[p - removedFront], covered(e.id) {
                    remove(at: p)
                    acknowledgedCount += 1
                    removed += 1
                    append(.acknowledged(e.id), into: &out)
                }
                p += 1
            }
            // Progress is the oldest message acknowledged: acknowledgements of later ones while
            // it waits (a gap the collector does not write past) do not put off its resending.
            if removed > 0, head != oldHead { lastAckProgress = lastWake }
            // The board's collectors may be away now (another partition's is online), or online
            // (a new collector of a board whose old one is retired).
            if wasOnline, !collectorOnline {
                resendAt = nil
            } else if !wasOnline, collectorOnline {
                resendAt = lastWake.saturatingAdding(settings.resendGraceNanoseconds)
                resendCandidates = atBroker
                out.append(.log(.collectorOnline(collector: ack.collector, unacknowledged: backlog)))
            }
            if connection == .up { publish(into: &out) }
        case .makeRoom(let bytes):
            enforceLimit(room: bytes, into: &out)
        case let .collectorPresence(collector, online):
            guard settings.ack == .collector else { break }
            let wasOnline = collectorOnline
            if online { collectorsOnline.insert(collector) } else { collectorsOnline.remove(collector) }
            if !wasOnline, collectorOnline {
                resendAt = lastWake.saturatingAdding(settings.resendGraceNanoseconds)
                resendCandidates = atBroker
                out.append(.log(.collectorOnline(collector: collector, unacknowledged: backlog)))
            } else if wasOnline, !collectorOnline {
                resendAt = nil
                out.append(.log(.collectorOffline(collector: collector)))
            }
        case let .refused(id, reason):
            guard let p = positions[id], let e = storage[p - removedFront] else { break }
            remove(at: p)
            refusedCount += 1
            append(.refused(id), into: &out)
            quietLog(.refused(topic: e.topic, reason: reason), "refused " + e.topic, into: &out)
        }
        return out
    }

    // MARK: internals

    private mutating func append(_ r: OutboxRecord, into out: inout [Action]) {
        fileBytes += r.line.utf8.count
        out.append(.append(r))
    }

    private mutating func insert(_ e: OutboxEntry) {
        var plain = e
        plain.atBroker = false
        positions[e.id] = removedFront + storage.count
        storage.append(plain)
        liveBytes += e.bytes
        if settings.ack == .collector, let k = e.position { keys[e.id] = k }
    }

    /// Logs `event` the first time its class (`what`) happens, later only counts it: the counts
    /// are logged at most once a minute (``flushQuiet(now:into:)``).
    private mutating func quietLog(_ event: PublishEvent, _ what: String, count: Int = 1, into out: inout [Action]) {
        if let q = quiet[what] {
            quiet[what] = (q.pending + count, q.loggedAt)
        } else {
            quiet[what] = (0, lastWake)
            out.append(.log(event))
        }
    }

    private mutating func flushQuiet(now: Int64, into out: inout [Action]) {
        for (what, q) in quiet.sorted(by: { $0.key < $1.key }) where q.pending > 0 && now.saturatingSubtracting(q.loggedAt) >= Self.repeatInterval {
            out.append(.log(.repeated(what: what, count: q.pending, total: what == "dropped" ? dropped : nil)))
            quiet[what] = (0, now)
        }
    }

    /// Whether a collector's acknowledgement covers entry `id`: a declaration when the session's
    /// acknowledged positions are at or past everything it declares (the collector settled it).
    private func covered(_ id: Int64) -> Bool {
        if let d = declared[id] {
            guard let a = ackedThrough[d.session] else { return false }
            return d.highest <= a.sequence && (d.samples.map { a.coversSamples(sequence: $0.sequence, part: $0.part) } ?? true)
        }
        guard let k = keys[id], let a = ackedThrough[k.session], let p = positions[id], let e = storage[p - removedFront] else { return false }
        return e.kind == .samples ? a.coversSamples(sequence: k.sequence, part: k.part) && k.sequence <= a.sequence + 1 : k.sequence <= a.sequence
    }

    /// Sends again what the broker took and no collector acknowledged: after a collector came
    /// online (its grace over), or when acknowledgements stalled while one is online.
    private mutating func resendIfDue(now: Int64, into out: inout [Action]) {
        guard settings.ack == .collector, connection == .up, collectorOnline, !atBroker.isEmpty else { return }
        // After a collector came online: what the broker took before (it may have dropped it);
        // what it took since went to an online collector. After a stall: everything it holds.
        let ids: Set<Int64>
        if let r = resendAt {
            guard now >= r else { return }
            ids = resendCandidates.intersection(atBroker)
        } else {
            guard now.saturatingSubtracting(lastAckProgress) >= settings.resendAfterNanoseconds else { return }
            ids = atBroker
        }
        resendAt = nil
        resendCandidates.removeAll()
        lastAckProgress = now
        guard !ids.isEmpty else { return }
        resentCount += ids.count
        atBroker.subtract(ids)
        nextToSend = head
        out.append(.log(.resending(count: ids.count)))
    }

    /// Removes the entry at absolute position `p` (acknowledged, refused or dropped).
    private mutating func remove(at p: Int) {
        guard let e = storage[p - removedFront] else { return }
        storage[p - removedFront] = nil
        positions[e.id] = nil
        keys[e.id] = nil
        if let d = declared.removeValue(forKey: e.id), declarations[d.session] == e.id { declarations[d.session] = nil }
        liveBytes -= e.bytes
        inFlight.remove(e.id)
        atBroker.remove(e.id)
        while head < removedFront + storage.count, storage[head - removedFront] == nil { head += 1 }
        if nextToSend < head { nextToSend = head }
        let trim = head - removedFront
        if trim > 1024, trim * 2 > storage.count {
            storage.removeFirst(trim)
            removedFront += trim
        }
    }

    private mutating func fail(_ problem: PublishProblem, now: Int64, lost: Bool, into out: inout [Action]) {
        failures += 1
        let shift = min(failures - 1, 40)
        let delay = min(settings.reconnectMaxNanoseconds, settings.firstRetryNanoseconds.multipliedReportingOverflow(by: Int64(1) << shift).overflow
                        ? settings.reconnectMaxNanoseconds : settings.firstRetryNanoseconds << shift)
        connection = .down(retryAt: now + delay)
        nextToSend = head
        inFlight.removeAll()
        statusSent = false
        if lost {
            out.append(.log(.connectionLost(problem, retryNanoseconds: delay)))
            lastLogged = problem
        } else if lastLogged != problem {
            out.append(.log(.connectFailed(problem, retryNanoseconds: delay)))
            lastLogged = problem
        }
    }

    private mutating func publish(into out: inout [Action]) {
        guard connection == .up else { return }
        if let s = status, !statusSent {
            out.append(.publish(s, retain: true))
            statusSent = true
        }
        // Declarations first: a collector settles the drops they name before the messages after
        // them arrive (a samples message after a dropped one is written only once that is settled).
        for id in declarations.values.sorted() where inFlight.count < settings.inFlightLimit && !atBroker.contains(id) && !inFlight.contains(id) {
            guard let p = positions[id], let e = storage[p - removedFront] else { continue }
            out.append(.publish(e, retain: false))
            inFlight.insert(id)
        }
        let end = removedFront + storage.count
        while inFlight.count < settings.inFlightLimit, nextToSend < end {
            if let e = storage[nextToSend - removedFront], !atBroker.contains(e.id), !inFlight.contains(e.id) {
                out.append(.publish(e, retain: false))
                inFlight.insert(e.id)
            }
            nextToSend += 1
        }
    }

    private mutating func enforceLimit(room: Int = 0, into out: inout [Action]) {
        guard let limit = settings.outboxMaxBytes, liveBytes > limit - room else { return }
        let max = limit - room
        var count = 0
        // A declaration that grows takes some of the room again: drop and declare until it fits
        // (or nothing but summaries and declarations is left).
        for _ in 0..<4 where liveBytes > max {
            var sessions: [(session: String, topic: String, board: String)] = []
            for kind in [FleetMessage.Kind.samples, .batch, .event] {
                var p = head
                while liveBytes > max, p < removedFront + storage.count {
                    if let e = storage[p - removedFront], e.kind == kind {
                        let taken = atBroker.contains(e.id)
                        remove(at: p)
                        append(.dropped(e.id), into: &out)
                        count += 1
                        if let s = recordDrop(e, taken: taken), !sessions.contains(where: { $0.session == s.session }) { sessions.append(s) }
                    }
                    p += 1
                }
            }
            for s in sessions { declare(s.session, topic: s.topic, board: s.board, into: &out) }
            if sessions.isEmpty { break }
        }
        if count > 0 {
            dropped += count
            quietLog(.dropped(count: count, total: dropped), "dropped", count: count, into: &out)
        }
    }

    /// Counts a dropped entry in its session's declaration.
    /// - Returns: the session, and the topic and board of its declaration (the entry's topic
    ///   `PREFIX/<board>/<kind>` with `drops` as its last level); nil for a payload without a position.
    private mutating func recordDrop(_ e: OutboxEntry, taken: Bool) -> (session: String, topic: String, board: String)? {
        guard let place = e.place else { return nil }
        var d = drops[place.session] ?? FleetDrops(session: place.session)
        if taken { d.droppedTaken += 1 } else { d.dropped += 1 }
        if e.kind == .samples {
            d.add(samples: FleetDrops.SamplesPlace(sequence: place.sequence, part: place.part, parts: place.parts))
        } else {
            d.add(sequence: place.sequence)
        }
        drops[place.session] = d
        let levels = e.topic.split(separator: "/", omittingEmptySubsequences: false)
        let board = levels.count >= 2 ? String(levels[levels.count - 2]) : ""
        return (place.session, levels.dropLast().joined(separator: "/") + (levels.count >= 2 ? "/" : "") + FleetMessage.Kind.drops.rawValue, board)
    }

    /// Journals `session`'s declaration anew (holding all its drops so far) and removes the older one.
    private mutating func declare(_ session: String, topic: String, board: String, into out: inout [Action]) {
        guard let d = drops[session] else { return }
        let e = OutboxEntry(id: nextID, kind: .drops, topic: topic, payload: d.message(board: board).payload)
        nextID += 1
        insert(e)
        // The new one first: a crash between the two records leaves both (the newer holds all).
        append(.message(e), into: &out)
        unsynced = true
        if let old = declarations[session], let p = positions[old] {
            remove(at: p)
            append(.acknowledged(old), into: &out)
        }
        declarations[session] = e.id
        declared[e.id] = (session, d.highest, d.samplesThrough)
    }

    private mutating func compactIfWorth(into out: inout [Action]) {
        let header = OutboxRecord.header.utf8.count + 1
        guard fileBytes > settings.compactAboveBytes, fileBytes - liveBytes - header > liveBytes else { return }
        let live = entries.map { e in
            var copy = e
            copy.atBroker = atBroker.contains(e.id)
            return copy
        }
        out.append(.compact(live))
        fileBytes = header + liveBytes + live.filter(\.atBroker).reduce(0) { $0 + OutboxRecord.atBroker($1.id).line.utf8.count }
        quietLog(.compacted(entries: live.count), "compacted", into: &out)
    }
}
