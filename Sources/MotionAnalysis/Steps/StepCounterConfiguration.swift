/// The parameters of ``StepCounter``.
///
/// Three kinds (docs/step-counter.md, "Parameters"):
/// - **Tuned by the grid** of the cross-validation of `motionbatch eval steps` (MotionEvaluation's
///   `StepSearchSpace.standard`): ``minPeriodicity``, ``maxIntervalRatio``, ``minSwing``,
///   ``weakStepFraction``, ``continuationMinPhase``, ``minWalkingPeriodicity``; the defaults are
///   what the search picked on the whole corpus before the Oxford truth repair (with it, it
///   picks ``weakStepFraction`` 0 and ``continuationMinPhase`` 0.7; why the defaults stay:
///   docs/step-counter.md, "Truth repairs").
/// - **Fixed, flat in their sweep**: ``minAmplitude``, ``weakRunIntervalRatio``,
///   ``maxAmplitudeRatio``, ``alternatingIntervalRatio`` (kept at their issue-4 values).
/// - **Fixed by an argument, not the data**: ``slowRunIntervalRatio`` (the grid's time
///   resolution), ``minStepInterval`` and ``maxStepInterval`` (plausible cadences), ``maxHold``
///   (the 3 s latency budget), ``periodicityWindow`` (4–5 steps of ordinary walking).
///
/// What the sweeps of issue 17 showed to have no effect is not a parameter any more: the
/// confirmation length (4, the definition of a walk), the periodicity lag tolerance
/// (±15 %), the longest bridged input gap (1 s), the in-walk check interval (4 steps), the walk's
/// end (2.5 periods), the switches for alternating runs and missed-step filling (always on), the
/// swing ratio of gentle and of slow runs (one ``maxAmplitudeRatio``), the span of a slow run
/// (derived from ``maxHold``), and the two swing floors (one ``minSwing``).
public struct StepCounterConfiguration: Sendable, Equatable {
    // MARK: Fixed by argument (slowRunIntervalRatio below, with the run rules)

    /// Slowest plausible step (ns): consecutive candidates further apart break a run (2 s, i.e.
    /// 30 steps/min, well below the slowest adult walking).
    public var maxStepInterval: Int64 = 2_000_000_000
    /// Fastest plausible step (ns): peaks closer than this are merged, keeping the larger (0.28 s,
    /// about 214 steps/min, above everyday running cadences).
    public var minStepInterval: Int64 = 280_000_000
    /// Latency bound (ns): a candidate not confirmed this long after it happened is dropped, so
    /// every counted step is emitted within 3 s of its timestamp (2.2 s + merge and grid delays of
    /// about 0.5 s). It also decides how slow a walk can be and still be confirmed by four steps
    /// (three intervals within it); slower walks are confirmed by three (``slowRunIntervalRatio``).
    public var maxHold: Int64 = 2_200_000_000
    /// The window (ns) over which periodicity is measured, ending at the newest signal value
    /// (0.4–5.12 s; 2.5 s holds 4–5 steps of ordinary walking).
    public var periodicityWindow: Int64 = 2_500_000_000

    // MARK: Tuned

    /// A *strong* swing (peak minus preceding trough of the band-passed magnitude, m/s²). Strong
    /// runs may be less regular in time (``maxIntervalRatio``) and may confirm in the short slow and
    /// alternating forms, and while walking a weaker swing counts only if it keeps the rhythm.
    public var minAmplitude: Double = 1.7
    /// The smallest swing (m/s²) that is a candidate step at all: a gentle run of such swings
    /// (below ``minAmplitude``) confirms walking if it is regular (``weakRunIntervalRatio``) and
    /// periodic, and while walking such a swing counts if it keeps the rhythm. (Until issue 17
    /// two parameters, one to start a walk and one to continue it; apart they could not be
    /// cross-validated: only the desk recording constrains the second.)
    public var minSwing: Double = 0.8
    /// Regularity of a strong run: longest interval at most this many times the shortest.
    public var maxIntervalRatio: Double = 2.0
    /// Regularity of a gentle run (every swing below ``minAmplitude`` for at least one candidate):
    /// longest interval at most this many times the shortest.
    public var weakRunIntervalRatio: Double = 1.4
    /// Regularity of any run: the largest swing at most this many times the smallest (the
    /// walk's first step, usually weaker, is exempt).
    public var maxAmplitudeRatio: Double = 3.0
    /// A slow walk, whose four steps do not fit in ``maxHold``, is confirmed by three strong
    /// candidates spanning at least two thirds of ``maxHold``, whose longest interval is at most
    /// this many times the shortest.
    public var slowRunIntervalRatio: Double = 1.1
    /// A run of four whose swings alternate between a strong and a weaker level (one arm swing or
    /// one leg dominating each stride) confirms walking if its longest interval is at most this
    /// many times the shortest. (Not needed by any recording of the folder since the first step
    /// is exempt from the swing test, but without it a strongly asymmetric gait is not counted at
    /// all: `StepCounterSyntheticTests.asymmetricGaitIsCounted`.)
    public var alternatingIntervalRatio: Double = 1.25
    /// While walking, a weak candidate (below ``minAmplitude``) must come at least this fraction
    /// of the step period after the previous step.
    public var continuationMinPhase: Double = 0.6
    /// Periodicity gate: a run confirms walking only if the band-passed signal over the last
    /// `periodicityWindow` repeats with the run's step period or twice it: normalised
    /// autocorrelation at least this (scale-free; 0 disables the gate). The value applies as it is
    /// to a window of ``periodicityReferenceWindow``; over another window the measured correlation
    /// is first converted to the one with the same statistical evidence (equal Fisher z-score
    /// atanh(r)·√(pairs − 3)), so that a short window, where a chance rhythm is likelier, needs a
    /// higher correlation and a long one, where real cadence drifts, a lower one.
    public var minPeriodicity: Double = 0.85
    /// While walking, every ``walkingCheckSteps`` steps the periodicity (same window and lags) must
    /// stay at least this, or the walk ends and must be confirmed again (0 disables the check).
    public var minWalkingPeriodicity: Double = 0.3
    /// While walking, a candidate whose swing is below this fraction of the walk's typical swing
    /// (a running mean of the counted ones) counts only once a stronger step follows in the
    /// rhythm: the filter's ring-down after the last step, or a purse swinging on after its
    /// carrier stopped, is not followed by one (a third weak candidate in a row ends the walk).
    /// 0 counts every candidate at once.
    public var weakStepFraction: Double = 0.2

    // MARK: Constants

    /// How many consecutive regular candidates confirm walking: 4 ("a bout of 4 or more regular
    /// steps is walking", issue 17); 3 for a slow walk (see ``slowRunIntervalRatio``).
    public static let confirmationSteps = 4
    /// Periodicity lags are tried within ± this fraction of the step period (and of twice it).
    public static let periodicityTolerance = 0.15
    /// Longest input gap (ns) bridged by interpolation; a longer gap restarts the analysis.
    public static let maxInputGap: Int64 = 1_000_000_000
    /// How often (in counted steps) the walking periodicity is checked when
    /// ``minWalkingPeriodicity`` is on.
    public static let walkingCheckSteps = 4
    /// Once walking, a gap longer than this many step periods ends the walk: one step that left no
    /// clear peak (a gap of 1.6–2.5 periods, counted half-way) is tolerated, two are not.
    public static let maxGapInPeriods = 2.5
    /// The window length (2.5 s) at which `minPeriodicity` applies as it is (see `minPeriodicity`).
    public static let periodicityReferenceWindow: Int64 = 2_500_000_000

    /// The default configuration.
    public init() {}

    /// The shortest span of a slow three-step run: two thirds of ``maxHold`` (a run whose three
    /// intervals would exceed the hold window).
    public var slowRunSpan: Int64 { maxHold * 2 / 3 }

    /// Checks that the values are usable.
    /// - Throws: ``StepCounterError/invalidConfiguration(_:)`` naming the bad field.
    public func validate() throws(StepCounterError) {
        if !(minAmplitude.isFinite && minAmplitude > 0) { throw .invalidConfiguration("minAmplitude must be > 0") }
        if !(minSwing.isFinite && minSwing > 0 && minSwing <= minAmplitude) {
            throw .invalidConfiguration("minSwing must be in (0, minAmplitude]")
        }
        for (name, ratio) in [("maxIntervalRatio", maxIntervalRatio), ("weakRunIntervalRatio", weakRunIntervalRatio),
                              ("maxAmplitudeRatio", maxAmplitudeRatio), ("slowRunIntervalRatio", slowRunIntervalRatio),
                              ("alternatingIntervalRatio", alternatingIntervalRatio)] where !(ratio.isFinite && ratio >= 1) {
            throw .invalidConfiguration("\(name) must be >= 1")
        }
        if !(continuationMinPhase.isFinite && continuationMinPhase >= 0) { throw .invalidConfiguration("continuationMinPhase must be >= 0") }
        if minStepInterval <= 0 || maxStepInterval <= minStepInterval {
            throw .invalidConfiguration("need 0 < minStepInterval < maxStepInterval")
        }
        if maxHold <= 0 || maxHold / minStepInterval >= Int64(StepHoldBuffer.capacity) {
            throw .invalidConfiguration("maxHold must be > 0 and hold fewer than \(StepHoldBuffer.capacity) candidates")
        }
        if !(minPeriodicity.isFinite && minPeriodicity >= 0 && minPeriodicity <= 1) { throw .invalidConfiguration("minPeriodicity must be in [0, 1]") }
        if periodicityWindow < 10 * 40_000_000 || periodicityWindow > Int64(StepSignalHistory.capacity) * 40_000_000 {
            throw .invalidConfiguration("periodicityWindow must be in 0.4...\(Double(StepSignalHistory.capacity) * 0.04) s")
        }
        if !(minWalkingPeriodicity.isFinite && minWalkingPeriodicity >= 0 && minWalkingPeriodicity <= 1) { throw .invalidConfiguration("minWalkingPeriodicity must be in [0, 1]") }
        if !(weakStepFraction.isFinite && weakStepFraction >= 0 && weakStepFraction < 1) { throw .invalidConfiguration("weakStepFraction must be in [0, 1)") }
    }
}
