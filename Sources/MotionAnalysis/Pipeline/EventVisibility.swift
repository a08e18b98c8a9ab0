/// How late an analyzer's events became visible to the application: for each event (a counted
/// step, an announced activity change), the delivery instant of the batch whose processing
/// announced it minus the event's own sample time. It includes the analyzer's own confirmation
/// hold and, unlike the analyzer's result, depends on the delivery policy.
public struct EventVisibility: Sendable, Equatable {
    /// Per event, in announcement order: visible-at minus event time (ns).
    public private(set) var delays: [Int64] = []

    /// No events yet.
    public init() {}

    /// Records `events` (sample times, ns) announced by a delivery made at `visibleAt` (ns).
    public mutating func record(_ events: [Int64], visibleAt: Int64) {
        for t in events { delays.append(visibleAt - t) }
    }

    /// Events recorded.
    public var count: Int { delays.count }

    /// The longest delay (s), nil without events.
    public var worstSeconds: Double? { delays.max().map { Double($0) / 1e9 } }

    /// The mean delay (s), nil without events.
    public var meanSeconds: Double? {
        delays.isEmpty ? nil : Double(delays.reduce(0, +)) / Double(delays.count) / 1e9
    }
}
