/// One stretch of a recording with one activity: `[start, end]` on the sample clock (ns), the mean
/// confidence of the windows inside it, and when the change to it was announced.
public struct ActivitySegment: Sendable, Equatable {
    /// The first instant of the segment (ns): back-dated to when the activity began, not when it
    /// was recognised. Equals the previous segment's ``end``.
    public var start: Int64
    /// The last instant of the segment (ns): the next segment's start, or the stream's last sample.
    public var end: Int64
    /// The activity.
    public var label: ActivityClass
    /// Mean confidence (0-100) for ``label`` over the analysis windows centred in the segment; 0
    /// for a segment with no window (a gap in the data, or a stream shorter than one window).
    public var confidence: Double
    /// The sample time (ns) at which the evidence for the change to this segment was complete (the
    /// end of the window that decided it); live, the delivery latency adds to it.
    public var announced: Int64

    /// Creates a segment.
    public init(start: Int64, end: Int64, label: ActivityClass, confidence: Double, announced: Int64) {
        self.start = start
        self.end = end
        self.label = label
        self.confidence = confidence
        self.announced = announced
    }

    /// `end - start`, seconds.
    public var durationSeconds: Double { Double(end - start) / 1e9 }
}
