/// Holds counted steps until the activity classifier's vehicle decision for their time is final,
/// then counts them, or drops them when the classifier says `vehicle` there: no steps in a bus,
/// and a live count that never goes down. The hold is bounded by the classifier's back-dating
/// limit plus one window (``ActivityClassifierConfiguration/maxBackdateSeconds``); while nothing
/// is pending it is under a second.
///
/// A state machine fed, per delivery, the steps the counter emitted (time order) and the
/// classifier's ``ActivityUpdate``; it keeps the recent decided spans so that a step the counter
/// releases late (after its own hold) is still judged by the decision for its time.
public struct VehicleStepGate: Sendable {
    /// Steps waiting for a decision (ns, increasing), and the delivery instant each was given at.
    private var held: [(time: Int64, given: Int64)] = []
    private var heldHead = 0
    /// Decided spans kept for late steps, oldest first.
    private var spans: [ActivityUpdate.VehicleSpan] = []
    /// Everything before this is decided (ns); nil before the first update.
    private var decidedBefore: Int64?
    /// Steps dropped because they fell in a vehicle.
    public private(set) var dropped = 0
    /// Per counted step, in order: how long the gate held it (ns, release instant minus the
    /// instant it was given): the extra visibility delay the activity decision added.
    public private(set) var holds = EventVisibility()

    /// How long decided spans are kept for steps the counter releases late (ns): longer than the
    /// step counter's own hold.
    static let retention: Int64 = 30_000_000_000

    /// An empty gate.
    public init() {}

    /// Steps still held.
    public var heldCount: Int { held.count - heldHead }

    /// Takes `steps` (just counted, increasing) and the classifier's `update` for the same
    /// delivery, made at `deliveredAt` (ns); appends the steps now decided and kept to `counted`.
    public mutating func pass(_ steps: [Int64], _ update: ActivityUpdate, deliveredAt: Int64, into counted: inout [Int64]) {
        for s in update.vehicleSpans {
            if var l = spans.last, l.inVehicle == s.inVehicle, l.end == s.start {
                l.end = s.end
                spans[spans.count - 1] = l
            } else {
                spans.append(s)
            }
        }
        if let d = update.decidedBefore { decidedBefore = d }
        for t in steps { held.append((t, deliveredAt)) }
        release(into: &counted, at: deliveredAt, all: false)
    }

    /// The end of the stream, after the last delivery (made at `lastDeliveredAt`): every held step
    /// is decided by the spans (a step after the last span counts).
    public mutating func finish(lastDeliveredAt: Int64, into counted: inout [Int64]) {
        release(into: &counted, at: lastDeliveredAt, all: true)
    }

    private mutating func release(into counted: inout [Int64], at now: Int64, all: Bool) {
        var spanIndex = 0
        while heldHead < held.count {
            let (t, given) = held[heldHead]
            if !all, decidedBefore.map({ t >= $0 }) ?? true { break }
            while spanIndex < spans.count && spans[spanIndex].end <= t { spanIndex += 1 }
            let inVehicle = spanIndex < spans.count && spans[spanIndex].start <= t && spans[spanIndex].inVehicle
            if inVehicle {
                dropped += 1
            } else {
                counted.append(t)
                holds.record([given], visibleAt: now)
            }
            heldHead += 1
        }
        if heldHead > 0 && heldHead * 2 >= held.count { held.removeFirst(heldHead); heldHead = 0 }
        // Keep the spans a late step could still fall in.
        if let d = decidedBefore {
            var drop = 0
            while drop + 1 < spans.count && spans[drop].end < d - Self.retention { drop += 1 }
            if drop > 0 { spans.removeFirst(drop) }
        }
    }
}
