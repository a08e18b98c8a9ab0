import MotionCore

/// A message as the collector received it, checked: its topic names a board and a kind under
/// the prefix, and its payload passes ``FleetMessageSchema`` for that board and kind (the same
/// check the file reader makes, so whatever is written can be read back).
public struct ReceivedMessage: Sendable, Equatable {
    /// The board.
    public var board: String
    /// The kind.
    public var kind: FleetMessage.Kind
    /// The session id.
    public var session: String
    /// The sequence number in the session (0 for `status`).
    public var sequence: Int
    /// The payload as received (one line of UTF-8, a byte order mark removed).
    public var payload: String

    /// Checks a message.
    /// - Parameter maxBytes: the payload limit (`collect --max-payload`).
    /// - Returns: the message, or why it was rejected (reason and one sentence).
    public static func check(topic: String, payload: [UInt8], prefix: String,
                             maxBytes: Int = FleetMessageSchema.defaultMaxPayload) -> Result<ReceivedMessage, Rejection> {
        guard let (board, kind) = FleetTopics.parse(topic, prefix: prefix) else {
            return .failure(Rejection(topic: topic, reason: .topic, problem: "not a fleet topic"))
        }
        switch FleetMessageSchema.check(payload, board: board, kind: kind, maxBytes: maxBytes) {
        case .failure(let r): return .failure(Rejection(topic: topic, reason: r.reason, problem: r.problem))
        case .success(let m):
            return .success(ReceivedMessage(board: board, kind: kind, session: m.session, sequence: m.sequence, payload: m.text))
        }
    }

    /// Why a message was not taken.
    public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        /// The topic.
        public var topic: String
        /// The counted reason.
        public var reason: FleetMessageSchema.Reason
        /// The problem.
        public var problem: String
        /// `topic: problem`.
        public var description: String { "\(DiagnosticText.quoted(topic)): \(problem)" }
    }
}
