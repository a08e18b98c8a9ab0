import MotionCore

/// How late events of one kind (steps, activity changes) became visible to the application in a
/// replay: per event, the delivery time of the batch that produced it minus the event's own time
/// (s), which includes the analysis's own confirmation hold.
public struct VisibilityDelays: Hashable, Sendable {
    /// One delay per event, in event order (s).
    public var delaysS: [Double]

    /// Creates a summary of `delaysS`.
    public init(delaysS: [Double]) { self.delaysS = delaysS }

    /// Events seen.
    public var count: Int { delaysS.count }
    /// The worst delay (s), nil without events.
    public var maxS: Double? { delaysS.max() }
    /// The mean delay (s), nil without events.
    public var meanS: Double? { delaysS.isEmpty ? nil : delaysS.reduce(0, +) / Double(delaysS.count) }

    /// `{"max": s, "mean": s}`; both null when `visibility` is nil (the analysis did not run) or saw
    /// no events.
    public static func json(_ visibility: VisibilityDelays?) -> JSONValue {
        .object([("max", .number(visibility?.maxS)), ("mean", .number(visibility?.meanS))])
    }
}
