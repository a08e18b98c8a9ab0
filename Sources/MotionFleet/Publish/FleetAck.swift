import MotionCore

/// A collector's end-to-end acknowledgement of one board (docs/fleet.md, "End-to-end
/// acknowledgement"): retained on `PREFIX/_ack/<board>/<collector>` (``FleetTopics/ack(prefix:board:collector:)``),
/// published after the collector's `fsync`, per session the highest sequence number up to which
/// every batch, event and summary message is durably written (`seq`) and the highest `samples`
/// message written (`samples_seq`). A board removes an outbox entry only when some collector's
/// acknowledgement covers it. The payload:
/// `{"schema":1,"type":"ack","board":B,"collector":C,"sessions":[{"session":S,"seq":N,"samples_seq":M}]}`.
/// Pure.
public struct FleetAck: Sendable, Equatable {
    /// One session's acknowledged positions.
    public struct Session: Sendable, Equatable {
        /// The session id.
        public var session: String
        /// Every message with a sequence number up to this is written.
        public var sequence: Int
        /// The highest `samples` message written.
        public var samplesSequence: Int
        /// Creates a value.
        public init(session: String, sequence: Int, samplesSequence: Int) {
            self.session = session
            self.sequence = sequence
            self.samplesSequence = samplesSequence
        }
    }

    /// The most sessions one acknowledgement names (the board's most recently written ones).
    public static let maxSessions = 16

    /// The board.
    public var board: String
    /// The collector's client id.
    public var collector: String
    /// The sessions.
    public var sessions: [Session]

    /// Creates a value.
    public init(board: String, collector: String, sessions: [Session]) {
        self.board = board
        self.collector = collector
        self.sessions = sessions
    }

    /// The payload (one line of JSON).
    public var payload: String {
        JSONValue.object([
            ("schema", .number(FleetMessage.schemaVersion)), ("type", .string("ack")), ("board", .string(board)), ("collector", .string(collector)),
            ("sessions", .array(sessions.map { .object([("session", .string($0.session)), ("seq", .number($0.sequence)), ("samples_seq", .number($0.samplesSequence))]) })),
        ]).serialized()
    }

    /// Reads an acknowledgement (strictly; anything else is nil).
    public static func parse(_ bytes: [UInt8]) -> FleetAck? {
        guard bytes.count <= 64 * 1024, let node = try? JSONReader.parse(bytes),
              case .number(let schema)? = node["schema"]?.value, schema == Double(FleetMessage.schemaVersion),
              case .string("ack")? = node["type"]?.value,
              case .string(let board)? = node["board"]?.value, case .string(let collector)? = node["collector"]?.value,
              case .array(let list)? = node["sessions"]?.value, list.count <= maxSessions else { return nil }
        var sessions: [Session] = []
        for s in list {
            guard case .string(let id)? = s["session"]?.value, let seq = count(s["seq"]), let samples = count(s["samples_seq"]) else { return nil }
            sessions.append(Session(session: id, sequence: seq, samplesSequence: samples))
        }
        return FleetAck(board: board, collector: collector, sessions: sessions)
    }

    static func count(_ n: JSONNode?) -> Int? {
        guard case .number(let v)? = n?.value, v >= 0, v <= Double(FleetMessageSchema.maxSequence), v.rounded() == v else { return nil }
        return Int(v)
    }

    /// A collector's presence payload: `{"schema":1,"type":"collector","collector":C,"state":"online"|"offline"}`.
    public static func presence(collector: String, online: Bool) -> String {
        JSONValue.object([("schema", .number(FleetMessage.schemaVersion)), ("type", .string("collector")), ("collector", .string(collector)),
                          ("state", .string(online ? "online" : "offline"))]).serialized()
    }

    /// Whether a presence payload says `online` (nil when it is not a presence).
    public static func presenceOnline(_ bytes: [UInt8]) -> Bool? {
        guard bytes.count <= 4096, let node = try? JSONReader.parse(bytes), case .string("collector")? = node["type"]?.value,
              case .string(let state)? = node["state"]?.value else { return nil }
        return state == "online"
    }
}
