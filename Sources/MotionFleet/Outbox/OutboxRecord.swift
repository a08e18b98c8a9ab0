import MotionCore
/// One line of the outbox journal (docs/fleet.md, "The outbox"): the file starts with
/// `# motionbatch-outbox 1` and is only ever appended to, one record per line:
/// - `+ ID KIND TOPIC PAYLOAD`: a message (fsynced before it is sent);
/// - `- ID`: acknowledged: by a collector (`--ack collector`) or by the broker (`--ack broker`); gone;
/// - `b ID`: the broker acknowledged it (`--ack collector`): kept until a collector does, not
///   sent again while no collector is online;
/// - `x ID`: dropped to keep the outbox within `--outbox-max` (counted);
/// - `r ID`: the broker refused it (not authorized); it is not sent again.
public enum OutboxRecord: Sendable, Equatable {
    /// A message.
    case message(OutboxEntry)
    /// Acknowledged (gone).
    case acknowledged(Int64)
    /// Taken by the broker, kept until a collector acknowledges it.
    case atBroker(Int64)
    /// Dropped (the outbox was full).
    case dropped(Int64)
    /// Refused by the broker.
    case refused(Int64)

    /// The first line of every outbox.
    public static let header = "# motionbatch-outbox 1"

    /// The line, with its newline.
    public var line: String {
        switch self {
        case .message(let e): "+ \(e.id) \(e.kind.rawValue) \(e.topic) \(e.payload)\n"
        case .acknowledged(let id): "- \(id)\n"
        case .atBroker(let id): "b \(id)\n"
        case .dropped(let id): "x \(id)\n"
        case .refused(let id): "r \(id)\n"
        }
    }

    /// Parses one line (without its newline).
    /// - Throws: ``FleetError/malformed(file:line:column:problem:)`` naming the column.
    public static func parse(_ line: Substring, file: String, lineNumber: Int) throws(FleetError) -> OutboxRecord {
        func bad(_ column: Int, _ problem: String) -> FleetError {
            .malformed(file: file, line: lineNumber, column: column, problem: problem)
        }
        let fields = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
        guard let tag = fields.first, tag.count == 1 else { return try failTag(line, bad) }
        guard fields.count >= 2, let id = Int64(fields[1]), id > 0 else {
            throw bad(3, "expected a positive message id after '\(tag)', found \(DiagnosticText.quoted(String(fields.count >= 2 ? fields[1] : "")))")
        }
        switch tag {
        case "-", "x", "r", "b":
            guard fields.count == 2 else { throw bad(3 + fields[1].count, "unexpected text after the id") }
            return tag == "-" ? .acknowledged(id) : tag == "x" ? .dropped(id) : tag == "b" ? .atBroker(id) : .refused(id)
        case "+":
            guard fields.count == 5 else { throw bad(line.count + 1, "a message line needs ID KIND TOPIC PAYLOAD") }
            let kindColumn = 4 + fields[1].count
            guard let kind = FleetMessage.Kind(rawValue: String(fields[2])), kind != .status else {
                throw bad(kindColumn, "unknown message kind \(DiagnosticText.quoted(String(fields[2])))")
            }
            let payload = fields[4]
            guard payload.first == "{", payload.last == "}" else {
                throw bad(kindColumn + fields[2].count + fields[3].count + 2, "the payload is not a JSON object")
            }
            return .message(OutboxEntry(id: id, kind: kind, topic: String(fields[3]), payload: String(payload)))
        default:
            return try failTag(line, bad)
        }
    }

    private static func failTag(_ line: Substring, _ bad: (Int, String) -> FleetError) throws(FleetError) -> OutboxRecord {
        throw bad(1, "expected a record ('+', '-', 'b', 'x' or 'r' and a space), found \(DiagnosticText.quoted(String(line.prefix(20))))")
    }
}
