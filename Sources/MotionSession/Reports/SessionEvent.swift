import MotionCore
import MotionIIO

/// Something a session tells its operator: one line in the service's log (``message`` at
/// ``priority``) and one NDJSON object (``json(session:sequence:)``, `"type": "event"`).
public enum SessionEvent: Sendable, Equatable {
    /// The session started capturing `devices` into `output` (a file or directory, nil for none).
    case started(devices: [DeviceIdentity], output: String?)
    /// A recording was created.
    case recordingOpened(name: String, sequence: Int)
    /// A recording was closed (and its summary written, unless `summaryWritten` is false).
    case recordingClosed(name: String, end: SessionSummary.End, samples: Int, summaryWritten: Bool)
    /// SIGUSR1: the buffers are disabled, the sensor idle.
    case paused(at: Int64)
    /// SIGUSR2: capturing again after `pausedNanoseconds`.
    case resumed(at: Int64, pausedNanoseconds: Int64)
    /// The device went away (`state`); `reconnecting`: the session waits for it.
    case deviceLost(at: Int64, state: AccessState, reconnecting: Bool)
    /// The device is back after `gapNanoseconds`.
    case reconnected(at: Int64, gapNanoseconds: Int64)
    /// A recording was deleted (`--keep`, `--max-disk`, or to make room on a full disk).
    case deleted(name: String, reason: DeletionReason)
    /// Writing failed for lack of space; `deleting`: the oldest recording goes to make room.
    case diskFull(path: String, detail: String, deleting: Bool)
    /// An interrupted recording was finalized (`recover`, or a start into its directory):
    /// `cutBytes` of a torn final line removed.
    case recovered(name: String, cutBytes: Int, samples: Int)
    /// Something went wrong that does not stop the capture (the analysis rejected a batch, a
    /// checkpoint could not be written, ...).
    case warning(String)
    /// The session ended.
    case stopped(end: SessionSummary.End, samples: Int)

    /// Why a recording was deleted.
    public enum DeletionReason: String, Sendable, Equatable {
        /// More than `--keep` recordings.
        case keep
        /// Over `--max-disk`.
        case maxDisk = "max-disk"
        /// The disk was full.
        case diskFull = "disk-full"
    }

    /// A syslog priority (the `<N>` prefix systemd's journal reads).
    public enum Priority: Int, Sendable, Comparable {
        /// Errors.
        case error = 3
        /// Warnings.
        case warning = 4
        /// Normal but significant (start, stop, device lost or back).
        case notice = 5
        /// Informational (recordings opened and closed).
        case info = 6

        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue > b.rawValue }
    }

    /// How important it is.
    public var priority: Priority {
        switch self {
        case .started, .stopped(.signal, _), .stopped(.duration, _), .stopped(.samples, _), .paused, .resumed, .reconnected: .notice
        case .recordingOpened, .recordingClosed, .recovered: .info
        case .deleted(_, .keep), .deleted(_, .maxDisk): .info
        case .deviceLost(_, _, true), .deleted, .warning: .warning
        case .deviceLost, .diskFull, .stopped: .error
        }
    }

    /// The event's name in JSON (`paused`, `device-lost`, ...).
    public var name: String {
        switch self {
        case .started: "started"
        case .recordingOpened: "recording-opened"
        case .recordingClosed: "recording-closed"
        case .paused: "paused"
        case .resumed: "resumed"
        case .deviceLost: "device-lost"
        case .reconnected: "reconnected"
        case .deleted: "deleted"
        case .diskFull: "disk-full"
        case .recovered: "recovered"
        case .warning: "warning"
        case .stopped: "stopped"
        }
    }

    /// One line of plain text (no terminal escapes, no line breaks; outside text escaped).
    public var message: String { Self.oneLine(text) }

    private var text: String {
        func s(_ ns: Int64) -> String { Self.seconds(ns) }
        switch self {
        case let .started(devices, output):
            return "capturing \(devices.map { DiagnosticEscape.text($0.description) }.joined(separator: " + "))"
                + (output.map { " into \(DiagnosticEscape.text($0))" } ?? " (no recording)")
        case let .recordingOpened(name, sequence): return "recording \(DiagnosticEscape.text(name)) opened (\(sequence) of the session)"
        case let .recordingClosed(name, end, samples, written):
            return "recording \(DiagnosticEscape.text(name)) closed (\(end.rawValue), \(samples) samples)" + (written ? "" : "; its summary could not be written: run `motionbatch recover` on it")
        case .paused: return "paused: buffers disabled, the sensor is idle (SIGUSR2 resumes)"
        case let .resumed(_, p): return "resumed after a pause of \(s(p)) s"
        case let .deviceLost(_, state, reconnecting):
            return "\(state.message) " + (reconnecting ? "Waiting for it to come back (device events)." : state.remedy)
        case let .reconnected(_, gap): return "the device is back after \(s(gap)) s; capturing into a new recording"
        case let .deleted(name, reason):
            let why = switch reason { case .keep: "--keep"; case .maxDisk: "--max-disk"; case .diskFull: "the disk is full" }
            return "deleted the oldest recording \(DiagnosticEscape.text(name)) (\(why))"
        case let .diskFull(path, detail, deleting):
            return "no space left writing \(DiagnosticEscape.text(path)) (\(Self.oneLine(detail)))" + (deleting ? "; deleting the oldest recording" : "; stopping (what was written is saved; free space or use --max-disk)")
        case let .recovered(name, cut, samples):
            return "recovered the interrupted recording \(DiagnosticEscape.text(name)): \(samples) samples" + (cut > 0 ? ", a torn final line of \(cut) bytes cut" : "")
        case .warning(let text): return Self.oneLine(text)
        case let .stopped(end, samples): return "stopped (\(end.rawValue)) after \(samples) samples"
        }
    }

    /// The NDJSON object: `schema` (``BatchReport/schemaVersion``), `type`, `session`, `seq`,
    /// `event`, `priority`, `message`, and details.
    public func json(session: String, sequence: Int) -> JSONValue {
        var details: [(String, JSONValue)] = []
        switch self {
        case let .started(devices, output):
            details = [("devices", .array(devices.map { d in .object([("name", .string(d.name)), ("parent", d.parent.map { .string($0) } ?? .null),
                                                                      ("label", d.label.map { .string($0) } ?? .null), ("id", d.id.map { .string($0) } ?? .null)]) })),
                       ("output", output.map { .string($0) } ?? .null)]
        case let .recordingOpened(name, sequence): details = [("recording", .string(name)), ("sequence", .number(sequence))]
        case let .recordingClosed(name, end, samples, written):
            details = [("recording", .string(name)), ("end", .string(end.rawValue)), ("samples", .number(samples)), ("summary_written", .bool(written))]
        case .paused(let at): details = [("at_s", .number(Double(at) / 1e9))]
        case let .resumed(at, p): details = [("at_s", .number(Double(at) / 1e9)), ("paused_s", .number(Double(p) / 1e9))]
        case let .deviceLost(at, state, r): details = [("at_s", .number(Double(at) / 1e9)), ("state", .string(state.name)), ("reconnecting", .bool(r))]
        case let .reconnected(at, gap): details = [("at_s", .number(Double(at) / 1e9)), ("gap_s", .number(Double(gap) / 1e9))]
        case let .deleted(name, reason): details = [("recording", .string(name)), ("reason", .string(reason.rawValue))]
        case let .diskFull(path, detail, deleting): details = [("path", .string(path)), ("detail", .string(detail)), ("deleting", .bool(deleting))]
        case let .recovered(name, cut, samples): details = [("recording", .string(name)), ("cut_bytes", .number(cut)), ("samples", .number(samples))]
        case .warning: details = []
        case let .stopped(end, samples): details = [("end", .string(end.rawValue)), ("samples", .number(samples))]
        }
        return .object([("schema", .number(BatchReport.schemaVersion)), ("type", .string("event")), ("session", .string(session)), ("seq", .number(sequence)), ("event", .string(name)),
                        ("priority", .number(priority.rawValue)), ("message", .string(message))] + details)
    }

    /// `text` on one line: control characters escaped, line breaks as `\n`.
    static func oneLine(_ text: String) -> String {
        DiagnosticText.sanitized(text).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
    }

    /// `ns` as seconds with up to three decimals.
    static func seconds(_ ns: Int64) -> String {
        let ms = (Double(ns) / 1e6).rounded()
        return (ms / 1000).compactText
    }
}
