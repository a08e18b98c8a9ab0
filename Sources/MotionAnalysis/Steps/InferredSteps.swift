/// Steps inferred from the gait period where the activity classifier is certain of gait but the
/// step counter located no step: kept apart from the counted steps (``StepSummary``), marked as
/// inferred in every output, and off with `--no-inferred-steps`.
///
/// A *silence* is a stretch between two consecutive counted steps, both inside one run of
/// `walking`/`running` segments, longer than ``minSilenceSeconds`` (at most
/// ``maxSilenceSeconds``) and longer than twice the gait period there, that the signal moved
/// through: every whole second in it has a standard deviation of |a| of at least
/// ``minSilenceMotion`` (the step counter's analyzer finds these while it counts). The classifier
/// holds `walking` through a short real pause (its minimum hold); a pause has still seconds, so no
/// step is inferred in it. The gait period is the median interval of the counted steps of that run next to
/// the silence (up to ``periodSteps`` intervals before it, else after it; intervals above
/// ``maxPeriodSeconds`` are pauses and not used); without ``minPeriodSteps`` such intervals there
/// is no period and nothing is inferred. A silence of length `d` at period `p` gets
/// `floor(d / p) − 1` steps, evenly spaced: at most one per gait period, never more than the
/// signal's own rhythm. Nothing is inferred before a run's first counted step or after its last
/// (the run's bounds are back-dated by the classifier and not precise enough to count steps by).
///
/// Computed from the final step times and activity timeline, both identical for every split of
/// the stream into batches, so the inferred steps are too.
public struct InferredSteps: Sendable, Equatable {
    /// A silence of the counter filled with inferred steps.
    public struct Stretch: Sendable, Equatable {
        /// The counted step before the silence (ns).
        public var start: Int64
        /// The counted step after it (ns).
        public var end: Int64
        /// The gait period the steps were placed by (ns).
        public var period: Int64
        /// The inferred steps' times (ns), increasing, strictly between ``start`` and ``end``.
        public var times: [Int64]

        /// Creates a stretch.
        public init(start: Int64, end: Int64, period: Int64, times: [Int64]) {
            self.start = start
            self.end = end
            self.period = period
            self.times = times
        }
    }

    /// A stretch between two counted steps that the signal moved through (ns), found while
    /// counting: a candidate silence.
    public struct Silence: Sendable, Equatable {
        /// The counted step before it (ns).
        public var start: Int64
        /// The counted step after it (ns).
        public var end: Int64

        /// Creates a silence.
        public init(start: Int64, end: Int64) {
            self.start = start
            self.end = end
        }
    }

    /// A silence shorter than this (s) is not filled: about two steps of the slowest walk the
    /// counter follows (the evaluation's counter-vs-classifier silences use the same 2 s).
    public static let minSilenceSeconds = 2.0
    /// A silence longer than this (s) is not filled.
    public static let maxSilenceSeconds = 300.0
    /// Every whole second of a silence must have at least this standard deviation of |a| (m/s²):
    /// twice the classifier's device-at-rest limit (``ActivityClassifierConfiguration/stillMotion``,
    /// 0.15). The still pieces between the bout test's bouts (real pauses of the Oxford walkers,
    /// which the classifier holds as `walking`) have at most 0.24 in their stillest second.
    public static let minSilenceMotion = 0.3
    /// Counted step intervals above this (s) are pauses, not a gait period.
    public static let maxPeriodSeconds = 1.5
    /// At most this many intervals next to a silence give its gait period.
    public static let periodSteps = 8
    /// At least this many intervals are needed for a period.
    public static let minPeriodSteps = 4

    /// The filled silences, in time order.
    public var stretches: [Stretch]

    /// No inferred step.
    public init() { stretches = [] }

    /// The inferred steps of counted `steps` (increasing, ns) under `timeline`, in the silences
    /// of `moving` (increasing; each between two consecutive steps of `steps`).
    /// - Complexity: O(steps + segments + moving).
    public init(steps: [Int64], timeline: ActivityTimeline, moving: [Silence]) {
        stretches = []
        guard !moving.isEmpty else { return }
        let segments = timeline.segments
        var i = 0
        var s = 0
        var m = 0
        while s < segments.count {
            // A run of gait segments [runStart, runEnd).
            guard Self.isGait(segments[s].label) else { s += 1; continue }
            let runStart = segments[s].start
            var runEnd = segments[s].end
            s += 1
            while s < segments.count && Self.isGait(segments[s].label) { runEnd = segments[s].end; s += 1 }
            while i < steps.count && steps[i] < runStart { i += 1 }
            let first = i
            while i < steps.count && steps[i] < runEnd { i += 1 }
            fill(steps[first..<i], moving: moving, cursor: &m)
        }
    }

    private static func isGait(_ label: ActivityClass) -> Bool { label == .walking || label == .running }

    /// Fills the moving silences between the counted steps of one gait run; `cursor` walks
    /// `moving`.
    private mutating func fill(_ run: ArraySlice<Int64>, moving: [Silence], cursor m: inout Int) {
        guard run.count >= 2 else { return }
        let maxPeriod = Int64(Self.maxPeriodSeconds * 1e9)
        var k = run.startIndex
        while k + 1 < run.endIndex {
            let d = run[k + 1] - run[k]
            while m < moving.count && moving[m].start < run[k] { m += 1 }
            let isMoving = m < moving.count && moving[m].start == run[k] && moving[m].end == run[k + 1]
            if isMoving, let p = period(run, before: k, after: k + 1, maxPeriod: maxPeriod), d > 2 * p {
                let n = Int(d / p) - 1
                var times: [Int64] = []
                times.reserveCapacity(n)
                for j in 1...n { times.append(run[k] + Int64((Double(d) * Double(j) / Double(n + 1)).rounded())) }
                stretches.append(Stretch(start: run[k], end: run[k + 1], period: p, times: times))
            }
            k += 1
        }
    }

    /// The median of up to ``periodSteps`` intervals ≤ `maxPeriod` ending at index `before`
    /// (walking back), else starting at index `after` (walking forward); nil with fewer than
    /// ``minPeriodSteps``.
    private func period(_ run: ArraySlice<Int64>, before: Int, after: Int, maxPeriod: Int64) -> Int64? {
        func median(_ v: [Int64]) -> Int64? {
            guard v.count >= Self.minPeriodSteps else { return nil }
            let sorted = v.sorted()
            let n = sorted.count
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        }
        var back: [Int64] = []
        var j = before
        while j > run.startIndex && back.count < Self.periodSteps {
            let v = run[j] - run[j - 1]
            if v > maxPeriod { break }
            back.append(v)
            j -= 1
        }
        if let m = median(back) { return m }
        var forward: [Int64] = []
        j = after
        while j + 1 < run.endIndex && forward.count < Self.periodSteps {
            let v = run[j + 1] - run[j]
            if v > maxPeriod { break }
            forward.append(v)
            j += 1
        }
        return median(forward)
    }

    /// Number of inferred steps.
    public var count: Int { stretches.reduce(0) { $0 + $1.times.count } }

    /// Every inferred step's time (ns), increasing.
    public var times: [Int64] { stretches.flatMap(\.times) }
}
