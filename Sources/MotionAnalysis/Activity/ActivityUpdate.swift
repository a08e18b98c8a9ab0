/// What one delivery told the activity classifier's followers: the changes it announced, and the
/// stretches of time whose vehicle decision became final (the step counter counts or drops its
/// held steps by them).
public struct ActivityUpdate: AnalysisOutput, Equatable {
    /// A stretch `[start, end)` of sample time (ns) whose vehicle decision is final.
    public struct VehicleSpan: Sendable, Equatable {
        /// First instant (ns).
        public var start: Int64
        /// End (ns, exclusive).
        public var end: Int64
        /// Whether the classifier says `vehicle` there.
        public var inVehicle: Bool

        /// Creates a span.
        public init(start: Int64, end: Int64, inVehicle: Bool) {
            self.start = start
            self.end = end
            self.inVehicle = inVehicle
        }
    }

    /// The (back-dated) start times (ns) of the segments whose change this delivery announced.
    public var changes: [Int64]
    /// Newly final vehicle decisions, in time order, contiguous with the previous delivery's.
    public var vehicleSpans: [VehicleSpan]
    /// Every time before this (ns) has a final vehicle decision; nil before the first sample.
    public var decidedBefore: Int64? {
        get { decidedBeforeStorage == .min ? nil : decidedBeforeStorage }
        set { decidedBeforeStorage = newValue ?? .min }
    }
    /// ``decidedBefore``, `Int64.min` for nil (never a decision time): the update then fits in an
    /// existential's inline buffer (three words), so the pipeline boxes nothing per delivery.
    private var decidedBeforeStorage: Int64

    /// Creates an update.
    public init(changes: [Int64] = [], vehicleSpans: [VehicleSpan] = [], decidedBefore: Int64? = nil) {
        self.changes = changes
        self.vehicleSpans = vehicleSpans
        decidedBeforeStorage = decidedBefore ?? .min
    }

    /// The announced changes are the events (their visibility delay includes the evidence hold).
    public var eventTimes: [Int64] { changes }
}
