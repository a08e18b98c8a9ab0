import MotionCore

/// What a board's statuses said of its sessions, the largest figure of each (docs/fleet.md,
/// "collect"): per session the board's last sequence number (`last_seq`), what it sent per kind
/// (`sent`) and its drop counts (`outbox_dropped`, `outbox_dropped_taken`). A status without
/// them (the broker's last will, set when the board connected) changes nothing: a board that
/// dies and never returns leaves its latest counts, so the report can tell the tail it did not
/// deliver. The collector keeps it in `status.json` (`sessions`, the most recent
/// ``kept`` sessions, oldest first). Pure.
struct StatusFigures: Sendable, Equatable {
    /// One session's figures.
    struct Session: Sendable, Equatable {
        /// The session id.
        var session: String
        /// The largest `last_seq`.
        var lastSequence: Int?
        /// The largest `sent` count per kind.
        var sent: [String: Int] = [:]
        /// The largest `outbox_dropped`.
        var dropped: Int?
        /// The largest `outbox_dropped_taken`.
        var droppedTaken: Int?
    }

    /// Sessions kept per board.
    static let kept = 16

    /// The sessions, the most recently updated last.
    private(set) var sessions: [Session] = []

    /// Creates an empty value.
    init() {}

    /// Reads back the `sessions` array of a `status.json` (entries that are not sessions skipped).
    init(_ node: JSONNode?) {
        guard case .array(let list)? = node?.value else { return }
        for n in list.suffix(Self.kept) { merge(n) }
    }

    /// Takes the figures of a status message (or of a `sessions` entry).
    /// - Returns: whether any figure grew (or a session was added).
    @discardableResult
    mutating func merge(_ status: JSONNode) -> Bool {
        guard case .string(let id)? = status["session"]?.value, FleetTopics.isValidBoardID(id) else { return false }
        let i = sessions.firstIndex { $0.session == id }
        var s = i.map { sessions[$0] } ?? Session(session: id)
        let before = s
        func larger(_ a: Int?, _ b: Int?) -> Int? { b.map { max(a ?? 0, $0) } ?? a }
        s.lastSequence = larger(s.lastSequence, FleetAck.count(status["last_seq"]))
        s.dropped = larger(s.dropped, FleetAck.count(status["outbox_dropped"]))
        s.droppedTaken = larger(s.droppedTaken, FleetAck.count(status["outbox_dropped_taken"]))
        if case .object(let members)? = status["sent"]?.value {
            for (kind, n) in members where FleetMessage.Kind(rawValue: kind) != nil {
                if let v = FleetAck.count(n) { s.sent[kind] = max(s.sent[kind] ?? 0, v) }
            }
        }
        guard s != before || i == nil else { return false }
        if i == nil, s.lastSequence == nil, s.sent.isEmpty, s.dropped == nil, s.droppedTaken == nil { return false }
        if let i { sessions.remove(at: i) }
        sessions.append(s)
        if sessions.count > Self.kept { sessions.removeFirst(sessions.count - Self.kept) }
        return true
    }

    /// The `sessions` array of `status.json`.
    var json: JSONValue {
        .array(sessions.map { s in
            var members: [(String, JSONValue)] = [("session", .string(s.session))]
            if let n = s.lastSequence { members.append(("last_seq", .number(n))) }
            if !s.sent.isEmpty {
                members.append(("sent", .object(FleetMessage.Kind.allCases.compactMap { k in s.sent[k.rawValue].map { (k.rawValue, .number($0)) } })))
            }
            if let n = s.dropped { members.append(("outbox_dropped", .number(n))) }
            if let n = s.droppedTaken { members.append(("outbox_dropped_taken", .number(n))) }
            return .object(members)
        })
    }
}
