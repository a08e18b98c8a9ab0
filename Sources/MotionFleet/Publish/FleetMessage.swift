import MotionCore

/// One message of a board: its kind (the topic's last level) and its payload, a JSON object in
/// the versioned fleet schema (README, "Fleet: message schema"): `{"schema": 1, "board": ID,
/// ...}` followed by the members of the object `capture --ndjson` prints for the same thing
/// (`type`, `session`, `seq`, ...). A plain value.
public struct FleetMessage: Sendable, Equatable {
    /// The schema version carried by every payload.
    public static let schemaVersion = 1

    /// The message kinds, named as their topics' last level.
    public enum Kind: String, Sendable, CaseIterable {
        /// A delivered batch (``MotionSession/BatchReport``).
        case batch
        /// A delivered batch's samples (``FleetSamples``; `--publish-samples`).
        case samples
        /// A session event (``MotionSession/SessionEvent``).
        case event
        /// A recording or session summary.
        case summary
        /// The board's state (retained; never journaled: only the latest counts).
        case status
        /// What the outbox limit dropped of a session (``FleetDrops``; journaled, never dropped).
        case drops
    }

    /// The board's states in `status` messages.
    public enum State: String, Sendable {
        /// Capturing.
        case online
        /// Paused (SIGUSR1).
        case paused
        /// The device was lost.
        case lost
        /// Gone: the session ended, or the broker's last will after a lost connection.
        case offline
    }

    /// The kind.
    public var kind: Kind
    /// The payload (one line of JSON).
    public var payload: String

    /// Creates a message.
    public init(kind: Kind, payload: String) {
        self.kind = kind
        self.payload = payload
    }

    /// The message for `object` (an NDJSON object with `type`, `session`, `seq`) of `board`: the
    /// fleet's `schema` and `board` in front of its members (its own `schema`, the NDJSON line's
    /// version, left out: the fleet schema versions the message).
    public static func wrap(_ kind: Kind, board: String, _ object: JSONValue) -> FleetMessage {
        guard case .object(let members) = object else { preconditionFailure("a fleet message is a JSON object") }
        let head: [(String, JSONValue)] = [("schema", .number(schemaVersion)), ("board", .string(board))]
        return FleetMessage(kind: kind, payload: JSONValue.object(head + members.filter { $0.0 != "schema" }).serialized())
    }

    /// A `status` message: the state, the session's messages the outbox limit dropped (apart:
    /// those the broker had not taken, `outbox_dropped`, and those it had, `outbox_dropped_taken`),
    /// and (when known) what the board sent in the session so far (per kind) and its last sequence
    /// number, so that a collector can tell what it is missing.
    public static func status(_ state: State, board: String, session: String, dropped: Int = 0, droppedTaken: Int = 0,
                              sent: [Kind: Int]? = nil, lastSequence: Int? = nil) -> FleetMessage {
        var members: [(String, JSONValue)] = [("type", .string("status")), ("session", .string(session)),
                                              ("state", .string(state.rawValue)), ("outbox_dropped", .number(dropped)),
                                              ("outbox_dropped_taken", .number(droppedTaken))]
        if let sent { members.append(("sent", sentObject(sent))) }
        if let lastSequence { members.append(("last_seq", .number(lastSequence))) }
        return wrap(.status, board: board, .object(members))
    }

    /// `{"batch": n, "samples": n, "event": n, "summary": n}`.
    public static func sentObject(_ sent: [Kind: Int]) -> JSONValue {
        .object([Kind.batch, .samples, .event, .summary].map { ($0.rawValue, .number(sent[$0] ?? 0)) })
    }
}
