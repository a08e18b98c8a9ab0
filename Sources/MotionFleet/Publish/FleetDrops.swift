import MotionCore

/// A board's declaration of what its outbox limit (`--outbox-max`) dropped of one session
/// (docs/fleet.md, "Drops declared"): the batch and event sequence numbers it dropped (ranges),
/// the newest `samples` message it dropped (every older one of the session that is not in its
/// outbox any more was dropped too or acknowledged: samples are dropped oldest first), and how
/// many messages of the session it dropped, apart for those the broker had already taken (they
/// may have reached a collector) and those it had not (lost). It is published, retained in the
/// outbox and never dropped, on `PREFIX/<board>/drops`; a newer declaration of the session
/// replaces the older one in the outbox (it holds everything the older one did). A collector
/// records the declared numbers as settled (reported as dropped, not missing), so that its
/// acknowledgement goes on past them and the session's samples chain resumes after them. The
/// payload: `{"schema":1,"board":B,"type":"drops","session":S,"dropped":[[from,to],...],
/// "samples_dropped_through":{"seq":N,"part":P,"parts":Q},"outbox_dropped":n,"outbox_dropped_taken":m}`
/// (`samples_dropped_through` only when samples were dropped). Pure.
public struct FleetDrops: Sendable, Equatable {
    /// A `samples` message's place: its batch's sequence number, its part and its batch's parts.
    public struct SamplesPlace: Sendable, Equatable, Comparable {
        /// The batch's sequence number.
        public var sequence: Int
        /// The part, 1-based.
        public var part: Int
        /// The batch's parts.
        public var parts: Int
        /// Creates a value.
        public init(sequence: Int, part: Int, parts: Int) {
            self.sequence = sequence
            self.part = part
            self.parts = parts
        }
        public static func < (a: SamplesPlace, b: SamplesPlace) -> Bool { (a.sequence, a.part) < (b.sequence, b.part) }
    }

    /// The most ranges one declaration lists (a drop beyond them is counted, not declared: the
    /// collector then reports it as missing). Drops are oldest first per kind, so a session's
    /// dropped numbers make few ranges (one per event kept between dropped batches).
    public static let maxRanges = 10_000

    /// The session.
    public var session: String
    /// The batch and event sequence numbers dropped, ascending, disjoint and not adjacent.
    public private(set) var ranges: [ClosedRange<Int>] = []
    /// The newest `samples` message dropped, nil when none was.
    public var samplesThrough: SamplesPlace?
    /// Messages of the session (all kinds) dropped that the broker had not taken: lost.
    public var dropped = 0
    /// Messages of the session dropped after the broker had taken them (it may have delivered them).
    public var droppedTaken = 0

    /// Creates an empty declaration.
    public init(session: String) { self.session = session }

    /// The highest batch or event sequence number declared, 0 when none is.
    public var highest: Int { ranges.last?.upperBound ?? 0 }

    /// Batch and event messages declared.
    public var declaredCount: Int { ranges.reduce(0) { $0 + $1.count } }

    /// Adds a dropped batch or event sequence number.
    /// - Returns: false when it could not be declared (``maxRanges`` reached).
    /// - Complexity: O(log n) to find its place, O(n) when it opens a range in the middle.
    @discardableResult
    public mutating func add(sequence s: Int) -> Bool {
        // Most drops extend the last range (oldest first): the fast path.
        if let last = ranges.last {
            if last.contains(s) { return true }
            if s == last.upperBound + 1 {
                ranges[ranges.count - 1] = last.lowerBound...s
                return true
            }
            if s > last.upperBound + 1 {
                guard ranges.count < Self.maxRanges else { return false }
                ranges.append(s...s)
                return true
            }
        }
        var lo = 0, hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].upperBound < s { lo = mid + 1 } else { hi = mid }
        }
        if lo < ranges.count, ranges[lo].contains(s) { return true }
        let joinsBefore = lo > 0 && ranges[lo - 1].upperBound + 1 == s
        let joinsAfter = lo < ranges.count && ranges[lo].lowerBound == s + 1
        switch (joinsBefore, joinsAfter) {
        case (true, true):
            ranges[lo - 1] = ranges[lo - 1].lowerBound...ranges[lo].upperBound
            ranges.remove(at: lo)
        case (true, false): ranges[lo - 1] = ranges[lo - 1].lowerBound...s
        case (false, true): ranges[lo] = s...ranges[lo].upperBound
        case (false, false):
            guard ranges.count < Self.maxRanges else { return false }
            ranges.insert(s...s, at: lo)
        }
        return true
    }

    /// Records a dropped `samples` message (the newest one is kept).
    public mutating func add(samples place: SamplesPlace) {
        if samplesThrough.map({ $0 < place }) ?? true { samplesThrough = place }
    }

    /// The `drops` message of `board`.
    public func message(board: String) -> FleetMessage {
        var members: [(String, JSONValue)] = [("type", .string(FleetMessage.Kind.drops.rawValue)), ("session", .string(session)),
                                              ("dropped", .array(ranges.map { .array([.number($0.lowerBound), .number($0.upperBound)]) }))]
        if let s = samplesThrough {
            members.append(("samples_dropped_through", .object([("seq", .number(s.sequence)), ("part", .number(s.part)), ("parts", .number(s.parts))])))
        }
        members += [("outbox_dropped", .number(dropped)), ("outbox_dropped_taken", .number(droppedTaken))]
        return FleetMessage.wrap(.drops, board: board, .object(members))
    }

    /// Reads a declaration (a payload that passed the envelope checks), strictly: ranges of
    /// integers 1...2^53, ascending and disjoint, at most ``maxRanges``; the samples place's
    /// numbers in range (part within parts); counts integers.
    /// - Returns: the declaration, or the problem.
    public static func parse(_ node: JSONNode) -> Result<FleetDrops, FleetMessageSchema.Rejection> {
        func no(_ p: String) -> Result<FleetDrops, FleetMessageSchema.Rejection> { .failure(.init(.value, "the drops declaration's " + p)) }
        guard case .string(let session)? = node["session"]?.value else { return no("session is missing") }
        var d = FleetDrops(session: session)
        guard case .array(let list)? = node["dropped"]?.value else { return no("\"dropped\" is not an array of [from, to]") }
        guard list.count <= maxRanges else { return no("\"dropped\" lists \(list.count) ranges, more than \(maxRanges)") }
        d.ranges.reserveCapacity(list.count)
        for (i, r) in list.enumerated() {
            guard case .array(let ends) = r.value, ends.count == 2, let a = sequence(ends[0]), let b = sequence(ends[1]), a <= b else {
                return no("range \(i + 1) is not [from, to] with integers 1 <= from <= to <= \(FleetMessageSchema.maxSequence)")
            }
            if let last = d.ranges.last, a <= last.upperBound { return no("range \(i + 1) is not after the one before it") }
            d.ranges.append(a...b)
        }
        if let s = node["samples_dropped_through"] {
            guard let seq = sequence(s["seq"]), let part = sequence(s["part"]), let parts = sequence(s["parts"]),
                  part <= parts, parts <= FleetSamples.maxSamples else {
                return no("\"samples_dropped_through\" is not {\"seq\", \"part\", \"parts\"} with 1 <= part <= parts")
            }
            d.samplesThrough = SamplesPlace(sequence: seq, part: part, parts: parts)
        }
        d.dropped = FleetAck.count(node["outbox_dropped"]) ?? 0
        d.droppedTaken = FleetAck.count(node["outbox_dropped_taken"]) ?? 0
        return .success(d)
    }

    static func sequence(_ n: JSONNode?) -> Int? {
        guard let v = FleetAck.count(n), v >= 1 else { return nil }
        return v
    }
}
