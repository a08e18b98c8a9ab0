import Foundation
import MotionCore
import MotionSession
import MotionSystem

/// The fleet report (`collect report DIR`): per board, from what `collect` wrote, the steps,
/// the time per activity, the wake-ups per hour, the lost samples, the battery estimate, the
/// messages missing (per session: gaps and the tail after the last one received, against the
/// board's own `last_seq`), the messages its outbox limit dropped (declared by the board:
/// ``FleetDrops``; reported apart, not as missing), the state and when it was last seen.
/// Finished sessions (their summary arrived) give the steps, samples, lost samples and activity
/// time; unfinished ones are counted apart (their last batch's steps in ``Board/unfinishedSteps``).
/// Rates are the latest session's wake-up counts per hour of its recording's own clock (sample
/// time, not the wall time a fast replay took).
public struct FleetReport {
    /// One board.
    public struct Board: Sendable, Equatable {
        /// The board id.
        public var board: String
        /// Sessions collected.
        public var sessions = 0
        /// Sessions whose summary arrived.
        public var finishedSessions = 0
        /// Messages collected.
        public var messages = 0
        /// Sequence numbers missing (not received, and not declared dropped by the board): the
        /// sum of the ``missingBySession`` totals.
        public var missing = 0
        /// Batch and event sequence numbers the board declared dropped (its `--outbox-max`) and
        /// the collector does not have.
        public var droppedMessages = 0
        /// Per session with something missing or dropped: the gaps, the tail and the drops.
        public var missingBySession: [Missing] = []
        /// Messages (all kinds) the board's outbox limit dropped before the broker took them,
        /// summed over the sessions (per session the board's latest count: its declaration,
        /// summary or status).
        public var outboxDropped = 0
        /// Messages the board's outbox limit dropped after the broker had taken them (they may
        /// have arrived), summed over the sessions.
        public var outboxDroppedTaken = 0
        /// Nothing but its status arrived.
        public var knownOnlyFromStatus = false
        /// Steps of the finished sessions (nil when none counted steps).
        public var steps: Int?
        /// Steps so far of the unfinished sessions (their last batch; nil when none).
        public var unfinishedSteps: Int?
        /// Samples delivered.
        public var samples = 0
        /// Samples lost.
        public var lostSamples = 0
        /// Seconds per activity class (finished sessions), in the summaries' order.
        public var activitySeconds: [(String, Double)] = []
        /// Scheduler and device wake-ups per hour of the latest session.
        public var schedulerWakeupsPerHour: Double?
        /// Device wake-ups per hour of the latest session.
        public var deviceWakeupsPerHour: Double?
        /// Battery life estimate of the latest finished session, h.
        public var batteryLifeHours: Double?
        /// The latest status (`online`, `paused`, `lost`, `offline`).
        public var state: String?
        /// When the board was last heard of: the receive time of its newest message as the
        /// collector stored it (its `last_seen` file, the status's `received_ns`); only a directory
        /// without either (an older collector's) falls back to its files' modification times
        /// (UTC, ISO 8601).
        public var lastSeenUTC: String?

        /// Sessions whose summary has not arrived.
        public var unfinishedSessions: Int { sessions - finishedSessions }

        public static func == (a: Board, b: Board) -> Bool {
            a.board == b.board && a.sessions == b.sessions && a.messages == b.messages && a.steps == b.steps && a.lostSamples == b.lostSamples
                && a.activitySeconds.map { $0.0 } == b.activitySeconds.map { $0.0 } && a.activitySeconds.map { $0.1 } == b.activitySeconds.map { $0.1 }
        }
    }

    /// What is missing (and what was dropped) of one session.
    public struct Missing: Sendable, Equatable {
        /// The session id.
        public var session: String
        /// Ranges of sequence numbers not received below the highest received and not declared
        /// dropped (at most 20 listed).
        public var gaps: [ClosedRange<Int>]
        /// Messages in the gaps (all of them, also beyond the 20 listed).
        public var inGaps: Int
        /// Messages after the last received, up to the board's own `last_seq` (summary or status),
        /// not declared dropped.
        public var tail: Int
        /// Ranges of sequence numbers the board declared dropped and that were not received (at most 20 listed).
        public var dropped: [ClosedRange<Int>] = []
        /// Messages declared dropped and not received (all of them).
        public var inDropped = 0
        /// All missing (not the dropped ones).
        public var total: Int { inGaps.addingReportingOverflow(tail).overflow ? .max : inGaps + tail }

        /// Creates a value.
        public init(session: String, gaps: [ClosedRange<Int>], inGaps: Int, tail: Int, dropped: [ClosedRange<Int>] = [], inDropped: Int = 0) {
            self.session = session
            self.gaps = gaps
            self.inGaps = inGaps
            self.tail = tail
            self.dropped = dropped
            self.inDropped = inDropped
        }
    }

    /// What a board's statuses said of one session (the largest figures received).
    public struct SessionStatus: Sendable, Equatable {
        /// The board's last sequence number in the session.
        public var lastSequence: Int?
        /// Its `outbox_dropped`.
        public var dropped: Int?
        /// Its `outbox_dropped_taken`.
        public var droppedTaken: Int?
        /// Creates a value.
        public init(lastSequence: Int? = nil, dropped: Int? = nil, droppedTaken: Int? = nil) {
            self.lastSequence = lastSequence
            self.dropped = dropped
            self.droppedTaken = droppedTaken
        }
    }

    /// The boards, by id.
    public var boards: [Board] = []
    /// Lines of the collected files that are not fleet messages (skipped, with file and line).
    public var skippedLines: [FleetNDJSON.Skipped] = []

    /// Reads the collector's directory; a line that is not a fleet message is skipped and listed
    /// in ``skippedLines``.
    /// - Throws: ``FleetError`` for a directory or file that cannot be read.
    public static func read(_ dir: String) throws(FleetError) -> FleetReport {
        var report = FleetReport()
        let entries: [Directory.Entry]
        do { entries = try Directory.entries(of: dir) } catch { throw .io("cannot list \(dir): \(error)") }
        for b in entries.sorted(by: { $0.name < $1.name }) where !b.isRegularFile && FleetTopics.isValidBoardID(b.name) {
            let bdir = dir + "/" + b.name
            var sessions: [(name: String, modified: Int64, lines: FleetNDJSON)] = []
            var lastModified: Int64 = 0
            var stored: Int64?
            var status: JSONNode?
            let files: [Directory.Entry]
            do { files = try Directory.entries(of: bdir) } catch { throw .io("cannot list \(bdir): \(error)") }
            for f in files.sorted(by: { $0.name < $1.name }) where f.isRegularFile {
                let path = bdir + "/" + f.name
                if f.name == "status.json" {
                    let bytes = (try? FileDescriptor.openForReading(path).readToEnd()) ?? []
                    status = try? JSONReader.parse(bytes)
                    if let ns = integer(status?["received_ns"]) { stored = max(stored ?? 0, Int64(ns)) } else { lastModified = max(lastModified, f.modified) }
                    continue
                }
                if f.name == FleetCollector.lastSeenName {
                    let bytes = (try? FileDescriptor.openForReading(path).readToEnd()) ?? []
                    if let ns = Int64(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), ns > 0 {
                        stored = max(stored ?? 0, ns)
                    }
                    continue
                }
                lastModified = max(lastModified, f.modified)
                if f.name.hasSuffix(".ndjson") {
                    let bytes: [UInt8]
                    do { bytes = try FileDescriptor.openForReading(path).readToEnd() } catch { throw .io("cannot read \(path): \(error)") }
                    let lines = FleetNDJSON.parse(bytes, file: path, board: b.name)
                    report.skippedLines += lines.skipped
                    sessions.append((String(f.name.dropLast(7)), f.modified, lines))
                }
            }
            let statuses = sessionStatuses(status)
            var row = board(b.name, sessions: sessions.sorted { ($0.modified, $0.name) < ($1.modified, $1.name) }.map { ($0.name, $0.lines) }, statuses: statuses)
            // A session known only from the status: everything it sent is missing.
            for (name, st) in statuses.sorted(by: { $0.key < $1.key }) where !sessions.contains(where: { $0.name == name }) {
                row.outboxDropped = add(row.outboxDropped, st.dropped ?? 0)
                row.outboxDroppedTaken = add(row.outboxDroppedTaken, st.droppedTaken ?? 0)
                guard let n = st.lastSequence, n > 0 else { continue }
                row.missingBySession.append(Missing(session: name, gaps: [], inGaps: 0, tail: n))
                row.missing = add(row.missing, n)
            }
            row.knownOnlyFromStatus = sessions.isEmpty && status != nil
            if case .string(let state)? = status?["status"]?["state"]?.value { row.state = state }
            if let ns = stored ?? (lastModified > 0 ? lastModified : nil) { row.lastSeenUTC = UTCTime.iso8601(ns) }
            report.boards.append(row)
        }
        return report
    }

    /// The sessions a `status.json` knows (its `sessions`, the largest figures of each session's
    /// statuses, and its latest status).
    static func sessionStatuses(_ file: JSONNode?) -> [String: SessionStatus] {
        var out: [String: SessionStatus] = [:]
        func merge(_ n: JSONNode?) {
            guard case .string(let s)? = n?["session"]?.value else { return }
            var st = out[s] ?? SessionStatus()
            func larger(_ a: Int?, _ b: Int?) -> Int? { b.map { max(a ?? 0, $0) } ?? a }
            st.lastSequence = larger(st.lastSequence, integer(n?["last_seq"]))
            st.dropped = larger(st.dropped, integer(n?["outbox_dropped"]))
            st.droppedTaken = larger(st.droppedTaken, integer(n?["outbox_dropped_taken"]))
            out[s] = st
        }
        if case .array(let list)? = file?["sessions"]?.value { for n in list { merge(n) } }
        merge(file?["status"])
        return out
    }

    /// A board's row from its sessions, oldest first (pure). Every sum saturates (the figures
    /// were range-checked when they entered; many sessions still cannot overflow).
    /// - Parameter statuses: per session, what the board's statuses said (`last_seq`, drop counts).
    public static func board(_ id: String, sessions: [(name: String, lines: FleetNDJSON)], statuses: [String: SessionStatus] = [:]) -> Board {
        var row = Board(board: id)
        var activity: [(String, Double)] = []
        for (name, file) in sessions {
            row.sessions += 1
            row.messages = add(row.messages, file.messages.count)
            let summary = file.messages.last { $0.type == "summary" }?.node
            let batch = file.messages.last { $0.type == "batch" }?.node
            var declared: [ClosedRange<Int>] = []
            var dropped = [integer(summary?["outbox_dropped"]) ?? 0, statuses[name]?.dropped ?? 0].max()!
            var droppedTaken = [integer(summary?["outbox_dropped_taken"]) ?? 0, statuses[name]?.droppedTaken ?? 0].max()!
            for line in file.drops {
                guard case .success(let d) = FleetDrops.parse(line.node) else { continue }
                declared = DedupeLedger.union(declared, d.ranges)
                dropped = max(dropped, d.dropped)
                droppedTaken = max(droppedTaken, d.droppedTaken)
            }
            var last = summary.flatMap { s in integer(s["seq"]).map { max($0, integer(s["last_seq"]) ?? 0) } } ?? 0
            last = max(last, statuses[name]?.lastSequence ?? 0, declared.last?.upperBound ?? 0)
            if let m = missing(session: name, Set(file.messages.map(\.sequence)), last: last, declared: declared) {
                row.missingBySession.append(m)
                row.missing = add(row.missing, m.total)
                row.droppedMessages = add(row.droppedMessages, m.inDropped)
            }
            row.outboxDropped = add(row.outboxDropped, dropped)
            row.outboxDroppedTaken = add(row.outboxDroppedTaken, droppedTaken)
            if summary != nil { row.finishedSessions += 1 }
            let source = summary ?? batch
            if let s = integer(source?["steps"]) {
                if summary != nil { row.steps = add(row.steps ?? 0, s) } else { row.unfinishedSteps = add(row.unfinishedSteps ?? 0, s) }
            }
            row.lostSamples = add(row.lostSamples, integer(source?["lost_samples"]) ?? 0)
            row.samples = add(row.samples, integer(summary?["samples"]) ?? integer(batch?["total_samples"]) ?? 0)
            if case .object(let t)? = summary?["activity_time_s"]?.value {
                for (k, v) in t {
                    guard let d = number(v) else { continue }
                    if let i = activity.firstIndex(where: { $0.0 == k }) { activity[i].1 += d } else { activity.append((k, d)) }
                }
            }
            // Per hour of the recording's own clock: the session's sample span.
            let firstBatch = file.messages.first { $0.type == "batch" }?.node
            let span = number(summary?["duration_s"]) ?? (number(batch?["end_s"]).flatMap { e in number(firstBatch?["first_s"]).map { e - $0 } })
            if let w = source?["wakeups"], case .object = w.value, let span, span > 0 {
                row.schedulerWakeupsPerHour = number(w["scheduler"]).map { $0 * 3600 / span }
                row.deviceWakeupsPerHour = number(w["device"]).map { $0 * 3600 / span }
            } else if let w = source?["wakeups_per_hour"], case .object = w.value {
                // No counts or span: the board's own rates (per hour of its wall time).
                row.schedulerWakeupsPerHour = number(w["scheduler"])
                row.deviceWakeupsPerHour = number(w["device"])
            }
            if let b = summary?["battery"] { row.batteryLifeHours = number(b["battery_life_h"]) }
        }
        let order = ["still", "walking", "running", "cycling", "vehicle", "unknown"]
        row.activitySeconds = activity.sorted { (order.firstIndex(of: $0.0) ?? 99, $0.0) < (order.firstIndex(of: $1.0) ?? 99, $1.0) }
        return row
    }

    /// A saturating sum.
    static func add(_ a: Int, _ b: Int) -> Int { let (s, o) = a.addingReportingOverflow(b); return o ? .max : s }

    /// What is missing of a session that holds `seqs` and whose board's own last sequence number
    /// is `last` (0: unknown), the numbers in `declared` (ascending, disjoint: the board's drops)
    /// counted as dropped, not missing; nil when nothing is either.
    /// - Complexity: O(n log n + r) for n numbers held and r ranges declared.
    static func missing(session: String, _ seqs: Set<Int>, last: Int, declared: [ClosedRange<Int>] = []) -> Missing? {
        var m = Missing(session: session, gaps: [], inGaps: 0, tail: 0)
        var cursor = 0  // declared ranges before it end below every range still to account
        // `r` (not received; after the last received when `tail`): its declared part is dropped, the rest missing.
        func account(_ r: ClosedRange<Int>, tail: Bool) {
            while cursor < declared.count, declared[cursor].upperBound < r.lowerBound { cursor += 1 }
            var from = r.lowerBound
            var j = cursor
            func lacking(_ piece: ClosedRange<Int>) {
                if tail { m.tail = add(m.tail, piece.count); return }
                if m.gaps.count < 20 { m.gaps.append(piece) }
                m.inGaps = add(m.inGaps, piece.count)
            }
            while j < declared.count, declared[j].lowerBound <= r.upperBound {
                let d = max(declared[j].lowerBound, r.lowerBound)...min(declared[j].upperBound, r.upperBound)
                if d.lowerBound > from { lacking(from...(d.lowerBound - 1)) }
                if m.dropped.count < 20 { m.dropped.append(d) }
                m.inDropped = add(m.inDropped, d.count)
                from = d.upperBound + 1
                j += 1
            }
            if from <= r.upperBound { lacking(from...r.upperBound) }
        }
        var expected = 1
        for s in seqs.sorted() {
            if s > expected { account(expected...(s - 1), tail: false) }
            expected = s + 1
        }
        if last >= expected { account(expected...last, tail: true) }
        guard m.total > 0 || m.inDropped > 0 else { return nil }
        return m
    }

    /// A finite number (not a boolean), nil otherwise.
    static func number(_ n: JSONNode?) -> Double? {
        guard case .number(let v)? = n?.value, v.isFinite else { return nil }
        return v
    }

    /// An integer within Int's range (not a boolean, not a fraction), nil otherwise.
    static func integer(_ n: JSONNode?) -> Int? {
        guard let v = number(n), v.rounded() == v, abs(v) < 9.2e18 else { return nil }
        return Int(v)
    }
}
