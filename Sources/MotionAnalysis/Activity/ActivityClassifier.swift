import MotionCore

/// A streaming activity classifier: fed batches of samples, it keeps a timeline of activity
/// segments (``ActivityClass``) and tells, per batch, which changes it announced and up to when its
/// vehicle decisions are final. It never reads a clock (time comes only from sample timestamps),
/// does no I/O, and its timeline is identical for any split of the stream into batches: every
/// stage is driven by the samples alone on an absolute time grid.
///
/// Stages (see `docs/activity-classifier.md`):
/// 1. **Grid.** Acceleration (and angular rate) vectors are averaged into 40 ms bins of the
///    absolute grid `floor(t / 40 ms)`; missing bins are interpolated, so 12.5-400 Hz input
///    gives the same 25 Hz signal. A gap longer than ``ActivityClassifierConfiguration/maxInputGap``
///    closes the segment, becomes an `unknown` segment and restarts the analysis.
/// 2. **Windows** of 4 s every 0.4 s (ending on multiples of 0.4 s of the sample clock):
///    orientation-free ``ActivityFeatures`` (gravity = the window's mean, vertical/horizontal split,
///    gait periodicity, vibration floor, rotation).
/// 3. **Evidence** per window: soft rules (``ActivityEvidence``).
/// 4. **Hysteresis** (``ActivityHysteresis``): per-pair evidence times and minimum holds, changes
///    announced at the deciding window and back-dated to where the evidence began.
///
/// Bad input (empty batch, NaN/inf, timestamps not strictly increasing or beyond ±2⁶² ns) throws
/// ``ActivityClassifierError`` and leaves the state unchanged.
public struct ActivityClassifier: Sendable {
    /// The parameters in use.
    public let configuration: ActivityClassifierConfiguration
    /// Whether the stream's angular rate is used.
    public let usesGyroscope: Bool

    private static let grid = ActivityClassifierConfiguration.gridPeriod
    private static let width = ActivityClassifierConfiguration.windowPoints
    private static let hop = Int64(ActivityClassifierConfiguration.hopPoints)

    // Validation.
    private var lastTimestamp = Int64.min
    // Binning (sums of the open bin: ax, ay, az, gx, gy, gz in lanes 0-5). The six channels are
    // held in SIMD values, not arrays: updated for every sample, they then need no uniqueness
    // check or reference counting (the per-sample cost of delivering one sample at a time).
    private var bin = SIMD8<Double>()
    private var binIndex = Int64.min
    private var binCount = 0
    // Grid: the last emitted point and the ring of the last `width` points (channel c's point
    // j at `c * width + j`, one array for all six channels).
    private var gridIndex = Int64.min
    private var last = SIMD8<Double>()
    /// The point being emitted (a closed bin, or one interpolated before it).
    private var point = SIMD8<Double>()
    private var closing = SIMD8<Double>()
    private var ring = [Double](repeating: 0, count: 6 * width)
    private var filled = 0
    // Window scratch: the ring unrolled, vertical component, |a|.
    private var unrolled: [[Double]] = Array(repeating: [Double](repeating: 0, count: width), count: 6)
    private var scratchV = [Double](repeating: 0, count: width)
    private var scratchM = [Double](repeating: 0, count: width)
    // Smoothing and decisions.
    private var hysteresis: ActivityHysteresis
    /// The end (ns) of the last window analysed since the (re)start, nil before one.
    private var lastWindowEnd: Int64?
    /// The (re)start instant (ns) of the analysis.
    private var restartedAt: Int64 = 0
    /// Vehicle decisions have been handed out up to here (ns, exclusive); nil before the first sample.
    private var decidedBefore: Int64?
    private var changes: [Int64] = []
    /// The stream was interrupted after the last sample (``interrupt()``).
    private var interrupted = false
    /// The last update's vehicle spans, reused by the next (see ``update(decidingBefore:)``).
    private var spanBuffer: [ActivityUpdate.VehicleSpan] = []
    /// Windows analysed so far.
    public private(set) var windows = 0
    /// Samples consumed so far.
    public private(set) var samplesProcessed = 0
    /// The features and evidence of the last window (for live display and tests).
    public private(set) var lastFeatures: ActivityFeatures?

    /// Creates a classifier.
    /// - Parameter gyroscope: whether the stream carries angular rate (``MotionCore/SensorSet/gyro``).
    /// - Throws: ``ActivityClassifierError/invalidConfiguration(_:)``.
    public init(configuration: ActivityClassifierConfiguration = ActivityClassifierConfiguration(), gyroscope: Bool = false) throws(ActivityClassifierError) {
        try configuration.validate()
        self.configuration = configuration
        usesGyroscope = gyroscope
        hysteresis = ActivityHysteresis(configuration: configuration)
    }

    /// The current class (after ``finish()`` the last one; nil before the first sample).
    public var current: ActivityClass? { hysteresis.current }

    /// The timeline so far (the open segment last, ending at the latest sample).
    public var timeline: ActivityTimeline { ActivityTimeline(segments: hysteresis.segments) }

    /// The confidence (0-100) of the current segment, `timeline.segments.last?.confidence`, in
    /// O(1): what a live view reads per delivery.
    public var currentConfidence: Double? { hysteresis.currentConfidence }

    /// Consumes one delivered batch.
    /// - Returns: the changes announced and the vehicle decisions made final.
    /// - Throws: ``ActivityClassifierError``; nothing is consumed then.
    public mutating func process(_ batch: SampleBatch) throws(ActivityClassifierError) -> ActivityUpdate {
        try batch.samples.withUnsafeBufferPointer { (b) throws(ActivityClassifierError) in try process(b) }
    }

    /// Consumes samples from contiguous storage (oldest first).
    /// - Throws: ``ActivityClassifierError``; nothing is consumed then.
    /// - Complexity: O(samples): a few additions per sample; the features (O(window × lags)) once per second of signal.
    public mutating func process(_ samples: UnsafeBufferPointer<Sample>) throws(ActivityClassifierError) -> ActivityUpdate {
        do { _ = try SampleInputError.validate(samples, after: lastTimestamp, gyroscope: usesGyroscope) } catch { throw .input(error) }
        samplesProcessed += samples.count
        for i in samples.indices {
            let s = samples[i]
            if lastTimestamp == Int64.min {
                hysteresis.start(at: s.timestamp)
                restartedAt = s.timestamp
                decidedBefore = s.timestamp
            } else if interrupted {
                // After an interruption (its segment already closed): the interval is unknown.
                interrupted = false
                restart(after: lastTimestamp, at: s.timestamp)
            } else if s.timestamp - lastTimestamp > configuration.maxInputGap {
                closeBin()
                bridgeGap(from: lastTimestamp, to: s.timestamp)
            }
            let k = floorDiv(s.timestamp, Self.grid)
            if k != binIndex {
                closeBin()
                binIndex = k
            }
            bin[0] += s.accel.x; bin[1] += s.accel.y; bin[2] += s.accel.z
            if usesGyroscope { bin[3] += s.gyro.x; bin[4] += s.gyro.y; bin[5] += s.gyro.z }
            binCount += 1
            lastTimestamp = s.timestamp
        }
        hysteresis.extend(to: lastTimestamp)
        let nextCenter = lastWindowEnd.map { $0 + Self.hop * Self.grid - Int64(Self.width / 2) * Self.grid } ?? restartedAt
        return update(decidingBefore: hysteresis.vehicleUndecidedFrom(nextWindowCenter: Swift.max(nextCenter, restartedAt), now: lastWindowEnd ?? restartedAt))
    }

    /// The stream is interrupted here (a pause, a lost device): the last bin is analysed, the open
    /// segment closes at the last sample and the decisions up to it become final; the next sample,
    /// however soon it comes, starts the analysis afresh after an `unknown` segment for the
    /// interval (as after a gap longer than ``ActivityClassifierConfiguration/maxInputGap``):
    /// nothing is interpolated across it.
    public mutating func interrupt() -> ActivityUpdate {
        guard lastTimestamp != Int64.min, !interrupted else { return ActivityUpdate() }
        closeBin()
        hysteresis.close(at: lastTimestamp)
        interrupted = true
        return update(decidingBefore: lastTimestamp + 1)
    }

    /// Ends the stream: the last bin is analysed, the open segment closes at the last sample and
    /// every vehicle decision becomes final.
    public mutating func finish() -> ActivityUpdate {
        guard lastTimestamp != Int64.min else { return ActivityUpdate() }
        closeBin()
        hysteresis.close(at: lastTimestamp)
        return update(decidingBefore: lastTimestamp + 1)
    }

    /// The update for this delivery: announced changes, and vehicle spans up to `t`. In the
    /// steady state it allocates nothing: the changes are handed over only when there are some,
    /// and the spans are written into the previous update's array, unique again once the
    /// pipeline let go of that update.
    private mutating func update(decidingBefore t: Int64) -> ActivityUpdate {
        var out = ActivityUpdate()
        if !changes.isEmpty {
            out.changes = changes
            changes = []
        }
        guard let from = decidedBefore else { return out }
        let to = Swift.max(from, Swift.min(t, lastTimestamp + 1))
        if to > from {
            var spans = spanBuffer
            spanBuffer = []
            spans.removeAll(keepingCapacity: true)
            vehicleSpans(from: from, to: to, into: &spans)
            spanBuffer = spans
            out.vehicleSpans = spans
        }
        decidedBefore = to
        out.decidedBefore = to
        return out
    }

    /// Vehicle status over `[from, to)` from the segments, merged by status, appended to `merged`
    /// (empty on entry).
    private func vehicleSpans(from: Int64, to: Int64, into merged: inout [ActivityUpdate.VehicleSpan]) {
        func add(_ s: ActivitySegment, end: Int64) {
            let a = Swift.max(from, s.start), b = Swift.min(to, end)
            guard b > a else { return }
            let inVehicle = s.label == .vehicle
            if let l = merged.last, l.inVehicle == inVehicle, l.end >= a {
                merged[merged.count - 1].end = Swift.max(l.end, b)
            } else {
                merged.append(.init(start: a, end: b, inVehicle: inVehicle))
            }
        }
        let closed = hysteresis.closed
        var i = closed.count
        while i > 0 && closed[i - 1].segment.end > from { i -= 1 }
        for j in i..<closed.count {
            // A closed segment owns [start, next start); the last closed one up to the open one.
            let end = j + 1 < closed.count ? closed[j + 1].segment.start : (hysteresis.open?.segment.start ?? to)
            add(closed[j].segment, end: end)
        }
        if let o = hysteresis.open { add(o.segment, end: to) }
        if merged.isEmpty { merged.append(.init(start: from, end: to, inVehicle: false)) }
        // Contiguous cover of [from, to): stretch the first and last pieces to the bounds.
        merged[0].start = from
        merged[merged.count - 1].end = to
    }

    /// A gap longer than the bridge: the open segment ends at the last sample before it, the gap
    /// is an `unknown` segment, and the analysis restarts at the sample after it.
    private mutating func bridgeGap(from a: Int64, to b: Int64) {
        hysteresis.close(at: a)
        restart(after: a, at: b)
    }

    /// The interval `[a, b]` is an `unknown` segment; the analysis restarts at `b` (the open
    /// segment was closed at `a`).
    private mutating func restart(after a: Int64, at b: Int64) {
        hysteresis.append(.init(segment: ActivitySegment(start: a, end: b, label: .unknown, confidence: 0, announced: b), confidenceSum: 0, windows: 0))
        hysteresis.start(at: b)
        restartedAt = b
        gridIndex = Int64.min
        filled = 0
        lastWindowEnd = nil
    }

    /// Closes the open bin: emits it onto the grid (with interpolated points for missed bins).
    private mutating func closeBin() {
        guard binCount > 0 else { return }
        let n = Double(binCount)
        for c in 0..<6 { closing[c] = bin[c] / n; bin[c] = 0 }
        binCount = 0
        let k = binIndex
        if gridIndex != Int64.min && k - gridIndex > 1 {
            let gap = Double(k - gridIndex)
            var j = gridIndex + 1
            while j < k {
                let f = Double(j - gridIndex) / gap
                for c in 0..<6 { point[c] = last[c] + (closing[c] - last[c]) * f }
                push(j)
                j += 1
            }
        }
        for c in 0..<6 { point[c] = closing[c]; last[c] = closing[c] }
        push(k)
        gridIndex = k
    }

    /// One grid point (``point``); analyses a window when it ends a whole hop and the ring is full.
    private mutating func push(_ j: Int64) {
        let slot = Int(((j % Int64(Self.width)) + Int64(Self.width)) % Int64(Self.width))
        let p = point
        ring.withUnsafeMutableBufferPointer { r in for c in 0..<6 { r[c * Self.width + slot] = p[c] } }
        filled += 1
        let end = (j + 1) * Self.grid
        // From a (re)start, the first windows are shorter (from 2.4 s, the short-gait window, in
        // steps of four points) until the ring holds a whole window; they count only for gait.
        guard filled >= Self.firstWindow, floorMod(j + 1, Self.hop) == 0 else { return }
        analyse(endingAt: j, end: end, points: Swift.min(Self.width, filled / 4 * 4))
    }

    /// The shortest window analysed after a (re)start, grid points (2.4 s).
    static let firstWindow = ActivityFeatures.shortPoints

    private mutating func analyse(endingAt j: Int64, end: Int64, points n: Int) {
        let w = Self.width
        assert(n >= Self.firstWindow && n <= w && n % 4 == 0, "window of \(n) points")
        let first = j - Int64(n) + 1
        // The window's points are ring slots start, start + 1, ... (wrapping once at most): two
        // contiguous copies per channel.
        let start = Int(((first % Int64(w)) + Int64(w)) % Int64(w))
        let head = Swift.min(n, w - start)
        ring.withUnsafeBufferPointer { ring in
            for c in 0..<6 {
                unrolled[c].withUnsafeMutableBufferPointer { out in
                    let base = ring.baseAddress! + c * w
                    out.baseAddress!.update(from: base + start, count: head)
                    if head < n { (out.baseAddress! + head).update(from: base, count: n - head) }
                }
            }
        }
        let gyro = usesGyroscope
        let f = unrolled[0].withUnsafeBufferPointer { ax in unrolled[1].withUnsafeBufferPointer { ay in unrolled[2].withUnsafeBufferPointer { az in
            unrolled[3].withUnsafeBufferPointer { gx in unrolled[4].withUnsafeBufferPointer { gy in unrolled[5].withUnsafeBufferPointer { gz in
                scratchV.withUnsafeMutableBufferPointer { v in scratchM.withUnsafeMutableBufferPointer { m in
                    ActivityFeatures.compute(n: n, ax: ax.baseAddress!, ay: ay.baseAddress!, az: az.baseAddress!,
                                             gx: gx.baseAddress!, gy: gy.baseAddress!, gz: gz.baseAddress!, hasGyro: gyro,
                                             v: v.baseAddress!, m: m.baseAddress!)
                } }
            } } }
        } } }
        lastFeatures = f
        let riding = hysteresis.current == .vehicle || hysteresis.current == .cycling
        let evidence = ActivityEvidence(f, configuration, shortGait: !riding)
        // A shorter first window counts only for gait (a walk starting at once is found 1.6 s
        // sooner); anything else waits for a whole window, as it always did.
        if n < w && evidence.favoured != .walking && evidence.favoured != .running { return }
        windows += 1
        // The first window after a (re)start speaks for the stretch from the start on.
        let center = lastWindowEnd == nil ? restartedAt : end - Int64(n / 2) * Self.grid
        lastWindowEnd = end
        if let change = hysteresis.observe(center: center, end: end, evidence) {
            changes.append(change)
        }
    }

    @inline(__always)
    private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    @inline(__always)
    private func floorMod(_ a: Int64, _ b: Int64) -> Int64 { ((a % b) + b) % b }
}
