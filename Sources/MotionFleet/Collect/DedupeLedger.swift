/// Which (board, session, sequence) triples have been taken: the collector keeps a message the
/// first time and counts it as a duplicate after (a board sends again what the broker did not
/// acknowledge). Per session it holds the highest sequence below which every number was taken
/// or settled, the few taken above it, and the numbers the board declared dropped
/// (``FleetDrops``) and that were not taken, as ranges: settled, they let the contiguous
/// position (what the collector acknowledges) go on past them, and a settled message that
/// arrives after all (the broker had taken it before the board dropped it) is still taken once.
/// Memory stays small when messages arrive in order, whatever ranges a declaration names. Pure.
public struct DedupeLedger: Sendable {
    struct Seen: Sendable {
        /// Every number up to this one is taken or settled.
        var contiguous = 0
        /// Taken numbers above ``contiguous``.
        var above: Set<Int> = []
        /// Settled numbers not taken, ascending, disjoint (also below ``contiguous``).
        var settled: [ClosedRange<Int>] = []

        /// The index of the settled range holding `n`, nil when none does.
        func settledIndex(_ n: Int) -> Int? {
            var lo = 0, hi = settled.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if settled[mid].upperBound < n { lo = mid + 1 } else { hi = mid }
            }
            return lo < settled.count && settled[lo].contains(n) ? lo : nil
        }

        mutating func advance() {
            while true {
                if above.remove(contiguous + 1) != nil {
                    contiguous += 1
                } else if let i = settledIndex(contiguous + 1) {
                    contiguous = settled[i].upperBound
                } else {
                    return
                }
            }
        }
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
    /// - Complexity: amortised O(1) (O(log r) with r settled ranges).
    public mutating func take(board: String, session: String, sequence: Int) -> Bool {
        let key = board + "/" + session
        var s = sessions[key] ?? Seen()
        defer { sessions[key] = s }
        if !s.settled.isEmpty, let i = s.settledIndex(sequence) {
            // Declared dropped, and here after all: taken once.
            let r = s.settled[i]
            var pieces: [ClosedRange<Int>] = []
            if r.lowerBound < sequence { pieces.append(r.lowerBound...(sequence - 1)) }
            if sequence < r.upperBound { pieces.append((sequence + 1)...r.upperBound) }
            s.settled.replaceSubrange(i...i, with: pieces)
            if sequence > s.contiguous { s.above.insert(sequence) }
            accepted += 1
            return true
        }
        if sequence <= s.contiguous || s.above.contains(sequence) { duplicates += 1; return false }
        if sequence < (s.above.max() ?? 0) { outOfOrder += 1 }
        s.above.insert(sequence)
        s.advance()
        accepted += 1
        return true
    }

    /// Settles what a board declared dropped of `session` (``FleetDrops/ranges``): the numbers
    /// not taken count as done for the contiguous position.
    /// - Returns: whether anything was not settled before.
    /// - Complexity: O(r + t) with r settled ranges and t numbers taken above the position.
    @discardableResult
    public mutating func settle(board: String, session: String, _ ranges: [ClosedRange<Int>]) -> Bool {
        let key = board + "/" + session
        var s = sessions[key] ?? Seen()
        var added: [ClosedRange<Int>] = []
        let taken = s.above.sorted()
        for r in ranges where r.upperBound > s.contiguous {
            // Below the position every number is taken or settled already; above it, the taken ones stay taken.
            var from = max(r.lowerBound, s.contiguous + 1)
            var t = taken.firstIndex { $0 >= from } ?? taken.count
            while from <= r.upperBound {
                let to = t < taken.count && taken[t] <= r.upperBound ? taken[t] - 1 : r.upperBound
                if from <= to {
                    for piece in Self.subtract(from...to, s.settled) { added.append(piece) }
                }
                from = to + 2
                t += 1
            }
        }
        guard !added.isEmpty else { return false }
        s.settled = Self.union(s.settled, added)
        s.advance()
        sessions[key] = s
        return true
    }

    /// The highest sequence number up to which every one of the session's was taken or settled (0: none).
    public func contiguous(board: String, session: String) -> Int { sessions[board + "/" + session]?.contiguous ?? 0 }

    /// The highest sequence number taken in the session (0: none).
    public func highest(board: String, session: String) -> Int {
        guard let s = sessions[board + "/" + session] else { return 0 }
        return max(s.contiguous, s.above.max() ?? 0)
    }

    /// Sequence numbers neither taken nor settled below the highest taken in a session.
    public func gaps(board: String, session: String) -> Int {
        guard let s = sessions[board + "/" + session], let top = s.above.max() else { return 0 }
        let settledAbove = s.settled.reduce(0) { n, r in n + max(0, min(r.upperBound, top) - max(r.lowerBound, s.contiguous + 1) + 1) }
        return top - s.contiguous - s.above.count - settledAbove
    }

    /// `r` without the numbers of `ranges` (ascending, disjoint).
    static func subtract(_ r: ClosedRange<Int>, _ ranges: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
        var out: [ClosedRange<Int>] = []
        var from = r.lowerBound
        for x in ranges where x.upperBound >= from && x.lowerBound <= r.upperBound {
            if x.lowerBound > from { out.append(from...(x.lowerBound - 1)) }
            from = x.upperBound + 1
            if from > r.upperBound { return out }
        }
        if from <= r.upperBound { out.append(from...r.upperBound) }
        return out
    }

    /// The union of two lists of ranges, ascending and disjoint (adjacent ones joined).
    static func union(_ a: [ClosedRange<Int>], _ b: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
        var out: [ClosedRange<Int>] = []
        for r in (a + b).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound + 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }
}
