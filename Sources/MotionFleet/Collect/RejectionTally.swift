/// The collector's rejections counted per reason, and what of them to log (pure, time
/// injected): the first rejection of each reason in full (a change of state), after that at
/// most one line a minute with the counts since the previous line, and every count at the end
/// (``summary``) and in `collect --stats-json`.
public struct RejectionTally: Sendable, Equatable {
    /// The shortest time between two count lines, ns.
    public static let interval: Int64 = 60_000_000_000

    /// Rejections per reason since the start.
    public private(set) var counts: [FleetMessageSchema.Reason: Int] = [:]
    private var pending: [FleetMessageSchema.Reason: Int] = [:]
    private var lastLine: Int64?

    /// Creates an empty tally.
    public init() {}

    /// All rejections.
    public var total: Int { counts.values.reduce(0, +) }

    /// Counts one rejection at `now` (monotonic ns).
    /// - Returns: the line to log, if any.
    public mutating func record(_ reason: FleetMessageSchema.Reason, detail: String, now: Int64) -> String? {
        counts[reason, default: 0] += 1
        if counts[reason] == 1 {
            if lastLine == nil { lastLine = now }
            return "collect: rejected \(detail) [\(reason.rawValue); further rejections are counted, at most one line a minute]"
        }
        pending[reason, default: 0] += 1
        return tick(now: now)
    }

    /// The count line when one is due at `now` (call once per loop pass).
    public mutating func tick(now: Int64) -> String? {
        guard !pending.isEmpty, now - (lastLine ?? .min / 2) >= Self.interval else { return nil }
        let n = pending.values.reduce(0, +)
        let line = "collect: \(n) more messages rejected since the last report (\(Self.list(pending))); \(total) in all"
        pending.removeAll()
        lastLine = now
        return line
    }

    /// `json 3, schema 2` (by reason), `none` when empty.
    public var summary: String { counts.isEmpty ? "none" : Self.list(counts) }

    static func list(_ c: [FleetMessageSchema.Reason: Int]) -> String {
        c.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
    }
}
