import MotionCore

/// A streaming step counter: fed batches of accelerometer samples, it appends the timestamp of
/// every counted step. It never reads a clock (time comes only from sample timestamps), does no
/// I/O, and its output (count and every timestamp) is identical for any split of the stream into
/// batches, because every stage is driven by the samples alone and all state carries across calls.
///
/// Pipeline (see `docs/step-counter.md`):
/// 1. **Resampling by timestamps.** Each sample's acceleration magnitude (orientation independent)
///    is averaged into 40 ms bins of an absolute time grid (`bin = floor(t / 40 ms)`), so jittery
///    200–400 Hz input is anti-aliased and 12.5 Hz input is linearly interpolated onto 25 Hz.
///    Gaps up to 1 s are bridged; longer gaps restart the analysis.
/// 2. **Band-pass** 0.5–2.5 Hz (causal Butterworth, ``BandPassFilter``) removes gravity and jitter.
/// 3. **Candidates**: local maxima with their swing above the preceding trough; maxima closer
///    than the fastest plausible step are merged (largest wins).
/// 4. **Rhythm and periodicity**: candidates with a swing of at least
///    ``StepCounterConfiguration/minSwing`` are held until a run of consecutive ones is
///    regular (4 with bounded interval and swing ratios, the first step exempt from the swing
///    test; or 3 slow ones; or a strong/weak-alternating run) *and* the band-passed signal repeats
///    with the run's step or stride period, over the last 2.5 s or over the run itself (normalised
///    autocorrelation, ``StepCounterConfiguration/minPeriodicity``: scale-free, so gentle walkers
///    are not lost to a fixed swing threshold and vehicles, desk work or pedalling are rejected);
///    then the held ones are released with their original timestamps and the counter is *walking*:
///    each further candidate within 2.5 step periods counts at once (weaker swings too, if in
///    rhythm; a swing much weaker than the walk's only once a stronger step follows), and a gap of
///    about two periods counts the step that left no clear peak. Unconfirmed candidates expire
///    after ``StepCounterConfiguration/maxHold``, which bounds the latency of every counted step.
///
/// Bad input (empty batch, NaN/inf or accelerations beyond ±10⁶ m/s², timestamps beyond ±4 × 10¹⁸ ns
/// or not strictly increasing: the limits of ``InputLimits``) throws ``StepCounterError`` and leaves
/// the state unchanged.
public struct StepCounter: Sendable {
    /// Largest accepted |timestamp| (4 × 10¹⁸ ns, about 126 years: ``InputLimits/timestampLimit``,
    /// equal by test): keeps all time arithmetic in range. A literal, so that the validation loop
    /// reads a constant.
    public static let timestampLimit: Int64 = 4_000_000_000_000_000_000

    /// The internal grid period: 40 ms (25 Hz).
    public static let gridPeriod: Int64 = 40_000_000

    /// The parameters in use.
    public let configuration: StepCounterConfiguration
    /// ``StepCounterConfiguration/periodicityReferenceWindow`` in grid points.
    static let referenceWindowGrid = Int(StepCounterConfiguration.periodicityReferenceWindow / gridPeriod)
    /// Steps counted so far.
    public private(set) var count = 0
    /// Samples consumed so far.
    public private(set) var samplesProcessed = 0

    // Input validation.
    private var lastTimestamp = Int64.min
    // Binning.
    private var binIndex = Int64.min
    private var binSum = 0.0
    private var binCount = 0
    // Grid (last emitted bin).
    private var gridIndex = Int64.min
    private var gridValue = 0.0
    private var gridOrigin = 0.0
    // Filter and peak detection.
    private var filter = BandPassFilter()
    private var history = StepSignalHistory()
    private var x1 = 0.0, x2 = 0.0
    private var filtered = 0
    private var trough = 0.0
    private var pendingTime = Int64.min
    private var pendingAmplitude = 0.0
    /// The pending peak's sub-grid offset (ns, within ±20 ms): see ``StepPeakRefinement``.
    private var pendingOffset: Int64 = 0
    private var hasPending = false
    /// The refined times of the newest candidates, by their grid times (what the rhythm logic decides on).
    private var refinement = StepPeakRefinement()
    // Rhythm.
    private var held = StepHoldBuffer()
    private var walking = false
    private var lastCounted = Int64.min
    private var period = 0.0
    private var stepsSinceCheck = 0
    /// The mean swing of the walk's counted steps (an exponential average).
    private var typicalSwing = 0.0
    /// The grid index of the newest filtered value.
    private var currentGrid: Int64 = 0
    /// Weak candidates waiting for a stronger step (``StepCounterConfiguration/weakStepFraction``).
    private var deferredCount = 0
    private var deferredTimes = (Int64(0), Int64(0))
    private var deferredSwings = (0.0, 0.0)

    /// Creates a counter.
    /// - Throws: ``StepCounterError/invalidConfiguration(_:)``.
    public init(configuration: StepCounterConfiguration = StepCounterConfiguration()) throws(StepCounterError) {
        try configuration.validate()
        self.configuration = configuration
    }

    /// Consumes one delivered batch, appending counted step timestamps (ns) to `steps`.
    /// - Throws: ``StepCounterError``; nothing is consumed then.
    /// - Complexity: O(batch count); no allocation except growth of `steps`.
    public mutating func process(_ batch: SampleBatch, into steps: inout [Int64]) throws(StepCounterError) {
        try process(batch.samples, into: &steps)
    }

    /// Consumes samples (oldest first), appending counted step timestamps (ns) to `steps`.
    /// - Throws: ``StepCounterError``; nothing is consumed then.
    /// - Complexity: O(samples.count).
    public mutating func process(_ samples: [Sample], into steps: inout [Int64]) throws(StepCounterError) {
        try samples.withUnsafeBufferPointer { (buffer) throws(StepCounterError) in
            try process(buffer, into: &steps)
        }
    }

    /// Consumes samples from contiguous storage (the hot path), appending counted step timestamps.
    /// - Throws: ``StepCounterError``; nothing is consumed then.
    /// - Complexity: O(samples.count): one validation pass, then one pass doing a square root and a
    ///   few additions per sample; the filter and rhythm logic run once per 40 ms of signal.
    public mutating func process(_ samples: UnsafeBufferPointer<Sample>, into steps: inout [Int64]) throws(StepCounterError) {
        if samples.isEmpty { throw .emptyBatch }
        var previous = lastTimestamp
        for i in samples.indices {
            let s = samples[i]
            // Range first: the initial `previous` is Int64.min, so an Int64.min timestamp would
            // otherwise be reported as a duplicate.
            if s.timestamp > Self.timestampLimit || s.timestamp < -Self.timestampLimit {
                throw .timestampOutOfRange(index: i, timestamp: s.timestamp)
            }
            if s.timestamp <= previous {
                throw .timestampNotIncreasing(index: i, timestamp: s.timestamp, previous: previous)
            }
            let limit = InputLimits.sampleMagnitude
            // Finite and within ±10^6 m/s^2 (false for NaN): squares and sums stay finite.
            if !(s.accel.x.magnitude <= limit && s.accel.y.magnitude <= limit && s.accel.z.magnitude <= limit) {
                throw .nonFiniteValue(index: i, timestamp: s.timestamp)
            }
            previous = s.timestamp
        }
        lastTimestamp = previous
        samplesProcessed += samples.count

        var bin = binIndex
        var sum = binSum
        var n = binCount
        for i in samples.indices {
            let s = samples[i]
            let k = Self.floorDiv(s.timestamp, Self.gridPeriod)
            let a = s.accel
            let m = (a.x * a.x + a.y * a.y + a.z * a.z).squareRoot()
            if k != bin {
                if n > 0 { closeBin(bin, value: sum / Double(n), into: &steps) }
                bin = k
                sum = 0
                n = 0
            }
            sum += m
            n += 1
        }
        binIndex = bin
        binSum = sum
        binCount = n
    }

    /// Floor division for possibly negative timestamps.
    @inline(__always)
    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// A bin is complete: emit it (and interpolated bins for a short gap) onto the grid.
    private mutating func closeBin(_ k: Int64, value v: Double, into steps: inout [Int64]) {
        if gridIndex == Int64.min || k - gridIndex > StepCounterConfiguration.maxInputGap / Self.gridPeriod {
            if hasPending {
                // The signal stops here: the last candidate cannot be merged with anything later.
                hasPending = false
                accept(time: pendingTime, offset: pendingOffset, amplitude: pendingAmplitude, into: &steps)
            }
            restart(origin: v)
            feed(k, v, into: &steps)
        } else {
            let gap = k - gridIndex
            let v0 = gridValue
            var j = gridIndex + 1
            while j < k {
                feed(j, v0 + (v - v0) * Double(j - gridIndex) / Double(gap), into: &steps)
                j += 1
            }
            feed(k, v, into: &steps)
        }
        gridIndex = k
        gridValue = v
    }

    /// The stream is interrupted here (a pause, a lost device): the samples of the open 40 ms bin
    /// are emitted, a step candidate waiting for its neighbours is decided as at the end of a
    /// signal, and the next sample starts the analysis afresh (as after an input gap longer than
    /// ``StepCounterConfiguration/maxInputGap``), however soon it comes: the interval is never
    /// interpolated. Steps already counted stay; held candidates of an unconfirmed run expire.
    /// Appends the steps this decides to `steps`.
    /// - Complexity: O(1) grid points.
    public mutating func interrupt(into steps: inout [Int64]) {
        if binCount > 0 { closeBin(binIndex, value: binSum / Double(binCount), into: &steps) }
        binIndex = Int64.min
        binSum = 0
        binCount = 0
        if hasPending {
            hasPending = false
            accept(time: pendingTime, offset: pendingOffset, amplitude: pendingAmplitude, into: &steps)
        }
        // The next bin restarts the analysis (see closeBin).
        gridIndex = Int64.min
    }

    /// Forgets the signal history (at start and after a long input gap). Steps already counted stay.
    private mutating func restart(origin: Double) {
        gridOrigin = origin
        filter.reset()
        history.reset()
        x1 = 0; x2 = 0; filtered = 0
        trough = 0
        hasPending = false
        held.removeAll()
        walking = false
        deferredCount = 0
    }

    /// One grid value: filter, detect the peak at the previous grid point, run the rhythm logic.
    @inline(__always)
    private mutating func feed(_ j: Int64, _ value: Double, into steps: inout [Int64]) {
        let x = filter.step(value - gridOrigin)
        history.push(x)
        filtered += 1
        currentGrid = j
        if filtered >= 3 {
            // Evaluate grid point j-1 (value x1): now its right neighbour x is known.
            let t = (j - 1) * Self.gridPeriod
            trough = Swift.min(trough, x1)
            if hasPending && t - pendingTime >= configuration.minStepInterval {
                hasPending = false
                accept(time: pendingTime, offset: pendingOffset, amplitude: pendingAmplitude, into: &steps)
            }
            if x1 > x2 && x1 >= x {
                let amplitude = x1 - trough
                trough = x1
                if amplitude >= configuration.minSwing {
                    if !hasPending || amplitude > pendingAmplitude {
                        hasPending = true
                        pendingTime = t
                        pendingAmplitude = amplitude
                        pendingOffset = StepPeakRefinement.offset(before: x2, peak: x1, after: x, period: Self.gridPeriod)
                    }
                }
            }
        }
        x2 = x1
        x1 = x
    }

    /// Whether the last `k` held candidates form a regular run whose swings alternate between a
    /// strong and a weaker level (one arm swing or one leg per stride dominates): intervals
    /// regular (`alternatingIntervalRatio`), each of the two interleaved subsequences regular in swing
    /// (`maxAmplitudeRatio`), the stronger one at least `minAmplitude`.
    /// (Static, taking only what it reads: a method on the whole counter would make the compiler
    /// copy the counter, signal history included, at every call.)
    private static func isAlternatingRun(_ held: StepHoldBuffer, count k: Int, _ c: StepCounterConfiguration) -> Bool {
        let first = held.count - k
        var minD = Int64.max, maxD = Int64.min
        var lo = (Double.infinity, Double.infinity), hi = (-Double.infinity, -Double.infinity)
        for i in first..<held.count {
            let a = held.amplitude(i)
            if (i - first) % 2 == 0 { lo.0 = Swift.min(lo.0, a); hi.0 = Swift.max(hi.0, a) }
            else { lo.1 = Swift.min(lo.1, a); hi.1 = Swift.max(hi.1, a) }
            if i > first {
                let d = held.time(i) - held.time(i - 1)
                minD = Swift.min(minD, d); maxD = Swift.max(maxD, d)
            }
        }
        return minD >= c.minStepInterval && maxD <= c.maxStepInterval
            && Double(maxD) <= c.alternatingIntervalRatio * Double(minD)
            && hi.0 <= c.maxAmplitudeRatio * lo.0 && hi.1 <= c.maxAmplitudeRatio * lo.1
            && Swift.max(lo.0, lo.1) >= c.minAmplitude
    }

    /// A candidate step (merged peak) is final: count it, defer it, hold it, or confirm a run.
    private mutating func accept(time t: Int64, offset: Int64, amplitude: Double, into steps: inout [Int64]) {
        refinement.record(time: t, offset: offset)
        let c = configuration
        if walking {
            // The rhythm is measured from the last candidate that kept it (counted or deferred).
            let previous = deferredCount == 2 ? deferredTimes.1 : deferredCount == 1 ? deferredTimes.0 : lastCounted
            let d = Double(t - previous)
            // Once walking, weaker candidates count if they keep the rhythm (not much earlier than
            // the period) — hysteresis, so alternate weak steps at the wrist are not lost.
            if amplitude < c.minAmplitude && d < c.continuationMinPhase * period { return }
            var inRhythm = d <= Swift.min(Double(c.maxStepInterval), StepCounterConfiguration.maxGapInPeriods * period)
            if inRhythm && c.minWalkingPeriodicity > 0 {
                // Every few steps, check that the motion still repeats (a walk does; sway in a
                // vehicle, whose peaks can keep a step-like rhythm for minutes, does not).
                stepsSinceCheck += 1
                if stepsSinceCheck >= StepCounterConfiguration.walkingCheckSteps {
                    stepsSinceCheck = 0
                    let p = history.periodicity(period: period / Double(Self.gridPeriod), tolerance: StepCounterConfiguration.periodicityTolerance,
                                                window: Int(c.periodicityWindow / Self.gridPeriod),
                                                referenceWindow: Self.referenceWindowGrid, reaching: c.minWalkingPeriodicity)
                    if p < c.minWalkingPeriodicity { inRhythm = false }
                }
            }
            if inRhythm && amplitude < c.weakStepFraction * typicalSwing {
                // Much weaker than the walk: a step only if a stronger one follows (the filter's
                // ring-down after the last step, or a bag swinging on, is not followed by one).
                if deferredCount < 2 {
                    if deferredCount == 0 { deferredTimes.0 = t; deferredSwings.0 = amplitude } else { deferredTimes.1 = t; deferredSwings.1 = amplitude }
                    deferredCount += 1
                    return
                }
                inRhythm = false // a third weak candidate in a row: the walk has ended
            }
            if inRhythm {
                if deferredCount > 0 {
                    // A stronger step: the weak ones before it were steps (unless too old to be
                    // announced within the latency bound).
                    for k in 0..<deferredCount {
                        let (time, swing) = k == 0 ? (deferredTimes.0, deferredSwings.0) : (deferredTimes.1, deferredSwings.1)
                        if t - time > c.maxHold { continue }
                        steps.append(refinement.refined(time))
                        count += 1
                        typicalSwing = 0.8 * typicalSwing + 0.2 * swing
                        lastCounted = time
                    }
                    deferredCount = 0
                } else if d >= 1.6 * period {
                    // About two periods since the last step: one step in the rhythm left no clear peak
                    // (common at the wrist); count it half-way.
                    let a = refinement.refined(lastCounted), b = refinement.refined(t)
                    steps.append(a + (b - a) / 2)
                    count += 1
                }
                let e = Double(t - lastCounted)
                steps.append(refinement.refined(t))
                count += 1
                if e < 1.6 * period { period = 0.8 * period + 0.2 * e }
                typicalSwing = 0.8 * typicalSwing + 0.2 * amplitude
                lastCounted = t
                return
            }
            walking = false
            deferredCount = 0
            held.removeAll()
        }
        held.append(time: t, amplitude: amplitude)
        while held.count > 0 && t - held.time(0) > c.maxHold { held.removeFirst() }
        // Find the shortest regular run ending at this candidate that is long enough: at least
        // `confirmationSteps` candidates, or 3 strong ones spanning `slowRunSpan` (slow walking).
        guard held.count >= 3 else { return }
        var confirmedRun = 0
        var minD = Int64.max, maxD = Int64.min
        var minA = held.amplitude(held.count - 1), maxA = minA
        var n = 1
        while n < held.count {
            let i = held.count - 1 - n
            let d = held.time(i + 1) - held.time(i)
            minD = Swift.min(minD, d); maxD = Swift.max(maxD, d)
            n += 1
            // The oldest candidate of the run, the walk's first step, is exempt from the swing
            // test (a step from standing is weaker); it joins it once the run reaches further back.
            // Strong runs (every swing >= minAmplitude) may be less regular in time; weaker runs
            // (gentle walking) must be very regular.
            let strong = minA >= c.minAmplitude
            guard minD >= c.minStepInterval, maxD <= c.maxStepInterval,
                  Double(maxD) <= (strong ? c.maxIntervalRatio : c.weakRunIntervalRatio) * Double(minD),
                  maxA <= c.maxAmplitudeRatio * minA else { break }
            if n >= StepCounterConfiguration.confirmationSteps
                || (n >= 3 && strong && t - held.time(i) >= c.slowRunSpan
                    && Double(maxD) <= c.slowRunIntervalRatio * Double(minD)) {
                confirmedRun = n
                break
            }
            let a = held.amplitude(i)
            minA = Swift.min(minA, a); maxA = Swift.max(maxA, a)
        }
        if confirmedRun == 0 && held.count >= StepCounterConfiguration.confirmationSteps
            && Self.isAlternatingRun(held, count: StepCounterConfiguration.confirmationSteps, c) {
            confirmedRun = StepCounterConfiguration.confirmationSteps
        }
        guard confirmedRun > 0 else { return }
        let medianInterval = held.medianInterval(ofLast: confirmedRun)
        if c.minPeriodicity > 0 {
            // Scale-free periodicity gate: the band-passed signal must repeat with the run's step
            // period (or stride, twice it), over the last `periodicityWindow` or over the run
            // itself (from half a step before its first candidate): at a walk's start the long
            // window still holds the standing before it, which does not repeat.
            let lag = medianInterval / Double(Self.gridPeriod)
            let full = Int(c.periodicityWindow / Self.gridPeriod)
            let start = Self.floorDiv(held.time(held.count - confirmedRun) - Int64(medianInterval / 2), Self.gridPeriod)
            let run = Swift.max(10, Swift.min(full, Int(currentGrid - start) + 1))
            var periodicity = history.periodicity(period: lag, tolerance: StepCounterConfiguration.periodicityTolerance,
                                                  window: full, referenceWindow: Self.referenceWindowGrid, reaching: c.minPeriodicity)
            if run < full && periodicity < c.minPeriodicity {
                periodicity = history.periodicity(period: lag, tolerance: StepCounterConfiguration.periodicityTolerance,
                                                  window: run, referenceWindow: Self.referenceWindowGrid, reaching: c.minPeriodicity)
            }
            if periodicity < c.minPeriodicity { return }
        }
        // Confirmed: release every held candidate with its own timestamp.
        var swings = 0.0
        for i in 0..<held.count {
            steps.append(refinement.refined(held.time(i)))
            swings += held.amplitude(i)
        }
        count += held.count
        typicalSwing = swings / Double(held.count)
        lastCounted = held.time(held.count - 1)
        period = medianInterval
        stepsSinceCheck = 0
        held.removeAll()
        walking = true
    }
}
