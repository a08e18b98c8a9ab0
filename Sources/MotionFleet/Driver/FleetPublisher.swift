import MotionMQTT
import MotionSystem

/// The driver of a ``PublishMachine``: it carries the machine's actions out on the outbox file
/// (``OutboxFile``) and one MQTT connection (MotionMQTT's ``MotionMQTT/MQTTClient``), and feeds
/// back what the connection did. It is called only from the caller's own wake-ups
/// (``wake(now:)`` per batch): it starts no thread and no timer, and each call does a bounded,
/// non-blocking amount of network work (connecting is asynchronous), so publishing never blocks
/// or wakes the capture. Every decision is the machine's.
public final class FleetPublisher {
    /// What to connect to and how.
    public struct Configuration: Sendable {
        /// The broker and prefix.
        public var url: FleetURL
        /// The board id (a topic level).
        public var board: String
        /// The password for the URL's user.
        public var password: String?
        /// The CA file for `mqtts://`.
        public var caFile: String?
        /// The session id (for the last will).
        public var session: String
        /// The outbox file.
        public var outboxPath: String
        /// Whether each batch's samples are published too (`--publish-samples`; the observer's part).
        public var publishSamples = false
        /// The largest payload sent (`--max-payload`, the collector's and the broker's limit):
        /// `samples` messages are split to stay within it.
        public var maxPayloadBytes = FleetMessageSchema.defaultMaxPayload
        /// The machine's settings.
        public var settings = PublishMachine.Settings()
        /// The MQTT keepalive, s: at least the batch latency (so that it never needs a wake-up of its own).
        public var keepaliveSeconds = 60
        /// The status is sent again (with what the board sent so far) in the first batch wake-up
        /// this long after the last one (`--status-interval`, default 60 s).
        public var statusIntervalNanoseconds: Int64 = 60_000_000_000

        /// Creates a configuration.
        public init(url: FleetURL, board: String, session: String, outboxPath: String) {
            self.url = url
            self.board = board
            self.session = session
            self.outboxPath = outboxPath
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// The board's topics.
    public let topics: FleetTopics
    /// The machine (inspectable).
    public private(set) var machine: PublishMachine
    /// What the outbox held when it was opened (messages of an earlier run not yet acknowledged).
    public let restored: Int
    /// The last will set at the next connection (the broker publishes it, retained, when the
    /// connection dies): the latest status's counts with the state `offline`; nil: `offline` alone.
    public var will: FleetMessage?
    private let file: OutboxFile
    private var client: MQTTClient?
    private var mids: [Int32: Int64] = [:]
    private var subscriptionMids: [Int32: [String]] = [:]
    private var refusedSubscriptions: Set<String> = []
    private var pendingRecords: [OutboxRecord] = []
    private let log: (PublishEvent) -> Void

    /// Opens the outbox (sending what an earlier run left unacknowledged first) and prepares the
    /// connection; nothing is sent before the first ``wake(now:)``.
    /// - Parameter log: told every ``PublishEvent`` (the command line prints it on stderr).
    /// - Throws: ``FleetError`` for an invalid board id or an unusable outbox file.
    public init(_ configuration: Configuration, log: @escaping (PublishEvent) -> Void) throws(FleetError) {
        self.configuration = configuration
        topics = try FleetTopics(prefix: configuration.url.prefix, board: configuration.board)
        let (f, journal) = try OutboxFile.open(configuration.outboxPath)
        file = f
        restored = journal.entries.count
        machine = PublishMachine(settings: configuration.settings, journal: journal)
        if configuration.settings.ack == .collector { machine.subscriptions = [topics.ackSubscription(), topics.presenceSubscription()] }
        self.log = log
    }

    /// Journals `message` (a batch, event or summary) to be sent at the next wake-up.
    public func send(_ message: FleetMessage) {
        if message.kind == .status {
            perform(machine.handle(.status(message, topic: topics.topic(.status))), now: MonotonicClock.nanoseconds())
        } else {
            perform(machine.handle(.enqueue(message, topic: topics.topic(message.kind))), now: MonotonicClock.nanoseconds())
        }
    }

    /// Drops now what the outbox limit would drop to take `message` (its journal line), so that
    /// a message built after this can carry the final drop count.
    public func makeRoom(for message: FleetMessage) {
        let bytes = OutboxEntry(id: machine.nextMessageID, kind: message.kind, topic: topics.topic(message.kind), payload: message.payload).bytes
        perform(machine.handle(.makeRoom(bytes: bytes + 16)), now: MonotonicClock.nanoseconds())
    }

    /// Logs `event` as the publisher's own events are.
    public func report(_ event: PublishEvent) { log(event) }

    /// The wake-up: syncs the journal, connects when due, publishes, and reads the
    /// acknowledgements that arrived since the last wake-up (non-blocking).
    public func wake(now: Int64) {
        perform(machine.handle(.wake(now: now)), now: now)
        service(now: now, timeoutMilliseconds: 0)
    }

    /// At the end: waits up to `deadline` (monotonic ns) for the outbox to be acknowledged (by
    /// the broker, and with `--ack collector` by a collector while one is online; what is left is
    /// sent by the next run), then disconnects cleanly.
    /// - Returns: messages still unacknowledged.
    @discardableResult
    public func finish(deadline: Int64) -> Int {
        while machine.backlog > 0 && (machine.awaitingBroker > 0 || machine.collectorOnline) {
            let now = MonotonicClock.nanoseconds()
            guard now < deadline else { break }
            perform(machine.handle(.wake(now: now)), now: now)
            service(now: now, timeoutMilliseconds: 50)
            if client == nil, case .down(let at) = machine.connection, at > deadline { break }
        }
        flush()
        do {
            // Everything acknowledged: the journal starts empty next time.
            if machine.backlog == 0 { try file.compact([]) } else { try file.sync() }
        } catch { log(.journalFailed("\(error)")) }
        if let c = client, machine.connection == .up {
            c.disconnect()
            _ = try? c.step(timeoutMilliseconds: 50)
        }
        client = nil
        return machine.backlog
    }

    // MARK: the connection

    private func service(now: Int64, timeoutMilliseconds: Int) {
        var rounds = 0
        var timeout = timeoutMilliseconds
        while let c = client, rounds < 64 {
            rounds += 1
            let events: [MQTTClient.Event]
            do { events = try c.step(timeoutMilliseconds: timeout) } catch {
                dropConnection(problem(error), now: now)
                return
            }
            timeout = 0
            if events.isEmpty && !c.wantsWrite { return }
            for e in events {
                handle(e, now: now)
                // A refused or lost connection: what else it reported is of the dead client.
                if client !== c { return }
            }
        }
    }

    private func handle(_ event: MQTTClient.Event, now: Int64) {
        switch event {
        case .connected:
            perform(machine.handle(.connected(now: now)), now: now)
        case .connectRefused(let e):
            client = nil
            mids.removeAll()
            perform(machine.handle(.connectFailed(problem(e), now: now)), now: now)
        case .disconnected(let e, _):
            dropConnection(problem(e), now: now)
        case let .published(mid, refused):
            guard let id = mids.removeValue(forKey: mid) else { return }
            if let r = refused {
                perform(machine.handle(.refused(id: id, reason: r.message)), now: now)
            } else {
                perform(machine.handle(.acknowledged(id: id)), now: now)
            }
        case let .message(topic, payload, _):
            if topics.isAck(topic) {
                guard let ack = FleetAck.parse(payload), ack.board == configuration.board else { return }
                perform(machine.handle(.collectorAck(ack)), now: now)
            } else if let collector = topics.presenceCollector(topic), let online = FleetAck.presenceOnline(payload) {
                perform(machine.handle(.collectorPresence(collector: collector, online: online)), now: now)
            }
        case let .subscribed(mid, granted):
            guard let filters = subscriptionMids.removeValue(forKey: mid) else { return }
            for (f, g) in zip(filters, granted) where g >= 128 && refusedSubscriptions.insert(f).inserted { log(.subscriptionRefused(f)) }
        }
    }

    private func dropConnection(_ p: PublishProblem, now: Int64) {
        let wasUp = machine.connection == .up
        client = nil
        mids.removeAll()
        perform(machine.handle(wasUp ? .connectionLost(p, now: now) : .connectFailed(p, now: now)), now: now)
    }

    private func problem(_ e: MQTTError) -> PublishProblem {
        let where_ = "\(configuration.url.host):\(configuration.url.port)"
        switch e.kind {
        case .unreachable: return PublishProblem(.unreachable, "\(where_): \(e.message)")
        case .tls: return PublishProblem(.tls, "TLS with \(where_) failed (\(e.message))")
        case .badCredentials, .notAuthorized:
            // Mosquitto answers a wrong password with "not authorized" (135) as well.
            return PublishProblem(.authentication, "\(where_) refused the user or password (\(e.message))")
        case .noConnection: return PublishProblem(.connectionLost, "\(where_): \(e.message)")
        case .other: return PublishProblem(.other, "\(where_): \(e)")
        }
    }

    // MARK: actions

    private func perform(_ actions: [PublishMachine.Action], now: Int64) {
        for a in actions {
            switch a {
            case .append(let r):
                pendingRecords.append(r)
            case .sync:
                flush()
                do { try file.sync() } catch { log(.journalFailed("\(error)")) }
            case .connect:
                connect(now: now)
            case .abandonConnection:
                client = nil
                mids.removeAll()
            case let .publish(entry, retain):
                guard let c = client else { continue }
                do {
                    let mid = try c.publish(topic: entry.topic, payload: entry.payload, qos: 1, retain: retain)
                    if entry.id != 0 { mids[mid] = entry.id }
                } catch {
                    dropConnection(problem(error), now: now)
                    return
                }
            case .subscribe(let filters):
                guard let c = client else { continue }
                do {
                    for f in filters { subscriptionMids[try c.subscribe(f, qos: 1)] = [f] }
                } catch {
                    dropConnection(problem(error), now: now)
                    return
                }
            case .compact(let entries):
                flush()
                do { try file.compact(entries) } catch { log(.journalFailed("compaction: \(error)")) }
            case .log(let e):
                log(e)
            }
        }
    }

    private func flush() {
        guard !pendingRecords.isEmpty else { return }
        do { try file.append(pendingRecords) } catch { log(.journalFailed("\(error)")) }
        pendingRecords.removeAll()
    }

    private func connect(now: Int64) {
        var o = MQTTClient.Options(clientID: "motionbatch-\(configuration.board)")
        o.user = configuration.url.user
        o.password = configuration.password
        o.caFile = configuration.url.tls ? configuration.caFile : nil
        let d = machine.drops(session: configuration.session)
        o.will = (topics.topic(.status), (will ?? FleetMessage.status(.offline, board: configuration.board, session: configuration.session,
                                                                       dropped: d.dropped, droppedTaken: d.droppedTaken)).payload, true)
        do {
            let c = try MQTTClient(o)
            try c.connect(host: configuration.url.host, port: configuration.url.port, keepaliveSeconds: configuration.keepaliveSeconds)
            client = c
        } catch {
            client = nil
            perform(machine.handle(.connectFailed(problem(error), now: now)), now: now)
        }
    }
}
