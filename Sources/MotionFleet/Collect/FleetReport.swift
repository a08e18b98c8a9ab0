import Foundation
import MotionCore
import MotionSession
import MotionSystem

/// The fleet report (`collect report DIR`): per board, from what `collect` wrote, the steps,
/// the time per activity, the wake-ups per hour, the lost samples, the battery estimate, the
/// messages missing (per session: gaps and the tail after the last one received, against the
/// board's own `last_seq`), what its outbox dropped, the state and when it was last seen.
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
        /// Sequence numbers missing (not received or dropped by the board's outbox limit): the
        /// sum of ``missingBySession``.
        public var missing = 0
        /// Per session with something missing: the gaps and the tail.
        public var missingBySession: [Missing] = []
        /// Messages the board's outbox limit dropped (its latest status or summary).
        public var outboxDropped = 0
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
        /// When the board was last heard of (the newest of its files, UTC, ISO 8601).
        public var lastSeenUTC: String?

        /// Sessions whose summary has not arrived.
        public var unfinishedSessions: Int { sessions - finishedSessions }

        public static func == (a: Board, b: Board) -> Bool {
            a.board == b.board && a.sessions == b.sessions && a.messages == b.messages && a.steps == b.steps && a.lostSamples == b.lostSamples
                && a.activitySeconds.map { $0.0 } == b.activitySeconds.map { $0.0 } && a.activitySeconds.map { $0.1 } == b.activitySeconds.map { $0.1 }
        }
    }

    /// What is missing of one session.
    public struct Missing: Sendable, Equatable {
        /// The session id.
        public var session: String
        /// Ranges of sequence numbers not received below the highest received (at most 20 listed).
        public var gaps: [ClosedRange<Int>]
        /// Messages in the gaps (all of them, also beyond the 20 listed).
        public var inGaps: Int
        /// Messages after the last received, up to the board's own `last_seq` (summary or status).
        public var tail: Int
        /// All missing.
        public var total: Int { inGaps.addingReportingOverflow(tail).overflow ? .max : inGaps + tail }
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
            var status: JSONNode?
            let files: [Directory.Entry]
            do { files = try Directory.entries(of: bdir) } catch { throw .io("cannot list \(bdir): \(error)") }
            for f in files.sorted(by: { $0.name < $1.name }) where f.isRegularFile {
                let path = bdir + "/" + f.name
                if f.name == "status.json" {
                    let bytes = (try? FileDescriptor.openForReading(path).readToEnd()) ?? []
                    status = try? JSONReader.parse(bytes)
                    if integer(status?["received_ns"]) == nil { lastModified = max(lastModified, f.modified) }
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
            var statusLast: (session: String, sequence: Int)?
            if case .string(let s)? = status?["status"]?["session"]?.value, let n = integer(status?["status"]?["last_seq"]) { statusLast = (s, n) }
            var row = board(b.name, sessions: sessions.sorted { ($0.modified, $0.name) < ($1.modified, $1.name) }.map { ($0.name, $0.lines) }, statusLast: statusLast)
            if let d = integer(status?["status"]?["outbox_dropped"]) { row.outboxDropped = max(row.outboxDropped, d) }
            // A session known only from the status: everything it sent is missing.
            if let sl = statusLast, sl.sequence > 0, !sessions.contains(where: { $0.name == sl.session }) {
                row.missingBySession.append(Missing(session: sl.session, gaps: [], inGaps: 0, tail: sl.sequence))
                row.missing = row.missing.addingReportingOverflow(sl.sequence).overflow ? .max : row.missing + sl.sequence
            }
            row.knownOnlyFromStatus = sessions.isEmpty && status != nil
            if case .string(let state)? = status?["status"]?["state"]?.value { row.state = state }
            if let ns = integer(status?["received_ns"]) { lastModified = max(lastModified, Int64(ns)) }
            if lastModified > 0 { row.lastSeenUTC = UTCTime.iso8601(lastModified) }
            report.boards.append(row)
        }
        return report
    }

    /// A board's row from its sessions, oldest first (pure). Every sum saturates (the figures
    /// were range-checked when they entered; many sessions still cannot overflow).
    /// - Parameter statusLast: the session and `last_seq` of the board's latest status.
    public static func board(_ id: String, sessions: [(name: String, lines: FleetNDJSON)], statusLast: (session: String, sequence: Int)? = nil) -> Board {
        var row = Board(board: id)
        var activity: [(String, Double)] = []
        func add(_ a: Int, _ b: Int) -> Int { let (s, o) = a.addingReportingOverflow(b); return o ? .max : s }
        for (name, file) in sessions {
            row.sessions += 1
            row.messages = add(row.messages, file.messages.count)
            let summary = file.messages.last { $0.type == "summary" }?.node
            let batch = file.messages.last { $0.type == "batch" }?.node
            var last = summary.flatMap { s in integer(s["seq"]).map { max($0, integer(s["last_seq"]) ?? 0) } } ?? 0
            if let sl = statusLast, sl.session == name { last = max(last, sl.sequence) }
            if let m = missing(session: name, Set(file.messages.map(\.sequence)), last: last) {
                row.missingBySession.append(m)
                row.missing = add(row.missing, m.total)
            }
            if let d = integer(summary?["outbox_dropped"]) { row.outboxDropped = max(row.outboxDropped, d) }
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

    /// What is missing of a session that holds `seqs` and whose board's own last sequence number
    /// is `last` (0: unknown); nil when nothing is.
    static func missing(session: String, _ seqs: Set<Int>, last: Int) -> Missing? {
        let sorted = seqs.sorted()
        var gaps: [ClosedRange<Int>] = []
        var inGaps = 0
        var expected = 1
        for s in sorted {
            if s > expected {
                if gaps.count < 20 { gaps.append(expected...(s - 1)) }
                inGaps += s - expected
            }
            expected = s + 1
        }
        let tail = max(0, last - (sorted.last ?? 0))
        guard inGaps + tail > 0 else { return nil }
        return Missing(session: session, gaps: gaps, inGaps: inGaps, tail: tail)
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
