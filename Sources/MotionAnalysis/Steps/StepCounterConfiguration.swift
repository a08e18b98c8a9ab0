/// The few, physically motivated parameters of ``StepCounter``.
///
/// The defaults were chosen on aggregate error over whole data sets (phone walks, wrist walks and
/// non-walking recordings), never file by file; see `docs/step-counter.md`.
public struct StepCounterConfiguration: Sendable, Equatable {
    /// Slowest plausible step: consecutive candidate steps further apart than this (ns) break a run
    /// (2 s, i.e. 0.5 steps/s).
    public var maxStepInterval: Int64 = 2_000_000_000
    /// Fastest plausible step: peaks closer than this (ns) are merged, keeping the larger
    /// (0.28 s, about 3.6 steps/s).
    public var minStepInterval: Int64 = 280_000_000
    /// A *strong* swing (peak minus preceding trough of the band-passed magnitude, m/s²). Strong
    /// runs may confirm in the short slow-walking and alternating forms, and while walking a
    /// weaker swing counts only if it keeps the rhythm. Since the periodicity gate, the targets
    /// hold for any value from 1.2 to 4 (see `docs/step-counter.md`).
    public var minAmplitude: Double = 1.7
    /// Gentle walking: a run of candidates with swings of at least this much (m/s²) but below
    /// `minAmplitude` confirms walking if it is regular (the `weakRun` ratios) and periodic
    /// (`minPeriodicity`).
    public var weakRunAmplitude: Double = 1.0
    /// Regularity of a gentle run: longest interval at most this many times the shortest (by
    /// default as lenient as a strong run: the periodicity gate does the rejecting).
    public var weakRunIntervalRatio: Double = 1.4
    /// Regularity of a gentle run: largest swing at most this many times the smallest.
    public var weakRunAmplitudeRatio: Double = 3.0
    /// While walking, a gap of 1.6–2.5 step periods counts the step that left no clear peak, half-way.
    public var fillMissedSteps: Bool = true
    /// Also confirm runs whose swings alternate strong/weak (stride asymmetry at the wrist or a pocket).
    public var alternatingRuns: Bool = true
    /// Regularity of an alternating run: longest interval at most this many times the shortest.
    public var alternatingIntervalRatio: Double = 1.25
    /// While walking, a smaller swing (m/s²) still counts if it keeps the rhythm (hysteresis).
    /// Set above ``weakRunAmplitude`` it acts as ``weakRunAmplitude``: a swing that may start a
    /// walk also continues one.
    public var continuationAmplitude: Double = 0.8
    /// While walking, a weak candidate must come at least this fraction of the step period after
    /// the previous step.
    public var continuationMinPhase: Double = 0.6
    /// How many consecutive regular candidates confirm that the wearer is walking.
    public var confirmationSteps: Int = 4
    /// A regular run of at least 3 candidates spanning this long (ns) also confirms walking, so that
    /// slow steps (1 step/s) are confirmed within the latency bound.
    public var confirmationSpan: Int64 = 1_800_000_000
    /// Regularity of such a short slow run: longest interval at most this many times the shortest.
    public var slowRunIntervalRatio: Double = 1.1
    /// Regularity of such a short slow run: largest swing at most this many times the smallest.
    public var slowRunAmplitudeRatio: Double = 1.5
    /// Regularity: in a confirming run, the longest interval may be at most this many times the shortest.
    public var maxIntervalRatio: Double = 1.4
    /// Regularity: in a confirming run, the largest swing may be at most this many times the smallest.
    public var maxAmplitudeRatio: Double = 3.0
    /// Latency bound: a candidate not confirmed this long (ns) after it happened is dropped, so every
    /// counted step is emitted within 3 s of its timestamp (2.2 s + merge and grid delays of about 0.5 s).
    public var maxHold: Int64 = 2_200_000_000
    /// Once walking, a gap longer than this many step periods ends the walk.
    public var maxGapInPeriods: Double = 2.5
    /// Periodicity gate: a run confirms walking only if the band-passed signal over the last
    /// `periodicityWindow` repeats with the run's step period or twice it: normalised
    /// autocorrelation at least this (scale-free; 0 disables the gate). The value applies as it is
    /// to a window of ``periodicityReferenceWindow``; over another window the measured correlation
    /// is first converted to the one with the same statistical evidence (equal Fisher z-score
    /// atanh(r)·√(pairs − 3)), so that a short window, where a chance rhythm is likelier, needs a
    /// higher correlation and a long one, where real cadence drifts, a lower one.
    public var minPeriodicity: Double = 0.85
    /// The window (ns) over which periodicity is measured, ending at the newest signal value
    /// (0.4–5.12 s; 2.5 s holds 4–5 steps of ordinary walking).
    public var periodicityWindow: Int64 = 2_500_000_000
    /// While walking, every `walkingCheckSteps` steps the periodicity (same window and lags) must
    /// stay at least this, or the walk ends and must be confirmed again (0 disables the check).
    public var minWalkingPeriodicity: Double = 0
    /// How often (in counted steps) the walking periodicity is checked.
    public var walkingCheckSteps: Int = 4
    /// The window length (2.5 s) at which `minPeriodicity` applies as it is (see `minPeriodicity`).
    public static let periodicityReferenceWindow: Int64 = 2_500_000_000

    /// Lags within ± this fraction of the step period (and of twice it) are tried.
    public var periodicityTolerance: Double = 0.15
    /// Longest input gap (ns) bridged by interpolation; a longer gap restarts the analysis.
    public var maxInputGap: Int64 = 1_000_000_000

    /// The default configuration.
    public init() {}

    /// Checks that the values are usable.
    /// - Throws: ``StepCounterError/invalidConfiguration(_:)`` naming the bad field.
    public func validate() throws(StepCounterError) {
        if !(minAmplitude.isFinite && minAmplitude > 0) { throw .invalidConfiguration("minAmplitude must be > 0") }
        if !(weakRunAmplitude.isFinite && weakRunAmplitude > 0 && weakRunAmplitude <= minAmplitude) {
            throw .invalidConfiguration("weakRunAmplitude must be in (0, minAmplitude]")
        }
        if !(weakRunIntervalRatio.isFinite && weakRunIntervalRatio >= 1) { throw .invalidConfiguration("weakRunIntervalRatio must be >= 1") }
        if !(weakRunAmplitudeRatio.isFinite && weakRunAmplitudeRatio >= 1) { throw .invalidConfiguration("weakRunAmplitudeRatio must be >= 1") }
        if !(continuationAmplitude.isFinite && continuationAmplitude > 0 && continuationAmplitude <= minAmplitude) {
            throw .invalidConfiguration("continuationAmplitude must be in (0, minAmplitude]")
        }
        if !(alternatingIntervalRatio.isFinite && alternatingIntervalRatio >= 1) { throw .invalidConfiguration("alternatingIntervalRatio must be >= 1") }
        if !(continuationMinPhase.isFinite && continuationMinPhase >= 0) { throw .invalidConfiguration("continuationMinPhase must be >= 0") }
        if !(3...StepHoldBuffer.capacity).contains(confirmationSteps) {
            throw .invalidConfiguration("confirmationSteps must be in 3...\(StepHoldBuffer.capacity)")
        }
        if confirmationSpan <= 0 { throw .invalidConfiguration("confirmationSpan must be > 0") }
        if !(maxIntervalRatio.isFinite && maxIntervalRatio >= 1) { throw .invalidConfiguration("maxIntervalRatio must be >= 1") }
        if !(maxAmplitudeRatio.isFinite && maxAmplitudeRatio >= 1) { throw .invalidConfiguration("maxAmplitudeRatio must be >= 1") }
        if minStepInterval <= 0 || maxStepInterval <= minStepInterval {
            throw .invalidConfiguration("need 0 < minStepInterval < maxStepInterval")
        }
        if maxHold <= 0 || maxHold / minStepInterval >= Int64(StepHoldBuffer.capacity) {
            throw .invalidConfiguration("maxHold must be > 0 and hold fewer than \(StepHoldBuffer.capacity) candidates")
        }
        if !(maxGapInPeriods.isFinite && maxGapInPeriods >= 1) { throw .invalidConfiguration("maxGapInPeriods must be >= 1") }
        if !(minPeriodicity.isFinite && minPeriodicity >= 0 && minPeriodicity <= 1) { throw .invalidConfiguration("minPeriodicity must be in [0, 1]") }
        if periodicityWindow < 10 * 40_000_000 || periodicityWindow > Int64(StepSignalHistory.capacity) * 40_000_000 {
            throw .invalidConfiguration("periodicityWindow must be in 0.4...\(Double(StepSignalHistory.capacity) * 0.04) s")
        }
        if !(minWalkingPeriodicity.isFinite && minWalkingPeriodicity >= 0 && minWalkingPeriodicity <= 1) { throw .invalidConfiguration("minWalkingPeriodicity must be in [0, 1]") }
        if walkingCheckSteps < 1 { throw .invalidConfiguration("walkingCheckSteps must be >= 1") }
        if !(periodicityTolerance.isFinite && periodicityTolerance >= 0 && periodicityTolerance < 0.5) { throw .invalidConfiguration("periodicityTolerance must be in [0, 0.5)") }
        if maxInputGap <= 0 { throw .invalidConfiguration("maxInputGap must be > 0") }
    }
}
