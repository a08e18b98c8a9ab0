/// One walking bout inside a bout recording (``BoutRecordingBuilder``): the stretch of the
/// recording that holds it and how many true steps it has.
public struct StepBout: Sendable, Equatable {
    /// First sample time of the bout (ns, the recording's clock).
    public var start: Int64
    /// Last sample time of the bout (ns).
    public var end: Int64
    /// True steps in the bout (from the walk's per-step truth).
    public var truth: Int

    /// Creates a bout.
    public init(start: Int64, end: Int64, truth: Int) {
        self.start = start
        self.end = end
        self.truth = truth
    }

    /// How long after ``end`` a counted step still belongs to the bout (ns): the counter places a
    /// step at the peak of its band-passed signal, up to about a quarter of a second after the
    /// foot contact, and the cut lies half a step after the last contact.
    public static let countingSlack: Int64 = 500_000_000

    /// Whether a counted step at `t` belongs to this bout.
    public func contains(_ t: Int64) -> Bool { t >= start && t <= end + Self.countingSlack }
}
