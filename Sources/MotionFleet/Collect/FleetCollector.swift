import Foundation
import MotionCore
import MotionMQTT
import MotionSession
import MotionSystem
#if canImport(Glibc)
import Glibc
#endif

/// `motionbatch collect`: subscribes to every board under a prefix in a persistent session (the
/// broker keeps what arrives while the collector is away), checks each message
/// (``ReceivedMessage``), deduplicates by (board, session, sequence) (``DedupeLedger``, rebuilt
/// from the files at start), and writes per board (docs/fleet.md, "collect"):
/// - `DIR/<board>/<session>.ndjson`: every batch, event and summary message, one line each, in
///   arrival order, appended and `fsync`ed once per loop pass, and the board's declarations of
///   what its outbox limit dropped (``FleetDrops``: settled in the ledger and the samples chain,
///   so that the acknowledgement goes on past them);
/// - `DIR/<board>/<session>.samples.csv`: the `samples` messages' samples as a MotionBatch
///   recording (``CollectedSamples``), appended and `fsync`ed once per loop pass;
/// - `DIR/<board>/<session>.summary.json`: the session's summary message (atomically);
/// - `DIR/<board>/last_seen`: when its newest message arrived (wall-clock ns, 20 digits and a
///   newline, rewritten in place and synced with the pass: the report's "last seen", which a copy
///   of the directory keeps, unlike file times);
/// - `DIR/<board>/status.json`: the latest status with the time it was received, and per session
///   the largest figures its statuses carried (``StatusFigures``: a last will without them does
///   not erase them) (atomically).
/// Session files not written to for longer than the retention are deleted.
public final class FleetCollector {
    /// What to subscribe to and where to write.
    public struct Configuration: Sendable {
        /// The broker and prefix.
        public var url: FleetURL
        /// The password for the URL's user.
        public var password: String?
        /// The CA file for `mqtts://`.
        public var caFile: String?
        /// The output directory.
        public var outputDir: String
        /// The client id (the broker keeps its session).
        public var clientID = "motionbatch-collector"
        /// Delete session files older than this (ns), nil to keep them.
        public var retentionNanoseconds: Int64?
        /// The cap of the reconnection back-off, ns.
        public var reconnectMaxNanoseconds: Int64 = 30_000_000_000
        /// The broker keeps the session this long while the collector is away, s.
        public var sessionExpirySeconds: UInt32 = 7 * 86_400
        /// The largest payload taken, bytes (`--max-payload`); a larger one is rejected unread.
        public var maxPayloadBytes = FleetMessageSchema.defaultMaxPayload
        /// A loop pass goes on taking messages for this long after its first one before it
        /// writes them durably and acknowledges them (group commit: one `fsync` pass, one
        /// acknowledgement per board, for all of them), ns.
        public var passWindowNanoseconds: Int64 = 50_000_000
        /// From this many files written in a pass, one `syncfs(2)` of the output directory's
        /// file system replaces the `fsync` per file (one write-back and one flush for all).
        public var syncFileSystemFrom = 8
        /// Record when each written batch, event and summary message was `fsync`ed
        /// (``syncLog``; the fleet benchmark's lag).
        public var recordSyncTimes = false

        /// Creates a configuration.
        public init(url: FleetURL, outputDir: String) {
            self.url = url
            self.outputDir = outputDir
        }
    }

    /// What the collector did.
    public struct Counters: Sendable, Equatable {
        /// Messages received (all).
        public var received = 0
        /// Messages written.
        public var accepted = 0
        /// Messages seen before (not written again).
        public var duplicates = 0
        /// Messages rejected (bad topic, payload, schema or board).
        public var rejected = 0
        /// Session files deleted by the retention.
        public var expired = 0
        /// Lines of the collected files that are not fleet messages (skipped at start).
        public var skippedLines = 0
        /// `samples` messages not written because one before them is missing (``SamplesChain``:
        /// the board sends them again after the missing one).
        public var samplesAfterGap = 0
    }

    /// The configuration.
    public let configuration: Configuration
    /// The counters.
    public private(set) var counters = Counters()
    private var ledger = DedupeLedger()
    private var files: [String: FileDescriptor] = [:]
    private var touched: Set<String> = []
    private let samples = CollectedSamples()
    private let log: (String) -> Void
    private var client: MQTTClient?
    private var lastStatus: [String: String] = [:]
    /// Per board, the largest figures its statuses carried per session.
    private var statusFigures: [String: StatusFigures] = [:]
    /// Per board with a message in this pass, when its newest one arrived (wall-clock ns).
    private var lastSeen: [String: Int64] = [:]
    /// The name of a board's last-seen file.
    static let lastSeenName = "last_seen"
    /// Per board, its sessions written most recently (oldest first, at most ``FleetAck/recentSessions``).
    private var recent: [String: [String]] = [:]
    /// Per board, the sessions written since its last acknowledgement (oldest first): all are
    /// named in the next one (up to ``FleetAck/maxSessions``; the rest in the one after).
    private var unacknowledged: [String: [String]] = [:]
    private var chain = SamplesChain()
    /// Per `.ndjson` path, the receipts of `samples` messages to append once their rows are synced.
    private var receipts: [String: (board: String, session: String, directory: String, lines: [String])] = [:]
    /// Per open session file, its file system (device), for one `syncfs` per file system.
    private var devices: [String: UInt64] = [:]
    /// Boards with something to acknowledge after the next `fsync`.
    private var ackDirty: Set<String> = []
    /// `board/session` whose writes failed: their acknowledgement stays where it was.
    private var frozen: [String: FleetAck.Session] = [:]
    private var lastAck: [String: FleetAck.Session] = [:]
    private var pathKeys: [String: (board: String, session: String)] = [:]
    /// Per `board/session`, the last drops declaration written (a resent one is not written again).
    private var lastDrops: [String: FleetDrops] = [:]
    /// Acknowledgements published.
    public private(set) var acksPublished = 0
    /// With ``Configuration/recordSyncTimes``: each written batch, event and summary message
    /// (board, sequence number) and the monotonic time (ns) its `fsync` ended.
    public private(set) var syncLog: [(board: String, sequence: Int, syncedAt: Int64)] = []
    private var unsyncedLog: [(board: String, sequence: Int)] = []
    /// What an MQTT PUBLISH packet holds besides its payload, bytes, allowed above
    /// ``Configuration/maxPayloadBytes`` in the maximum packet size the collector announces:
    /// the fixed header (at most 5), the topic (2 + a fleet topic: a prefix of at most 200, a
    /// board id of at most 64, a kind) , the packet id (2) and a few properties.
    static let packetAllowance = 1024
    /// Session files kept open at most (a quarter of the descriptor limit, 64...4096).
    static let maxOpenFiles: Int = {
        var r = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &r) == 0 else { return 256 }
        return Int(min(max(r.rlim_cur / 4, 64), 4096))
    }()
    private var failures = 0
    private var retryAt: Int64 = .min
    private var lastProblem: String?
    private var lastRetention: Int64 = .min
    /// The rejections per reason.
    public private(set) var rejections = RejectionTally()
    /// How many skipped lines are logged one by one at start (the rest only counted).
    static let skippedLinesLogged = 20

    /// Creates the output directory and rebuilds the ledger from the files there (a torn final
    /// line of an interrupted write is cut).
    /// - Throws: ``FleetError`` for a malformed file (file, line, column) or an I/O failure.
    public init(_ configuration: Configuration, log: @escaping (String) -> Void) throws(FleetError) {
        self.configuration = configuration
        self.log = log
        do { try Directory.create(configuration.outputDir) } catch { throw .io("cannot create \(configuration.outputDir): \(error)") }
        try rebuild()
    }

    private func rebuild() throws(FleetError) {
        let dir = configuration.outputDir
        let boards: [Directory.Entry]
        do { boards = try Directory.entries(of: dir) } catch { throw .io("cannot list \(dir): \(error)") }
        for b in boards where !b.isRegularFile && FleetTopics.isValidBoardID(b.name) {
            let bdir = dir + "/" + b.name
            guard let entries = try? Directory.entries(of: bdir) else { continue }
            for e in entries where e.isRegularFile && CollectedSamples.parse(fileName: e.name) != nil {
                if let w = samples.restore(board: b.name, path: bdir + "/" + e.name, name: e.name) {
                    counters.skippedLines += 1
                    log("collect: warning: \(w)")
                }
            }
            if let bytes = try? FileDescriptor.openForReading(bdir + "/status.json").readToEnd(), let text = String(validating: bytes, as: UTF8.self),
               let r = text.range(of: ",\"status\":"), text.hasSuffix("}\n") {
                lastStatus[b.name] = String(text[r.upperBound...].dropLast(2))
                if let node = try? JSONReader.parse(bytes) { statusFigures[b.name] = StatusFigures(node["sessions"]) }
            }
            for e in entries where e.isRegularFile && e.name.hasSuffix(".ndjson") {
                let session = String(e.name.dropLast(7))
                let path = bdir + "/" + e.name
                let bytes: [UInt8]
                do { bytes = try FileDescriptor.openForReading(path).readToEnd() } catch { throw .io("cannot read \(path): \(error)") }
                let lines = FleetNDJSON.parse(bytes, file: path, board: b.name)
                for m in lines.messages { _ = ledger.take(board: b.name, session: session, sequence: m.sequence) }
                for r in lines.samples {
                    let parts = FleetAck.count(r.node["parts"]).map { max($0, 1) } ?? 1
                    let part = FleetAck.count(r.node["part"]).map { min(max($0, 1), parts) } ?? 1
                    chain.advance(b.name + "/" + session, to: SamplesChain.Position(sequence: r.sequence, part: part, parts: parts))
                }
                for line in lines.drops {
                    guard case .success(let d) = FleetDrops.parse(line.node) else { continue }
                    settle(d, board: b.name, session: session)
                    lastDrops[b.name + "/" + session] = d
                }
                for s in lines.skipped {
                    counters.skippedLines += 1
                    if counters.skippedLines <= Self.skippedLinesLogged { log("collect: warning: \(s) (line skipped)") }
                }
                if lines.tornBytes > 0 {
                    do {
                        let fd = try FileDescriptor.open(path, flags: O_WRONLY)
                        try fd.truncate(to: Int64(bytes.count - lines.tornBytes))
                        try fd.sync()
                        log("collect: \(path): cut a torn final line (\(lines.tornBytes) bytes) left by an interrupted write")
                    } catch { throw .io("cannot repair \(path): \(error)") }
                }
            }
        }
    }

    /// Runs until `stop()` says so (checked at least twice a second) or until `deadline`
    /// (monotonic ns): connects (again, with back-off), subscribes, writes what arrives.
    public func run(deadline: Int64? = nil, stop: () -> Bool) {
        applyRetention(now: MonotonicClock.nanoseconds())
        if counters.skippedLines > Self.skippedLinesLogged {
            log("collect: warning: \(counters.skippedLines - Self.skippedLinesLogged) more lines of the collected files skipped (\(counters.skippedLines) in all; `collect report` lists them)")
        }
        while !stop() {
            let now = MonotonicClock.nanoseconds()
            if let d = deadline, now >= d { break }
            if client == nil {
                if now >= retryAt { connect(now: now) }
                if client == nil {
                    MonotonicClock.sleep(until: min(retryAt, now + 500_000_000, deadline ?? .max), interrupted: stop)
                    continue
                }
            }
            pass(timeoutMilliseconds: 500, now: now)
            if now - lastRetention > 3_600_000_000_000 { applyRetention(now: now) }
            if let line = rejections.tick(now: now) { log(line) }
        }
        // Take what is already here before leaving (bounded).
        for _ in 0..<20 where client != nil { if !pass(timeoutMilliseconds: 50, now: MonotonicClock.nanoseconds()) { break } }
        _ = try? client?.publish(topic: presenceTopic, payload: FleetAck.presence(collector: configuration.clientID, online: false), qos: 1, retain: true)
        _ = try? client?.step(timeoutMilliseconds: 50)
        client?.disconnect()
        _ = try? client?.step(timeoutMilliseconds: 50)
        client = nil
        flush()
        samples.closeAll()
    }

    /// One loop pass. - Returns: whether anything arrived.
    @discardableResult
    private func pass(timeoutMilliseconds: Int, now: Int64) -> Bool {
        guard let c = client else { return false }
        var any = false
        var timeout = timeoutMilliseconds
        var windowEnd: Int64?
        for _ in 0..<100_000 {
            let events: [MQTTClient.Event]
            do { events = try c.step(timeoutMilliseconds: timeout) } catch {
                lost("\(error)", now: now)
                break
            }
            let t = MonotonicClock.nanoseconds()
            if events.isEmpty { break }  // everything taken: write now
            timeout = 0
            any = true
            for e in events { handle(e, now: now) }
            if client == nil { break }
            // A steady stream: another window spent taking it, write now.
            if let end = windowEnd, t >= end + configuration.passWindowNanoseconds { break }
            if windowEnd == nil {
                // The first message of the pass: let the window's messages gather in the socket
                // (one wake-up, not one per message), then take them all.
                let end = t + configuration.passWindowNanoseconds
                windowEnd = end
                MonotonicClock.sleep(until: end)
            }
        }
        flush()
        return any
    }

    private func handle(_ e: MQTTClient.Event, now: Int64) {
        switch e {
        case .connected:
            log("collect: connected to \(configuration.url)" + (failures > 0 ? " after \(failures) failed attempts" : ""))
            failures = 0
            lastProblem = nil
            do {
                _ = try client?.subscribe(FleetTopics.subscription(prefix: configuration.url.prefix), qos: 1)
                _ = try client?.publish(topic: presenceTopic, payload: FleetAck.presence(collector: configuration.clientID, online: true), qos: 1, retain: true)
            } catch {
                lost("\(error)", now: now)
            }
        case .connectRefused(let err):
            lost("\(err.message)" + (err.kind == .badCredentials ? ": check the user and --password-file" : err.kind == .notAuthorized ? ": the broker does not allow this user" : ""), now: now)
        case .disconnected(let err, _):
            lost(err.message, now: now)
        case let .subscribed(_, granted):
            if granted.contains(where: { $0 >= 128 }) {
                log("collect: the broker refused the subscription to \(FleetTopics.subscription(prefix: configuration.url.prefix)): the ACL must allow this user to read it")
            }
        case let .message(topic, payload, retained):
            receive(topic: topic, payload: payload, retained: retained, now: now)
        case .published:
            break
        }
    }

    private func lost(_ problem: String, now: Int64) {
        client = nil
        failures += 1
        let delay = min(configuration.reconnectMaxNanoseconds, Int64(1_000_000_000) << min(failures - 1, 5))
        retryAt = now + delay
        if problem != lastProblem {
            log("collect: \(configuration.url.host):\(configuration.url.port): \(problem); retrying in \(delay / 1_000_000_000) s")
            lastProblem = problem
        }
    }

    private func connect(now: Int64) {
        var o = MQTTClient.Options(clientID: configuration.clientID)
        o.cleanStart = false
        // A pass's worth of messages in flight (the window below), not the broker's 20.
        o.receiveMaximum = 5000
        // A message above --max-payload never reaches the collector's memory: the broker drops
        // it for this client (whatever its own message_size_limit).
        o.maximumPacketSize = configuration.maxPayloadBytes + Self.packetAllowance
        o.user = configuration.url.user
        o.password = configuration.password
        o.caFile = configuration.url.tls ? configuration.caFile : nil
        o.will = (presenceTopic, FleetAck.presence(collector: configuration.clientID, online: false), true)
        do {
            let c = try MQTTClient(o)
            try c.connectKeepingSession(host: configuration.url.host, port: configuration.url.port, keepaliveSeconds: 60,
                                        sessionExpirySeconds: configuration.sessionExpirySeconds)
            client = c
        } catch {
            lost(error.kind == .tls ? "TLS failed (\(error.message)): check --ca-file" : "\(error.message)", now: now)
        }
    }

    // MARK: files

    /// Checks, deduplicates and writes one message.
    func receive(topic: String, payload: [UInt8], retained: Bool = false, now: Int64 = MonotonicClock.nanoseconds()) {
        counters.received += 1
        switch ReceivedMessage.check(topic: topic, payload: payload, prefix: configuration.url.prefix, maxBytes: configuration.maxPayloadBytes) {
        case .failure(let r):
            reject(r.reason, "\(r)", now: now)
        case .success(let m):
            let bdir = configuration.outputDir + "/" + m.board
            if m.kind == .status {
                // A retained status the broker delivers again (a collector restart) is not news.
                if retained, lastStatus[m.board] == m.payload { return }
                lastSeen[m.board] = WallClock.nanoseconds()
                lastStatus[m.board] = m.payload
                if let node = try? JSONReader.parse(Array(m.payload.utf8)) { statusFigures[m.board, default: StatusFigures()].merge(node) }
                let wall = WallClock.nanoseconds()
                let sessions = (statusFigures[m.board] ?? StatusFigures()).json.serialized()
                // `sessions` before `status`: the status is the file's tail (read back as it is).
                writeAtomic("{\"received_utc\":\"\(UTCTime.iso8601(wall))\",\"received_ns\":\(wall),\"sessions\":\(sessions),\"status\":\(m.payload)}\n",
                            to: bdir + "/status.json", board: bdir)
                return
            }
            lastSeen[m.board] = WallClock.nanoseconds()
            if m.kind == .samples { return receiveSamples(m, directory: bdir) }
            if m.kind == .drops { return receiveDrops(m, directory: bdir) }
            noteWritten(board: m.board, session: m.session)
            guard ledger.take(board: m.board, session: m.session, sequence: m.sequence) else { counters.duplicates += 1; return }
            counters.accepted += 1
            let path = bdir + "/" + m.session + ".ndjson"
            do {
                let fd = try file(path, board: bdir)
                try fd.write(Array((m.payload + "\n").utf8))
                if configuration.recordSyncTimes { unsyncedLog.append((m.board, m.sequence)) }
                touched.insert(path)
                pathKeys[path] = (m.board, m.session)
            } catch {
                freeze(board: m.board, session: m.session)
                log("collect: writing \(path) failed: \(error)")
            }
            if m.kind == .summary {
                writeAtomic(m.payload + "\n", to: bdir + "/" + m.session + ".summary.json", board: bdir)
                samples.close(board: m.board, session: m.session)
            }
        }
    }

    /// A `samples` message: written only when it is the session's next one (``SamplesChain``:
    /// its `prev_seq` and `part`; after a gap it waits for the board to send the missing one),
    /// and only when its samples are after the recording's (a redelivery after a restart), then
    /// appended to the recording; its receipt goes to the session's `.ndjson` after the rows'
    /// `fsync` (``flush()``).
    private func receiveSamples(_ m: ReceivedMessage, directory: String) {
        noteWritten(board: m.board, session: m.session)
        let name = "\(m.board)/samples seq \(m.sequence) of session \(m.session)"
        let key = m.board + "/" + m.session
        do {
            let decoded = try FleetSamples.decode(m.payload, name: name)
            switch chain.judge(key, sequence: m.sequence, part: decoded.part, parts: decoded.parts, previous: decoded.previous) {
            case .duplicate: counters.duplicates += 1; return
            case .gap: counters.samplesAfterGap += 1; return
            case .next: break
            }
            switch try samples.append(decoded, board: m.board, session: m.session, directory: directory) {
            case .written: counters.accepted += 1
            case .duplicate: counters.duplicates += 1
            }
            chain.advance(key, to: SamplesChain.Position(sequence: m.sequence, part: decoded.part, parts: decoded.parts))
            var receipt: [(String, JSONValue)] = [("schema", .number(FleetMessage.schemaVersion)), ("board", .string(m.board)), ("type", .string("samples")),
                                                  ("session", .string(m.session)), ("seq", .number(m.sequence)), ("part", .number(decoded.part)),
                                                  ("parts", .number(decoded.parts)), ("count", .number(decoded.samples.count))]
            if let p = decoded.previous { receipt.append(("prev_seq", .number(p))) }
            receipts[directory + "/" + m.session + ".ndjson", default: (m.board, m.session, directory, [])].lines.append(JSONValue.object(receipt).serialized())
        } catch let e as FleetError {
            reject(.samples, "\(e)", now: MonotonicClock.nanoseconds())
        } catch {
            freeze(board: m.board, session: m.session)
            counters.rejected += 1
            log("collect: writing \(name) failed: \(error)")
        }
    }

    /// A board's declaration of what its outbox limit dropped of a session: the numbers it names
    /// are settled (the acknowledgement and the samples chain go on past them) and the declaration
    /// is written to the session's `.ndjson` (so that a restarted collector and `collect report`
    /// know them), then acknowledged after the pass's `fsync` like a message.
    private func receiveDrops(_ m: ReceivedMessage, directory: String) {
        noteWritten(board: m.board, session: m.session)
        guard let node = try? JSONReader.parse(Array(m.payload.utf8)), case .success(let d) = FleetDrops.parse(node) else { return }
        let key = m.board + "/" + m.session
        let moved = settle(d, board: m.board, session: m.session)
        guard moved || lastDrops[key] != d else { counters.duplicates += 1; return }
        lastDrops[key] = d
        counters.accepted += 1
        let path = directory + "/" + m.session + ".ndjson"
        do {
            try file(path, board: directory).write(Array((m.payload + "\n").utf8))
            touched.insert(path)
            pathKeys[path] = (m.board, m.session)
        } catch {
            freeze(board: m.board, session: m.session)
            log("collect: writing \(path) failed: \(error)")
        }
    }

    /// Settles a declaration in the ledger and the samples chain. - Returns: whether anything moved.
    @discardableResult
    private func settle(_ d: FleetDrops, board: String, session: String) -> Bool {
        var moved = ledger.settle(board: board, session: session, d.ranges)
        if let s = d.samplesThrough {
            moved = chain.settle(board + "/" + session, through: SamplesChain.Position(sequence: s.sequence, part: s.part, parts: s.parts)) || moved
        }
        return moved
    }

    private func reject(_ reason: FleetMessageSchema.Reason, _ detail: String, now: Int64) {
        counters.rejected += 1
        if let line = rejections.record(reason, detail: detail, now: now) { log(line) }
    }

    private func file(_ path: String, board: String) throws(SystemError) -> FileDescriptor {
        if let f = files[path] { return f }
        if !Directory.exists(board) { try Directory.create(board) }
        let f = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_APPEND)
        files[path] = f
        if let d = try? f.identity().device, d != 0 { devices[path] = d }
        return f
    }

    private func writeAtomic(_ text: String, to path: String, board: String) {
        do {
            if !Directory.exists(board) { try Directory.create(board) }
            try AtomicFile.write(Array(text.utf8), to: path)
        } catch { log("collect: writing \(path) failed: \(error)") }
    }

    private var presenceTopic: String { FleetTopics.presence(prefix: configuration.url.prefix, collector: configuration.clientID) }

    /// `board`'s `session` is (or will be, at the next `fsync`) written: acknowledge it then.
    private func noteWritten(board: String, session: String) {
        ackDirty.insert(board)
        if unacknowledged[board]?.last != session, !(unacknowledged[board]?.contains(session) ?? false) { unacknowledged[board, default: []].append(session) }
        var list = recent[board] ?? []
        if list.last != session {
            list.removeAll { $0 == session }
            list.append(session)
            if list.count > FleetAck.recentSessions { list.removeFirst(list.count - FleetAck.recentSessions) }
            recent[board] = list
        }
    }

    /// A write of `board`'s `session` failed: its acknowledgement does not advance in this run.
    private func freeze(board: String, session: String) {
        let key = board + "/" + session
        if frozen[key] == nil { frozen[key] = lastAck[key] ?? FleetAck.Session(session: session, sequence: 0, samplesSequence: 0) }
    }

    /// Publishes (retained) each touched board's acknowledgement: what is now `fsync`ed.
    private func publishAcks() {
        guard let c = client, !ackDirty.isEmpty else { return }
        var again: Set<String> = []
        for board in ackDirty.sorted() {
            // Every session written since the last acknowledgement (a board resending many
            // sessions' messages has each named), then the most recent others.
            var names = unacknowledged[board] ?? []
            if names.count > FleetAck.maxSessions {
                unacknowledged[board] = Array(names[FleetAck.maxSessions...])
                names = Array(names[..<FleetAck.maxSessions])
                again.insert(board)
            } else {
                unacknowledged[board] = nil
            }
            for s in (recent[board] ?? []).reversed() where names.count < FleetAck.maxSessions && !names.contains(s) { names.append(s) }
            let sessions = names.map { s -> FleetAck.Session in
                let key = board + "/" + s
                if let f = frozen[key] { return f }
                let samplesAt = chain.acknowledged(key)
                let a = FleetAck.Session(session: s, sequence: ledger.contiguous(board: board, session: s),
                                         samplesSequence: samplesAt.sequence, samplesPart: samplesAt.part)
                lastAck[key] = a
                return a
            }
            let ack = FleetAck(board: board, collector: configuration.clientID, sessions: sessions)
            do {
                // QoS 0: an acknowledgement is cumulative and retained, so a later one (or the
                // retained one at the board's next connection) replaces a lost one; no PUBACK per
                // acknowledgement for the collector and the broker to handle.
                _ = try c.publish(topic: FleetTopics.ack(prefix: configuration.url.prefix, board: board, collector: configuration.clientID), payload: ack.payload, qos: 0, retain: true)
                acksPublished += 1
            } catch {
                log("collect: cannot publish the acknowledgement of \(board): \(error)")
                return
            }
        }
        ackDirty = again
    }

    private func flush() {
        // The samples' rows first, then their receipts (so a receipt on disk means its rows are).
        var failed: Set<String> = []
        for p in samples.sync() {
            failed.insert(p.key)
            let parts = p.key.split(separator: "/", maxSplits: 1).map(String.init)
            if parts.count == 2 { freeze(board: parts[0], session: parts[1]) }
            log("collect: \(p.problem)")
        }
        for (path, r) in receipts where !failed.contains(r.board + "/" + r.session) {
            do {
                try file(path, board: r.directory).write(Array((r.lines.joined(separator: "\n") + "\n").utf8))
                touched.insert(path)
                pathKeys[path] = (r.board, r.session)
            } catch {
                freeze(board: r.board, session: r.session)
                log("collect: writing \(path) failed: \(error)")
            }
        }
        receipts.removeAll()
        writeLastSeen()
        if touched.count >= configuration.syncFileSystemFrom, FileDescriptor.canSyncFileSystem {
            // One write-back and one flush for every file of the pass: one syncfs per file system
            // (a board directory may be a mount point of its own); a file whose device is unknown
            // gets its own fsync.
            var byDevice: [UInt64: [String]] = [:]
            for p in touched { byDevice[devices[p] ?? 0, default: []].append(p) }
            for (device, paths) in byDevice {
                if device == 0 {
                    for p in paths {
                        do { try files[p]?.sync() } catch {
                            if let k = pathKeys[p] { freeze(board: k.board, session: k.session) }
                            log("collect: fsync \(p) failed: \(error)")
                        }
                    }
                    continue
                }
                guard let fd = files[paths[0]] else { continue }
                do { try fd.syncFileSystem() } catch {
                    for p in paths { if let k = pathKeys[p] { freeze(board: k.board, session: k.session) } }
                    log("collect: syncfs of the file system of \(paths[0]) failed: \(error)")
                }
            }
        } else {
            for p in touched {
                do { try files[p]?.sync() } catch {
                    if let k = pathKeys[p] { freeze(board: k.board, session: k.session) }
                    log("collect: fsync \(p) failed: \(error)")
                }
            }
        }
        touched.removeAll()
        if !unsyncedLog.isEmpty {
            let t = MonotonicClock.nanoseconds()
            syncLog += unsyncedLog.map { ($0.board, $0.sequence, t) }
            unsyncedLog.removeAll()
        }
        publishAcks()
        if files.count > Self.maxOpenFiles {
            files.removeAll()
            devices.removeAll()
        }
        if samples.openCount > Self.maxOpenFiles { samples.closeAll() }
    }

    /// Rewrites each board's `last_seen` of this pass in place (one `pwrite` of a fixed-size
    /// line, within a sector: never torn), synced with the pass's files.
    private func writeLastSeen() {
        for (board, ns) in lastSeen {
            let bdir = configuration.outputDir + "/" + board
            let path = bdir + "/" + Self.lastSeenName
            do {
                let fd: FileDescriptor
                if let f = files[path] {
                    fd = f
                } else {
                    if !Directory.exists(bdir) { try Directory.create(bdir) }
                    fd = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT)
                    files[path] = fd
                    if let d = try? fd.identity().device, d != 0 { devices[path] = d }
                }
                let digits = String(max(ns, 0))
                try fd.write(Array((String(repeating: "0", count: max(0, 20 - digits.count)) + digits + "\n").utf8), at: 0)
                touched.insert(path)
            } catch {
                log("collect: writing \(path) failed: \(error)")
            }
        }
        lastSeen.removeAll()
    }

    private func applyRetention(now: Int64) {
        lastRetention = now
        guard let keep = configuration.retentionNanoseconds else { return }
        let cutoff = WallClock.nanoseconds() - keep
        guard let boards = try? Directory.entries(of: configuration.outputDir) else { return }
        for b in boards where !b.isRegularFile && FleetTopics.isValidBoardID(b.name) {
            let bdir = configuration.outputDir + "/" + b.name
            for e in (try? Directory.entries(of: bdir)) ?? [] where e.isRegularFile && e.name.hasSuffix(".ndjson") && e.modified < cutoff {
                let base = bdir + "/" + String(e.name.dropLast(7))
                files[base + ".ndjson"] = nil
                devices[base + ".ndjson"] = nil
                try? Directory.removeFile(base + ".ndjson")
                try? Directory.removeFile(base + ".summary.json")
                let session = String(e.name.dropLast(7))
                for f in (try? Directory.entries(of: bdir)) ?? [] where CollectedSamples.parse(fileName: f.name)?.session == session {
                    try? Directory.removeFile(bdir + "/" + f.name)
                }
                samples.forget(board: b.name, session: session)
                chain.forget(b.name + "/" + session)
                lastDrops[b.name + "/" + session] = nil
                counters.expired += 1
                log("collect: deleted \(b.name)/\(e.name) (older than the retention)")
            }
        }
    }
}
