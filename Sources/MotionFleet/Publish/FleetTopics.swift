/// The topics of one board under a prefix (README, "Fleet: topics"):
/// `PREFIX/<board>/batch` (one message per delivered batch), `PREFIX/<board>/samples` (its
/// samples, with `--publish-samples`), `PREFIX/<board>/event` (session
/// events), `PREFIX/<board>/summary` (recording and session summaries), `PREFIX/<board>/status`
/// (retained: online, paused, lost, offline, the last one also as the broker's last will).
public struct FleetTopics: Sendable, Equatable {
    /// The prefix.
    public var prefix: String
    /// The board id.
    public var board: String

    /// Creates the topics of `board`.
    /// - Throws: ``FleetError/invalidBoardID(_:)``.
    public init(prefix: String, board: String) throws(FleetError) {
        guard Self.isValidBoardID(board), !Self.reserved.contains(board) else { throw .invalidBoardID(board) }
        self.prefix = prefix
        self.board = board
    }

    /// The topic of a message kind.
    public func topic(_ kind: FleetMessage.Kind) -> String { "\(prefix)/\(board)/\(kind.rawValue)" }

    /// The collector's subscription: every board's messages under `prefix`.
    public static func subscription(prefix: String) -> String { "\(prefix)/+/+" }

    /// Board ids that are topic levels of the collectors (`_ack`, `_collector`), not boards.
    public static let reserved: Set<String> = ["_ack", "_collector"]

    /// Where collector `collector` acknowledges `board`'s messages (retained, written only by
    /// collectors): `PREFIX/_ack/<board>/<collector>`.
    public static func ack(prefix: String, board: String, collector: String) -> String { "\(prefix)/_ack/\(board)/\(collector)" }

    /// A board's subscription to every collector's acknowledgements of it.
    public func ackSubscription() -> String { "\(prefix)/_ack/\(board)/+" }

    /// Collector `collector`'s presence (retained `online`; `offline` also as its last will):
    /// `PREFIX/_collector/<collector>/status`.
    public static func presence(prefix: String, collector: String) -> String { "\(prefix)/_collector/\(collector)/status" }

    /// A board's subscription to every collector's presence.
    public func presenceSubscription() -> String { "\(prefix)/_collector/+/status" }

    /// The collector id of a presence topic, nil for another topic.
    public func presenceCollector(_ topic: String) -> String? {
        let head = "\(prefix)/_collector/"
        guard topic.hasPrefix(head), topic.hasSuffix("/status") else { return nil }
        let id = String(topic.dropFirst(head.count).dropLast(7))
        return Self.isValidBoardID(id) ? id : nil
    }

    /// Whether `topic` is a collector's acknowledgement of this board.
    public func isAck(_ topic: String) -> Bool {
        let head = "\(prefix)/_ack/\(board)/"
        return topic.hasPrefix(head) && Self.isValidBoardID(String(topic.dropFirst(head.count)))
    }

    /// The board and kind of `topic` under `prefix`, nil for anything else.
    public static func parse(_ topic: String, prefix: String) -> (board: String, kind: FleetMessage.Kind)? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let rest = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard rest.count == 2, isValidBoardID(String(rest[0])), !reserved.contains(String(rest[0])), let kind = FleetMessage.Kind(rawValue: String(rest[1])) else { return nil }
        return (String(rest[0]), kind)
    }

    /// 1-64 of `[A-Za-z0-9_-]`.
    public static func isValidBoardID(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64 && s.utf8.allSatisfy { isWordByte($0) || $0 == UInt8(ascii: "-") }
    }

    /// Non-empty levels of `[A-Za-z0-9_.-]` separated by `/`.
    public static func isValidPrefix(_ s: String) -> Bool {
        let levels = s.split(separator: "/", omittingEmptySubsequences: false)
        return !s.isEmpty && s.utf8.count <= 200 && levels.allSatisfy { l in
            !l.isEmpty && l.utf8.allSatisfy { isWordByte($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
        }
    }

    static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b == UInt8(ascii: "_")
    }

    /// A pseudonymous board id derived from a machine's secret id (`/etc/machine-id`): 16 hex
    /// digits of a keyed FNV-1a hash, stable on the machine, not the hostname or a MAC address.
    public static func pseudonym(machineID: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in ("motionbatch-fleet:" + machineID).utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        let s = String(h, radix: 16)
        return "b" + String(repeating: "0", count: 16 - s.count) + s
    }
}
