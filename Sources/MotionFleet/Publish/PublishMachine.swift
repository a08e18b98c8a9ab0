/// Publishing through an on-disk outbox as a pure state machine: it is told what to send, what
/// the connection did and what the broker acknowledged, with the monotonic time read by the
/// driver in the batch wake-up, and answers with the ``Action``s to carry out (journal records,
/// one `fsync` per wake-up, connection attempts, publications, compaction, log events). It does
/// no I/O and reads no clock (`swift test --filter PublishMachine`).
///
/// Guarantees it keeps (docs/fleet.md, "The outbox"):
/// - a message is journaled (``Action/append(_:)``) and synced (``Action/sync``) before it is
///   published, and leaves the outbox only when acknowledged (or refused, or dropped);
/// - messages are published in order, oldest first, at most ``Settings/inFlightLimit`` unacknowledged;
///   after a lost connection every unacknowledged one is published again, in order;
/// - over ``Settings/outboxMaxBytes`` the oldest `samples` messages are dropped first and
///   counted, then the oldest `batch` messages, then `event` messages; summaries never;
/// - reconnection with exponential back-off from ``Settings/firstRetryNanoseconds`` capped at
///   ``Settings/reconnectMaxNanoseconds``, attempted only in a wake-up (no timer of its own);
/// - the journal is compacted when its dead records outweigh the live ones.
public struct PublishMachine: Sendable {
    /// What the machine is asked to do.
    public struct Settings: Sendable, Equatable {
        /// The back-off's cap (`--reconnect-max`, default 30 s).
        public var reconnectMaxNanoseconds: Int64 = 30_000_000_000
        /// The first retry's delay.
        public var firstRetryNanoseconds: Int64 = 1_000_000_000
        /// The outbox's limit (`--outbox-max`), nil for none.
        public var outboxMaxBytes: Int?
        /// Messages published and not yet acknowledged, at most.
        public var inFlightLimit = 100
        /// A connection attempt not answered within this is abandoned.
        public var connectTimeoutNanoseconds: Int64 = 10_000_000_000
        /// The journal is compacted only above this size.
        public var compactAboveBytes = 64 * 1024

        /// Creates the defaults.
        public init() {}
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
        /// Replace the journal atomically by one holding only these entries.
        case compact([OutboxEntry])
        /// Log.
        case log(PublishEvent)
    }

    /// The settings.
    public let settings: Settings
    /// The connection.
    public private(set) var connection: Connection = .down(retryAt: .min)
    /// Messages dropped by the outbox limit (this run and the journal's).
    public private(set) var dropped = 0
    /// Messages the broker refused.
    public private(set) var refusedCount = 0
    /// Messages acknowledged in this run.
    public private(set) var acknowledgedCount = 0
    /// Failed attempts since the last connection.
    public private(set) var failures = 0

    private var storage: [OutboxEntry?] = []
    private var removedFront = 0            // entries trimmed off the front of `storage`
    private var positions: [Int64: Int] = [:]  // id -> absolute position
    private var head = 0                    // absolute position of the oldest live entry (or end)
    private var nextToSend = 0              // absolute position of the first unpublished entry
    private var inFlight = 0
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
        dropped = journal.dropped
        for e in journal.entries { insert(e) }
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
    public var unacknowledged: Int { inFlight }

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
            append(.message(e), into: &out)
            unsynced = true
            enforceLimit(into: &out)
        case let .status(message, topic):
            status = OutboxEntry(id: 0, kind: .status, topic: topic, payload: message.payload)
            statusSent = false
        case .wake(let now):
            if unsynced { out.append(.sync); unsynced = false }
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
            inFlight = 0
            statusSent = false
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
            remove(at: p)
            acknowledgedCount += 1
            append(.acknowledged(id), into: &out)
            if connection == .up { publish(into: &out) }
        case let .refused(id, reason):
            guard let p = positions[id], let e = storage[p - removedFront] else { break }
            remove(at: p)
            refusedCount += 1
            append(.refused(id), into: &out)
            out.append(.log(.refused(topic: e.topic, reason: reason)))
        }
        return out
    }

    // MARK: internals

    private mutating func append(_ r: OutboxRecord, into out: inout [Action]) {
        fileBytes += r.line.utf8.count
        out.append(.append(r))
    }

    private mutating func insert(_ e: OutboxEntry) {
        positions[e.id] = removedFront + storage.count
        storage.append(e)
        liveBytes += e.bytes
    }

    /// Removes the entry at absolute position `p` (acknowledged, refused or dropped).
    private mutating func remove(at p: Int) {
        guard let e = storage[p - removedFront] else { return }
        storage[p - removedFront] = nil
        positions[e.id] = nil
        liveBytes -= e.bytes
        if p < nextToSend { inFlight -= 1 }
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
        inFlight = 0
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
        let end = removedFront + storage.count
        while inFlight < settings.inFlightLimit, nextToSend < end {
            if let e = storage[nextToSend - removedFront] {
                out.append(.publish(e, retain: false))
                inFlight += 1
            }
            nextToSend += 1
        }
    }

    private mutating func enforceLimit(into out: inout [Action]) {
        guard let max = settings.outboxMaxBytes, liveBytes > max else { return }
        var count = 0
        for kind in [FleetMessage.Kind.samples, .batch, .event] {
            var p = head
            while liveBytes > max, p < removedFront + storage.count {
                if let e = storage[p - removedFront], e.kind == kind {
                    remove(at: p)
                    append(.dropped(e.id), into: &out)
                    count += 1
                }
                p += 1
            }
        }
        if count > 0 {
            dropped += count
            out.append(.log(.dropped(count: count, total: dropped)))
        }
    }

    private mutating func compactIfWorth(into out: inout [Action]) {
        let header = OutboxRecord.header.utf8.count + 1
        guard fileBytes > settings.compactAboveBytes, fileBytes - liveBytes - header > liveBytes else { return }
        let live = entries
        out.append(.compact(live))
        fileBytes = header + liveBytes
        out.append(.log(.compacted(entries: live.count)))
    }
}
