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

    /// Reads the collector's directory.
    /// - Throws: ``FleetError`` for an unreadable or malformed file.
    public static func read(_ dir: String) throws(FleetError) -> FleetReport {
        var report = FleetReport()
        let entries: [Directory.Entry]
        do { entries = try Directory.entries(of: dir) } catch { throw .io("cannot list \(dir): \(error)") }
        for b in entries where !b.isRegularFile && FleetTopics.isValidBoardID(b.name) {
            let bdir = dir + "/" + b.name
            var sessions: [(name: String, modified: Int64, lines: FleetNDJSON)] = []
            var lastModified: Int64 = 0
            var status: [String: Any]?
            let files: [Directory.Entry]
            do { files = try Directory.entries(of: bdir) } catch { throw .io("cannot list \(bdir): \(error)") }
            for f in files where f.isRegularFile {
                let path = bdir + "/" + f.name
                if f.name.hasSuffix(".ndjson") {
                    let bytes: [UInt8]
                    do { bytes = try FileDescriptor.openForReading(path).readToEnd() } catch { throw .io("cannot read \(path): \(error)") }
                    sessions.append((String(f.name.dropLast(7)), f.modified, try FleetNDJSON.parse(bytes, file: path)))
                    continue
                }
                lastModified = max(lastModified, f.modified)
                if f.name == "status.json" {
                    let bytes = (try? FileDescriptor.openForReading(path).readToEnd()) ?? []
                    status = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
                }
            }
            var row = board(b.name, sessions: sessions.sorted { $0.modified < $1.modified }.map { ($0.name, $0.lines) })
            row.state = (status?["status"] as? [String: Any])?["state"] as? String
            if lastModified > 0 { row.lastSeenUTC = UTCTime.iso8601(lastModified) }
            report.boards.append(row)
        }
        return report
    }

    /// A board's row from its sessions, oldest first (pure).
    public static func board(_ id: String, sessions: [(name: String, lines: FleetNDJSON)]) -> Board {
        var row = Board(board: id)
        var activity: [(String, Double)] = []
        for (_, file) in sessions {
            row.sessions += 1
            row.messages += file.messages.count
            let seqs = Set(file.messages.map(\.sequence))
            if let top = seqs.max() { row.missing += top - seqs.count }
            let summary = file.messages.last { $0.type == "summary" }?.object
            let batch = file.messages.last { $0.type == "batch" }?.object
            if summary != nil { row.finishedSessions += 1 }
            let source = summary ?? batch
            if let s = source?["steps"] as? Int { row.steps = (row.steps ?? 0) + s }
            row.lostSamples += (source?["lost_samples"] as? Int) ?? 0
            row.samples += (summary?["samples"] as? Int) ?? (batch?["total_samples"] as? Int) ?? 0
            if let t = summary?["activity_time_s"] as? [String: Any] {
                for (k, v) in t {
                    guard let d = (v as? NSNumber)?.doubleValue else { continue }
                    if let i = activity.firstIndex(where: { $0.0 == k }) { activity[i].1 += d } else { activity.append((k, d)) }
                }
            }
            if let w = source?["wakeups_per_hour"] as? [String: Any] {
                row.schedulerWakeupsPerHour = (w["scheduler"] as? NSNumber)?.doubleValue
                row.deviceWakeupsPerHour = (w["device"] as? NSNumber)?.doubleValue
            }
            if let b = summary?["battery"] as? [String: Any] { row.batteryLifeHours = (b["battery_life_h"] as? NSNumber)?.doubleValue }
        }
        let order = ["still", "walking", "running", "cycling", "vehicle", "unknown"]
        row.activitySeconds = activity.sorted { (order.firstIndex(of: $0.0) ?? 99, $0.0) < (order.firstIndex(of: $1.0) ?? 99, $1.0) }
        return row
    }
}
