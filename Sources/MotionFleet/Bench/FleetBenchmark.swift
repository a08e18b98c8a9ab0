import Foundation
import MotionCore
import MotionSystem

/// The fleet at scale in one process (`motionbatch bench fleet`; docs/fleet.md, "Scale"): N
/// simulated boards, each a ``FleetPublisher`` with its own outbox journal and its own
/// libmosquitto connection, send one batch message a second (spread evenly over the second) for
/// a given time through one broker, into one ``FleetCollector`` running on its own thread, with
/// the end-to-end acknowledgement (`--ack collector`). It reports what was lost (sent and never
/// written), the collector's CPU time per message (its thread's CPU clock) and the lag from a
/// board's publication (the wake-up that publishes it) to the collector's `fsync` of it. The
/// boards' side is as a board runs: each board's network is served only in its own wake-up,
/// once a second. Bounded: it stops when the collector has everything, or after the drain time.
public enum FleetBenchmark {
    /// What to run.
    public struct Configuration: Sendable {
        /// The broker (its prefix is the fleet's).
        public var url: FleetURL
        /// Simulated boards.
        public var boards = 1000
        /// Batches per board (one a second).
        public var seconds = 60
        /// The collector's output directory.
        public var outputDir: String
        /// The boards' outboxes' directory.
        public var outboxDir: String
        /// After the last batch, how long the collector may take to have everything, s.
        public var drainSeconds = 30
        /// How long the boards may take to connect, s.
        public var connectSeconds = 60

        /// Creates a configuration.
        public init(url: FleetURL, outputDir: String, outboxDir: String) {
            self.url = url
            self.outputDir = outputDir
            self.outboxDir = outboxDir
        }
    }

    /// What was measured.
    public struct Result: Sendable {
        /// Boards, and how many connected.
        public var boards = 0, connected = 0
        /// Batch messages sent (published by the boards), written by the collector (each once),
        /// and lost (sent, never written).
        public var sent = 0, written = 0, lost = 0
        /// Messages the collector received (with duplicates), and duplicates.
        public var received = 0, duplicates = 0
        /// The collector's thread CPU time, s, and per received message, µs.
        public var collectorCPUSeconds = 0.0, collectorCPUPerMessageMicroseconds = 0.0
        /// Lag from publication to the collector's `fsync`, s: median, 99th percentile, largest.
        public var lagP50Seconds = 0.0, lagP99Seconds = 0.0, lagMaxSeconds = 0.0
        /// Wall time of the sending phase, and of the whole run, s.
        public var sendingSeconds = 0.0, wallSeconds = 0.0
        /// Boards' wake-ups that came more than 1 s late (the benchmark process could not keep up).
        public var lateWakeups = 0
        /// Messages still in the boards' outboxes at the end.
        public var outboxLeft = 0
        /// Acknowledgements the collector published.
        public var acksPublished = 0
        /// The 1-minute load average before and after (/proc/loadavg; nil when unreadable).
        public var loadBefore: Double?, loadAfter: Double?
    }

    /// The collector and what its thread measured (owned by that thread until it ends).
    private final class CollectorThread: @unchecked Sendable {
        let collector: FleetCollector
        let expected: Int
        let deadline: Int64
        let done = DispatchSemaphore(value: 0)
        let lock = NSLock()
        var connected = false
        var cpuNanoseconds: Int64 = 0
        var stopRequested = false

        init(_ c: FleetCollector.Configuration, expected: Int, deadline: Int64, log: @escaping @Sendable (String) -> Void) throws(FleetError) {
            self.expected = expected
            self.deadline = deadline
            var box: CollectorThread?
            collector = try FleetCollector(c) { line in
                if line.hasPrefix("collect: connected") { box?.setConnected() }
                log(line)
            }
            box = self
        }

        func setConnected() { lock.lock(); connected = true; lock.unlock() }
        var isConnected: Bool { lock.lock(); defer { lock.unlock() }; return connected }
        func requestStop() { lock.lock(); stopRequested = true; lock.unlock() }
        var shouldStop: Bool { lock.lock(); defer { lock.unlock() }; return stopRequested }

        func start() {
            Thread { [self] in
                let cpu0 = MonotonicClock.threadCPUNanoseconds()
                collector.run(deadline: deadline) { collector.counters.accepted >= expected || shouldStop }
                cpuNanoseconds = MonotonicClock.threadCPUNanoseconds() - cpu0
                done.signal()
            }.start()
        }
    }

    /// A board's batch message `seq` (the members of `capture --ndjson`'s batch object, with
    /// plausible figures: about the size of a real one).
    static func batch(board: String, session: String, sequence: Int) -> FleetMessage {
        let t = Double(sequence)
        return FleetMessage.wrap(.batch, board: board, .object([
            ("type", .string("batch")), ("session", .string(session)), ("seq", .number(sequence)), ("recording", .string("bench")),
            ("first_s", .number(t - 1)), ("end_s", .number(t)), ("samples", .number(100)), ("total_samples", .number(100 * sequence)),
            ("lost_samples", .number(0)), ("steps", .number(2 * sequence)), ("activity", .string("walking")), ("confidence", .number(0.93)),
            ("wakeups", .object([("device", .number(sequence)), ("scheduler", .number(sequence)), ("userspace", .number(0))])),
            ("wakeups_per_hour", .object([("device", .number(3600)), ("scheduler", .number(3600)), ("userspace", .number(0))])),
            ("elapsed_s", .number(t)), ("cpu_s", .number(0.001 * t)),
        ]))
    }

    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// The value at quantile `q` (0...1) of `sorted` (nearest rank), 0 when empty.
    static func quantile(_ sorted: [Int64], _ q: Double) -> Int64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// Runs the benchmark.
    /// - Parameter log: progress lines and the collector's and boards' problems.
    /// - Throws: ``FleetError`` when the collector or an outbox cannot be opened.
    public static func run(_ c: Configuration, log: @escaping @Sendable (String) -> Void) throws(FleetError) -> Result {
        var result = Result()
        result.boards = c.boards
        result.loadBefore = loadAverage()
        let started = MonotonicClock.nanoseconds()
        let second: Int64 = 1_000_000_000
        do { try Directory.create(c.outboxDir) } catch { throw .io("cannot create \(c.outboxDir): \(error)") }
        var cc = FleetCollector.Configuration(url: c.url, outputDir: c.outputDir)
        cc.recordSyncTimes = true
        cc.clientID = "bench-collector"
        let expected = c.boards * c.seconds
        let limit = started + Int64(c.connectSeconds + c.seconds + c.drainSeconds + 10) * second
        let collector = try CollectorThread(cc, expected: expected, deadline: limit, log: log)
        collector.start()
        let collectorReady = MonotonicClock.nanoseconds() + 10 * second
        while !collector.isConnected, MonotonicClock.nanoseconds() < collectorReady { MonotonicClock.sleep(until: MonotonicClock.nanoseconds() + 20_000_000) }
        guard collector.isConnected else {
            collector.requestStop()
            collector.done.wait()
            throw .io("the collector did not connect to \(c.url) within 10 s")
        }
        MonotonicClock.sleep(until: MonotonicClock.nanoseconds() + 500_000_000)  // subscribed

        // The boards: each its own outbox and connection.
        var boards: [FleetPublisher] = []
        var index: [String: Int] = [:]
        var problems = 0
        for i in 0..<c.boards {
            let id = "k" + String(100_000 + i).dropFirst()
            var pc = FleetPublisher.Configuration(url: c.url, board: id, session: String(format: "%016llx", UInt64.random(in: 0...UInt64.max)),
                                                  outboxPath: c.outboxDir + "/" + id + ".outbox")
            pc.keepaliveSeconds = 60
            boards.append(try FleetPublisher(pc) { e in
                if case .connected = e { return }
                problems += 1
                if problems <= 10 { log("bench: \(id): \(e)") }
            })
            index[id] = i
        }
        log("bench: \(c.boards) boards connecting")
        let connectBy = MonotonicClock.nanoseconds() + Int64(c.connectSeconds) * second
        while MonotonicClock.nanoseconds() < connectBy {
            var up = 0
            for b in boards {
                b.wake(now: MonotonicClock.nanoseconds())
                if b.machine.connection == .up { up += 1 }
            }
            result.connected = up
            if up == c.boards { break }
            MonotonicClock.sleep(until: MonotonicClock.nanoseconds() + 100_000_000)
        }
        log("bench: \(result.connected) of \(c.boards) boards connected; sending \(c.seconds) s")

        // One batch a second per board, spread over the second.
        var sentAt = [[Int64]](repeating: [Int64](repeating: 0, count: c.seconds), count: c.boards)
        let t0 = MonotonicClock.nanoseconds() + 200_000_000
        let step = second / Int64(max(c.boards, 1))
        for k in 0..<c.seconds {
            for i in 0..<c.boards {
                let due = t0 + Int64(k) * second + Int64(i) * step
                var now = MonotonicClock.nanoseconds()
                if now < due {
                    MonotonicClock.sleep(until: due)
                    now = MonotonicClock.nanoseconds()
                } else if now - due > second {
                    result.lateWakeups += 1
                }
                let b = boards[i]
                b.send(batch(board: b.configuration.board, session: b.configuration.session, sequence: k + 1))
                sentAt[i][k] = now
                b.wake(now: now)
            }
        }
        result.sent = expected
        result.sendingSeconds = Double(MonotonicClock.nanoseconds() - t0) / 1e9
        // Drain: the boards keep waking once a second (they read the acknowledgements there).
        let drainBy = MonotonicClock.nanoseconds() + Int64(c.drainSeconds) * second
        while MonotonicClock.nanoseconds() < drainBy {
            var left = 0
            for b in boards {
                b.wake(now: MonotonicClock.nanoseconds())
                left += b.machine.backlog
            }
            result.outboxLeft = left
            if left == 0 { break }
            MonotonicClock.sleep(until: MonotonicClock.nanoseconds() + second)
        }
        collector.requestStop()
        collector.done.wait()
        // A last wake-up reads the final acknowledgements.
        for b in boards { b.wake(now: MonotonicClock.nanoseconds()) }
        result.outboxLeft = boards.reduce(0) { $0 + $1.machine.backlog }
        boards.removeAll()

        let k = collector.collector.counters
        result.received = k.received
        result.duplicates = k.duplicates
        result.acksPublished = collector.collector.acksPublished
        var lags: [Int64] = []
        var seen = Set<Int>()
        for e in collector.collector.syncLog {
            guard let i = index[e.board], e.sequence >= 1, e.sequence <= c.seconds else { continue }
            guard seen.insert(i * c.seconds + e.sequence - 1).inserted else { continue }
            lags.append(e.syncedAt - sentAt[i][e.sequence - 1])
        }
        result.written = seen.count
        result.lost = expected - seen.count
        lags.sort()
        result.lagP50Seconds = Double(quantile(lags, 0.5)) / 1e9
        result.lagP99Seconds = Double(quantile(lags, 0.99)) / 1e9
        result.lagMaxSeconds = Double(lags.last ?? 0) / 1e9
        result.collectorCPUSeconds = Double(collector.cpuNanoseconds) / 1e9
        result.collectorCPUPerMessageMicroseconds = k.received > 0 ? Double(collector.cpuNanoseconds) / 1e3 / Double(k.received) : 0
        result.wallSeconds = Double(MonotonicClock.nanoseconds() - started) / 1e9
        result.loadAfter = loadAverage()
        return result
    }
}
