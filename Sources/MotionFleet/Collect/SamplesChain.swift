/// Per board and session, the `samples` message up to which the collector has written every one
/// without a gap (docs/fleet.md, "Samples"): each message names the session's previous one
/// (`prev_seq`) and, when a batch's samples were split, its `part` of `parts`, so the collector
/// writes a message only when it is the next one. A message after a gap is not written (the
/// board still holds the missing one and sends it again, then this one: its acknowledgement
/// does not pass the gap), and the acknowledgement (``FleetAck/Session/samplesSequence``,
/// ``FleetAck/Session/samplesPart``) is this position, never a maximum; a board's declaration
/// of dropped samples messages moves it past them (``settle(_:through:)``). Pure.
struct SamplesChain: Sendable {
    /// A written message's place.
    struct Position: Sendable, Equatable {
        /// Its batch's sequence number.
        var sequence: Int
        /// Its part, 1-based.
        var part: Int
        /// Its batch's parts.
        var parts: Int
    }

    /// What to do with a message.
    enum Verdict: Sendable, Equatable {
        /// The next one: write it.
        case next
        /// At or before the position: already written.
        case duplicate
        /// After a gap (or, in a session this collector has no position for, not its first
        /// message): not written; the board sends the missing ones again first.
        case gap
    }

    private var positions: [String: Position] = [:]

    /// Judges `board`'s `session`'s samples message.
    /// - Parameter previous: its `prev_seq`; nil (a board that does not send it): the next one
    ///   unless a duplicate (the collector's timestamp rule then decides alone).
    func judge(_ key: String, sequence: Int, part: Int, parts: Int, previous: Int?) -> Verdict {
        guard let p = positions[key] else {
            return previous == nil || (previous == 0 && part == 1) ? .next : .gap
        }
        if (sequence, part) <= (p.sequence, p.part) { return .duplicate }
        guard let previous else { return .next }
        if part == 1 { return p.part >= p.parts && previous == p.sequence ? .next : .gap }
        return sequence == p.sequence && part == p.part + 1 && (parts == p.parts || p.parts == 0) ? .next : .gap
    }

    /// Records the message at `position` as written.
    mutating func advance(_ key: String, to position: Position) {
        if let p = positions[key], (position.sequence, position.part) <= (p.sequence, p.part) { return }
        positions[key] = position
    }

    /// Settles the session's samples messages up to `position`, the newest one its board declared
    /// dropped (``FleetDrops/samplesThrough``): the board drops samples oldest first, so every one
    /// before it that this collector has not written was dropped too or written by another
    /// collector, and none of them will come. The chain resumes after it (also in a session this
    /// collector had no position for).
    /// - Returns: whether the position moved.
    @discardableResult
    mutating func settle(_ key: String, through position: Position) -> Bool {
        if let p = positions[key], (position.sequence, position.part) <= (p.sequence, p.part) { return false }
        positions[key] = position
        return true
    }

    /// The acknowledged position: the sequence number, and the part when not all of that batch's
    /// parts are written (nil: all).
    func acknowledged(_ key: String) -> (sequence: Int, part: Int?) {
        guard let p = positions[key] else { return (0, nil) }
        return (p.sequence, p.part >= p.parts ? nil : p.part)
    }

    /// Forgets a session (its files were deleted).
    mutating func forget(_ key: String) { positions[key] = nil }
}
