import MotionCore

/// The fleet message schema, version 1, and its one validator (docs/fleet.md, "Message schema"):
/// what `collect` accepts from the broker is exactly what the file reader (``FleetNDJSON``,
/// `collect report`, a restarted collector) can read back, because both call ``check(_:board:kind:maxBytes:)``.
/// A payload is UTF-8 (a UTF-8 byte order mark is stripped, any other encoding refused), one
/// line, one strict JSON object (MotionCore's ``MotionCore/JSONReader``: duplicate keys, NaN,
/// numbers beyond `Double` refused) with `"schema": 1` (a number, not `true`), `board` (a board
/// id), `type` (a string naming a message kind, the topic's when the topic is known), `session`
/// (1-64 of `A-Z a-z 0-9 - _`), `seq` (an integer 1...2^53; not for `status` and `drops`) and, for
/// `batch`, `summary` and `status`, the figures the report uses range-checked where present (counts
/// are integers 0...2^53, seconds and rates finite and bounded; null allowed); a `drops`
/// declaration as ``FleetDrops/parse(_:)`` reads it. Pure.
public enum FleetMessageSchema {
    /// The largest payload a collector takes by default (`collect --max-payload`): 32 MiB, above
    /// the largest message a board makes (a `samples` message of ``FleetSamples/maxSamples``
    /// rows, each at most a 19-digit timestamp and six 24-character values with their commas and
    /// an escaped newline: under 18 MB).
    public static let defaultMaxPayload = 32 << 20
    /// The largest sequence number (every integer up to it is exact in a JSON number).
    public static let maxSequence = 9_007_199_254_740_991

    /// Why a message was refused: the counted reason (its `rawValue` is the key in the
    /// collector's `rejected` counts and `--stats-json`).
    public enum Reason: String, Sendable, CaseIterable, Comparable {
        /// The topic is not `PREFIX/<board>/<kind>`.
        case topic
        /// Larger than the payload limit.
        case tooLarge = "too_large"
        /// Not UTF-8 (or another encoding's byte order mark).
        case encoding
        /// A newline inside the payload.
        case multiline
        /// Not one strict JSON object.
        case json
        /// `schema` missing or not 1.
        case schema
        /// `board` missing or not the topic's.
        case board
        /// `type` missing, not a string or not the topic's kind.
        case type
        /// `session` missing or not an id.
        case session
        /// `seq` missing, not an integer or out of range.
        case seq
        /// A figure of the message out of range or of the wrong kind.
        case value
        /// A `samples` message whose rows cannot be read back.
        case samples

        public static func < (a: Reason, b: Reason) -> Bool { a.rawValue < b.rawValue }
    }

    /// A refused message: the reason and one sentence.
    public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        /// The counted reason.
        public var reason: Reason
        /// What is wrong.
        public var problem: String
        /// Creates a rejection.
        public init(_ reason: Reason, _ problem: String) {
            self.reason = reason
            self.problem = problem
        }
        /// The problem.
        public var description: String { problem }
    }

    /// A message that passed.
    public struct Message: Sendable {
        /// `type`.
        public var type: String
        /// `board`.
        public var board: String
        /// `session`.
        public var session: String
        /// `seq` (0 for `status`).
        public var sequence: Int
        /// The payload as one line of UTF-8 (a byte order mark removed).
        public var text: String
        /// The parsed object.
        public var node: JSONNode
    }

    static let count = ValueRule("count", unit: "", 0...9_007_199_254_740_991)
    static let seconds = ValueRule("time", unit: "s", 0...1e10)
    static let rate = ValueRule("rate", unit: "/h", 0...1e15)
    static let hours = ValueRule("battery life", unit: "h", 0...1e9)
    static let timestamp = ValueRule("sample time", unit: "s", -1e10...1e10)

    /// Checks one payload (or one line of a collected file).
    /// - Parameters:
    ///   - board: the board the topic (or the file's directory) names; nil to take the payload's.
    ///   - kind: the topic's kind; nil for a line on disk (then `type` must name a kind).
    ///   - maxBytes: the payload limit.
    /// - Returns: the message, or the reason and problem.
    /// - Complexity: O(payload size).
    public static func check(_ payload: [UInt8], board: String?, kind: FleetMessage.Kind?, maxBytes: Int = defaultMaxPayload) -> Result<Message, Rejection> {
        func no(_ r: Reason, _ p: String) -> Result<Message, Rejection> { .failure(Rejection(r, p)) }
        guard payload.count <= maxBytes else { return no(.tooLarge, "the payload is \(payload.count) bytes, above the limit of \(maxBytes) (--max-payload)") }
        var bytes = payload
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return no(.encoding, "the payload is UTF-16 or UTF-32 (a byte order mark \(DiagnosticText.escaped(bytes.prefix(2)))); fleet messages are UTF-8")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return no(.encoding, "the payload is not valid UTF-8") }
        guard !bytes.contains(0x0a), !bytes.contains(0x0d) else { return no(.multiline, "the payload spans several lines") }
        let node: JSONNode
        do { node = try JSONReader.parse(bytes, maxBytes: maxBytes) } catch { return no(.json, "the payload is not JSON: column \(error.position.column): \(error.problem)") }
        guard case .object = node.value else { return no(.json, "the payload is \(node.kindName), not a JSON object") }
        guard case .number(let schema)? = node["schema"]?.value, schema == Double(FleetMessage.schemaVersion) else {
            return no(.schema, "unknown schema \(describe(node["schema"])) (this collector reads schema \(FleetMessage.schemaVersion))")
        }
        guard case .string(let b)? = node["board"]?.value, FleetTopics.isValidBoardID(b) else { return no(.board, "\"board\" is \(describe(node["board"])), not a board id") }
        if let expected = board, b != expected { return no(.board, "the payload's board \(DiagnosticText.quoted(b)) is not \(DiagnosticText.quoted(expected))") }
        guard case .string(let type)? = node["type"]?.value, let typeKind = FleetMessage.Kind(rawValue: type) else {
            return no(.type, "\"type\" is \(describe(node["type"])), not one of \(FleetMessage.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let k = kind, k != typeKind { return no(.type, "\"type\" \(DiagnosticText.quoted(type)) is not the topic's kind \(k.rawValue)") }
        guard case .string(let session)? = node["session"]?.value, FleetTopics.isValidBoardID(session) else {
            return no(.session, "the session id is \(describe(node["session"])), not 1-64 of A-Z a-z 0-9 - _")
        }
        var sequence = 0
        if typeKind != .status && typeKind != .drops {
            guard case .number(let s)? = node["seq"]?.value, s >= 1, s <= Double(maxSequence), s.rounded() == s else {
                return no(.seq, "the sequence number is \(describe(node["seq"])), not an integer 1...\(maxSequence)")
            }
            sequence = Int(s)
        }
        if typeKind == .batch || typeKind == .summary || typeKind == .status {
            if let p = figuresProblem(node) { return no(.value, p) }
        }
        if typeKind == .drops, case .failure(let r) = FleetDrops.parse(node) { return .failure(r) }
        return .success(Message(type: type, board: b, session: session, sequence: sequence, text: text, node: node))
    }

    /// The first figure of a batch or summary out of range, nil when all are fine.
    static func figuresProblem(_ node: JSONNode) -> String? {
        for key in ["steps", "samples", "total_samples", "lost_samples", "outbox_dropped", "outbox_dropped_taken", "last_seq"] {
            if let p = problem(node[key], key, count, integer: true) { return p }
        }
        for key in ["duration_s", "first_s", "end_s"] {
            if let p = problem(node[key], key, key == "duration_s" ? seconds : timestamp, integer: false) { return p }
        }
        for (key, rule) in [("activity_time_s", seconds), ("wakeups_per_hour", rate), ("battery", hours), ("sent", count), ("wakeups", count)] {
            guard let n = node[key] else { continue }
            switch n.value {
            case .null: continue
            case .object(let members):
                for (k, v) in members where key != "battery" || k == "battery_life_h" {
                    if let p = problem(v, "\(key).\(k)", rule, integer: key == "sent" || key == "wakeups") { return p }
                }
            default: return "\"\(key)\" is \(n.kindName), not an object"
            }
        }
        return nil
    }

    static func problem(_ n: JSONNode?, _ key: String, _ rule: ValueRule, integer: Bool) -> String? {
        guard let n else { return nil }
        switch n.value {
        case .null: return nil
        case .number(let v):
            guard rule.contains(v), !integer || v.rounded() == v else { return "\"\(key)\" \(v.compactText) is out of range (allowed \(integer ? "integers " : "")\(rule.rangeText))" }
            return nil
        default: return "\"\(key)\" is \(n.kindName), not a number"
        }
    }

    /// A value for messages: `(missing)`, `a boolean`, `"x"`, `7`.
    static func describe(_ n: JSONNode?) -> String {
        guard let n else { return "(missing)" }
        switch n.value {
        case .string(let s): return DiagnosticText.quoted(String(s.prefix(70)))
        case .number(let v): return v.compactText
        default: return n.kindName
        }
    }
}
