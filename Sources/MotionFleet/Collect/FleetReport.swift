import Foundation
import MotionCore
import MotionSession
import MotionSystem

/// The fleet report (`collect report DIR`): per board, from what `collect` wrote, the steps,
/// the time per activity, the wake-ups per hour, the lost samples, the battery estimate, the
/// state and when it was last seen. Per session the figures are the board's own summary when
/// it arrived, else its last batch report; a board's steps, lost samples and activity time are
/// summed over its sessions, its rates and battery estimate are those of its latest session.
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
        /// Sequence numbers missing (not received or dropped by the board's outbox limit).
        public var missing = 0
        /// Steps (nil when no session counted steps).
        public var steps: Int?
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

        public static func == (a: Board, b: Board) -> Bool {
            a.board == b.board && a.sessions == b.sessions && a.messages == b.messages && a.steps == b.steps && a.lostSamples == b.lostSamples
                && a.activitySeconds.map(\.0) == b.activitySeconds.map(\.0) && a.activitySeconds.map(\.1) == b.activitySeconds.map(\.1)
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
            var row = board(b.name, sessions: sessions.sorted { ($0.modified, $0.name) < ($1.modified, $1.name) }.map { ($0.name, $0.lines) })
            if case .string(let state)? = status?["status"]?["state"]?.value { row.state = state }
            if let ns = integer(status?["received_ns"]) { lastModified = max(lastModified, Int64(ns)) }
            if lastModified > 0 { row.lastSeenUTC = UTCTime.iso8601(lastModified) }
            report.boards.append(row)
        }
        return report
    }

    /// A board's row from its sessions, oldest first (pure). Every sum saturates (the figures
    /// were range-checked when they entered; many sessions still cannot overflow).
    public static func board(_ id: String, sessions: [(name: String, lines: FleetNDJSON)]) -> Board {
        var row = Board(board: id)
        var activity: [(String, Double)] = []
        func add(_ a: Int, _ b: Int) -> Int { let (s, o) = a.addingReportingOverflow(b); return o ? .max : s }
        for (_, file) in sessions {
            row.sessions += 1
            row.messages = add(row.messages, file.messages.count)
            let seqs = Set(file.messages.map(\.sequence))
            if let top = seqs.max() { row.missing = add(row.missing, top - seqs.count) }
            let summary = file.messages.last { $0.type == "summary" }?.node
            let batch = file.messages.last { $0.type == "batch" }?.node
            if summary != nil { row.finishedSessions += 1 }
            let source = summary ?? batch
            if let s = integer(source?["steps"]) { row.steps = add(row.steps ?? 0, s) }
            row.lostSamples = add(row.lostSamples, integer(source?["lost_samples"]) ?? 0)
            row.samples = add(row.samples, integer(summary?["samples"]) ?? integer(batch?["total_samples"]) ?? 0)
            if case .object(let t)? = summary?["activity_time_s"]?.value {
                for (k, v) in t {
                    guard let d = number(v) else { continue }
                    if let i = activity.firstIndex(where: { $0.0 == k }) { activity[i].1 += d } else { activity.append((k, d)) }
                }
            }
            if let w = source?["wakeups_per_hour"], case .object = w.value {
                row.schedulerWakeupsPerHour = number(w["scheduler"])
                row.deviceWakeupsPerHour = number(w["device"])
            }
            if let b = summary?["battery"] { row.batteryLifeHours = number(b["battery_life_h"]) }
        }
        let order = ["still", "walking", "running", "cycling", "vehicle", "unknown"]
        row.activitySeconds = activity.sorted { (order.firstIndex(of: $0.0) ?? 99, $0.0) < (order.firstIndex(of: $1.0) ?? 99, $1.0) }
        return row
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
