/// What a step counter produced over a stream: the total, every step's time, and cadence over time.
public struct StepSummary: Sendable, Equatable {
    /// Step timestamps (ns), increasing.
    public var timestamps: [Int64]

    /// Steps inferred from the gait period where the counter located none (``InferredSteps``),
    /// never part of ``timestamps`` or ``count``; nil when not inferred (no activity classifier,
    /// or `--no-inferred-steps`).
    public var inferred: InferredSteps?

    /// Creates a summary from step timestamps (and the inferred steps, if any).
    public init(timestamps: [Int64], inferred: InferredSteps? = nil) {
        self.timestamps = timestamps
        self.inferred = inferred
    }

    /// Total number of steps.
    public var count: Int { timestamps.count }

    /// Walking cadence in steps per minute: 60 s divided by the median interval between consecutive
    /// steps that are at most 2 s apart (i.e. within a walk); `nil` with fewer than two such steps.
    /// - Complexity: O(n log n).
    public var cadence: Double? {
        var intervals: [Int64] = []
        for i in timestamps.indices.dropFirst() {
            let d = timestamps[i] - timestamps[i - 1]
            if d <= 2_000_000_000 { intervals.append(d) }
        }
        guard !intervals.isEmpty else { return nil }
        intervals.sort()
        let n = intervals.count
        let median = n % 2 == 1 ? Double(intervals[n / 2]) : 0.5 * Double(intervals[n / 2 - 1] + intervals[n / 2])
        return 60e9 / median
    }

    /// One point of the cadence time series.
    public struct CadencePoint: Sendable, Equatable {
        /// Start of the window (ns, a multiple of the window length).
        public var start: Int64
        /// Steps in the window scaled to steps per minute.
        public var stepsPerMinute: Double
    }

    /// Cadence over time: steps counted in fixed windows aligned to multiples of `window` ns,
    /// scaled to steps per minute, from the first to the last step's window. A run of windows
    /// without steps is one zero point at the run's first window (each point's value holds until
    /// the next point's start), so steps years apart cost two points, not a point per window.
    /// - Complexity: O(n), at most 2n − 1 points for n steps.
    public func cadenceSeries(window: Int64 = 10_000_000_000) -> [CadencePoint] {
        guard !timestamps.isEmpty, window > 0 else { return [] }
        let scale = 60e9 / Double(window)
        var points: [CadencePoint] = []
        var current = StepCounter.floorDiv(timestamps[0], window)
        var count = 0
        for t in timestamps {
            let w = StepCounter.floorDiv(t, window)
            if w != current {
                points.append(CadencePoint(start: current * window, stepsPerMinute: Double(count) * scale))
                if w > current + 1 { points.append(CadencePoint(start: (current + 1) * window, stepsPerMinute: 0)) }
                current = w
                count = 0
            }
            count += 1
        }
        points.append(CadencePoint(start: current * window, stepsPerMinute: Double(count) * scale))
        return points
    }
}
