/// Which (board, session, sequence) triples have been taken: the collector keeps a message the
/// first time and counts it as a duplicate after (a board sends again what the broker did not
/// acknowledge). Per session it holds the highest sequence below which everything was seen and
/// the few seen above it, so memory stays small when messages arrive in order. Pure.
public struct DedupeLedger: Sendable {
    struct Seen: Sendable {
        var contiguous = 0
        var above: Set<Int> = []
    }
    private var sessions: [String: Seen] = [:]
    /// Messages taken.
    public private(set) var accepted = 0
    /// Messages seen again.
    public private(set) var duplicates = 0
    /// Messages that arrived after a later one of their session.
    public private(set) var outOfOrder = 0

    /// Creates an empty ledger.
    public init() {}

    /// Takes `(board, session, sequence)`.
    /// - Returns: true the first time.
    /// - Complexity: amortised O(1).
    public mutating func take(board: String, session: String, sequence: Int) -> Bool {
        let key = board + "/" + session
        var s = sessions[key] ?? Seen()
        defer { sessions[key] = s }
        if sequence <= s.contiguous || s.above.contains(sequence) { duplicates += 1; return false }
        if sequence < (s.above.max() ?? 0) { outOfOrder += 1 }
        s.above.insert(sequence)
        while s.above.remove(s.contiguous + 1) != nil { s.contiguous += 1 }
        accepted += 1
        return true
    }

    /// The highest sequence number up to which every one of the session's was taken (0: none).
    public func contiguous(board: String, session: String) -> Int { sessions[board + "/" + session]?.contiguous ?? 0 }

    /// The highest sequence number taken in the session (0: none).
    public func highest(board: String, session: String) -> Int {
        guard let s = sessions[board + "/" + session] else { return 0 }
        return max(s.contiguous, s.above.max() ?? 0)
    }

    /// Sequence numbers missing below the highest seen in a session (not received, or dropped
    /// by the board's `--outbox-max`).
    public func gaps(board: String, session: String) -> Int {
        guard let s = sessions[board + "/" + session], let top = s.above.max() else { return 0 }
        return top - s.contiguous - s.above.count
    }
}
