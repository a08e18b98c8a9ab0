import MotionCore

/// A collector's end-to-end acknowledgement of one board (docs/fleet.md, "End-to-end
/// acknowledgement"): retained on `PREFIX/_ack/<board>/<collector>` (``FleetTopics/ack(prefix:board:collector:)``),
/// published after the collector's `fsync`, per session the highest sequence number up to which
/// every batch, event and summary message is durably written (`seq`) and the `samples` message
/// up to which every one is written, without a gap (`samples_seq`, and `samples_part` when only
/// the parts up to it of that batch's samples are). A board removes an outbox entry only when
/// some collector's acknowledgement covers it. The payload:
/// `{"schema":1,"type":"ack","board":B,"collector":C,"sessions":[{"session":S,"seq":N,"samples_seq":M[,"samples_part":P]}]}`.
/// Pure.
public struct FleetAck: Sendable, Equatable {
    /// One session's acknowledged positions.
    public struct Session: Sendable, Equatable {
        /// The session id.
        public var session: String
        /// Every message with a sequence number up to this is written.
        public var sequence: Int
        /// Every `samples` message up to this one is written (without a gap).
        public var samplesSequence: Int
        /// Of the samples of batch ``samplesSequence``, the parts up to this one are written;
        /// nil: all of its parts.
        public var samplesPart: Int?
        /// Creates a value.
        public init(session: String, sequence: Int, samplesSequence: Int, samplesPart: Int? = nil) {
            self.session = session
            self.sequence = sequence
            self.samplesSequence = samplesSequence
            self.samplesPart = samplesPart
        }

        /// Whether the `samples` message (`sequence`, `part`) is covered.
        public func coversSamples(sequence s: Int, part: Int) -> Bool {
            s < samplesSequence || (s == samplesSequence && part <= (samplesPart ?? .max))
        }
    }

    /// The most sessions one acknowledgement names: every session written since the board's last
    /// acknowledgement (oldest first; more wait for the next one), then the most recent others up
    /// to ``recentSessions``.
    public static let maxSessions = 256
    /// The most recently written sessions an acknowledgement names besides the new ones.
    public static let recentSessions = 16

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
            ("sessions", .array(sessions.map { .object([("session", .string($0.session)), ("seq", .number($0.sequence)), ("samples_seq", .number($0.samplesSequence))] + ($0.samplesPart.map { [("samples_part", .number($0)) as (String, JSONValue)] } ?? [])) })),
        ]).serialized()
    }

    /// Reads an acknowledgement (strictly; anything else is nil).
    public static func parse(_ bytes: [UInt8]) -> FleetAck? {
        guard bytes.count <= 1 << 20, let node = try? JSONReader.parse(bytes),
              case .number(let schema)? = node["schema"]?.value, schema == Double(FleetMessage.schemaVersion),
              case .string("ack")? = node["type"]?.value,
              case .string(let board)? = node["board"]?.value, case .string(let collector)? = node["collector"]?.value,
              case .array(let list)? = node["sessions"]?.value, list.count <= maxSessions else { return nil }
        var sessions: [Session] = []
        for s in list {
            guard case .string(let id)? = s["session"]?.value, let seq = count(s["seq"]), let samples = count(s["samples_seq"]) else { return nil }
            var part: Int?
            if let p = s["samples_part"] { guard let v = count(p), v >= 1 else { return nil }; part = v }
            sessions.append(Session(session: id, sequence: seq, samplesSequence: samples, samplesPart: part))
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
