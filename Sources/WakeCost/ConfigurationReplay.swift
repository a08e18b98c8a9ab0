/// What replaying a recording at one swept configuration measured, as the report's headline,
/// recommendation and charts need it. Built from the replayer's results by the caller, so the
/// report does not depend on how the replay is carried out.
public struct ConfigurationReplay: Hashable, Sendable {
    /// The swept rate this replay stands for (Hz).
    public var rateHz: Double
    /// The rate actually replayed (Hz): `rateHz`, or the recording's own rate when it is lower.
    public var replayedRateHz: Double
    /// The batch latency (s).
    public var latencyS: Double
    /// Worst delay from a sample's timestamp to its delivery (s).
    public var worstSampleDelayS: Double
    /// Mean delay from a sample's timestamp to its delivery (s).
    public var meanSampleDelayS: Double
    /// When each counted step became visible.
    public var steps: VisibilityDelays
    /// When each activity change was announced; nil while no activity classifier runs.
    public var activity: VisibilityDelays?

    /// Creates a replay summary.
    public init(rateHz: Double, replayedRateHz: Double, latencyS: Double, worstSampleDelayS: Double, meanSampleDelayS: Double,
                steps: VisibilityDelays, activity: VisibilityDelays? = nil) {
        self.rateHz = rateHz
        self.replayedRateHz = replayedRateHz
        self.latencyS = latencyS
        self.worstSampleDelayS = worstSampleDelayS
        self.meanSampleDelayS = meanSampleDelayS
        self.steps = steps
        self.activity = activity
    }

    /// The delay that `--max-delay` limits: the worst of the step and activity visibility delays,
    /// or the worst sample delay when the recording produced no such event; and what it measures.
    public var limitingDelay: (seconds: Double, measure: String) {
        switch (steps.maxS, activity?.maxS) {
        case let (s?, a?): return a > s ? (a, "activity visibility (replay)") : (s, "step visibility (replay)")
        case let (s?, nil): return (s, "step visibility (replay)")
        case let (nil, a?): return (a, "activity visibility (replay)")
        case (nil, nil): return (worstSampleDelayS, "sample delay (replay; no steps in the recording)")
        }
    }
}
