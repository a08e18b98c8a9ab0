import MotionCore
import Foundation

/// A message as the collector received it, checked: its topic names a board and a kind under
/// the prefix, its payload is a JSON object in schema 1 whose `board` is the topic's, with a
/// session id and (except `status`) a sequence number.
public struct ReceivedMessage: Sendable, Equatable {
    /// The board.
    public var board: String
    /// The kind.
    public var kind: FleetMessage.Kind
    /// The session id.
    public var session: String
    /// The sequence number in the session (0 for `status`).
    public var sequence: Int
    /// The payload as received (one line).
    public var payload: String

    /// Checks a message.
    /// - Returns: the message, or why it was rejected (one sentence).
    public static func check(topic: String, payload: [UInt8], prefix: String) -> Result<ReceivedMessage, Rejection> {
        guard let (board, kind) = FleetTopics.parse(topic, prefix: prefix) else { return .failure(Rejection(topic: topic, problem: "not a fleet topic")) }
        func reject(_ p: String) -> Result<ReceivedMessage, Rejection> { .failure(Rejection(topic: topic, problem: p)) }
        guard !payload.contains(0x0a) else { return reject("the payload spans several lines") }
        guard let any = try? JSONSerialization.jsonObject(with: Data(payload)), let o = any as? [String: Any] else {
            return reject("the payload is not a JSON object")
        }
        guard let schema = o["schema"] as? Int, schema == FleetMessage.schemaVersion else {
            return reject("unknown schema \(o["schema"].map { DiagnosticText.quoted("\($0)") } ?? "(missing)") (this collector reads schema \(FleetMessage.schemaVersion))")
        }
        guard let b = o["board"] as? String, b == board else { return reject("the payload's board is not the topic's (\(board))") }
        guard let session = o["session"] as? String, !session.isEmpty, session.utf8.count <= 64,
              session.utf8.allSatisfy({ FleetTopics.isWordByte($0) || $0 == UInt8(ascii: "-") }) else {
            return reject("the session id is missing or not 1-64 of A-Z a-z 0-9 - _")
        }
        var seq = 0
        if kind != .status {
            guard let n = o["seq"] as? Int, n > 0 else { return reject("the sequence number is missing") }
            seq = n
        }
        return .success(ReceivedMessage(board: board, kind: kind, session: session, sequence: seq, payload: String(decoding: payload, as: UTF8.self)))
    }

    /// Why a message was not taken.
    public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        /// The topic.
        public var topic: String
        /// The problem.
        public var problem: String
        /// `topic: problem`.
        public var description: String { "\(DiagnosticText.quoted(topic)): \(problem)" }
    }
}
