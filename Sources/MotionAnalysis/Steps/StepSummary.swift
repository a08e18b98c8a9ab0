/// What a step counter produced over a stream: the total, every step's time, and cadence over time.
public struct StepSummary: Sendable, Equatable {
    /// Step timestamps (ns), increasing.
    public var timestamps: [Int64]

    /// Creates a summary from step timestamps.
    public init(timestamps: [Int64]) { self.timestamps = timestamps }

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

    /// Cadence over time: steps counted in consecutive fixed windows aligned to multiples of
    /// `window` ns, from the first to the last step's window, scaled to steps per minute.
    /// - Complexity: O(n + number of windows).
    public func cadenceSeries(window: Int64 = 10_000_000_000) -> [CadencePoint] {
        guard let first = timestamps.first, let last = timestamps.last, window > 0 else { return [] }
        func win(_ t: Int64) -> Int64 { StepCounter.floorDiv(t, window) }
        let w0 = win(first), w1 = win(last)
        var counts = [Int](repeating: 0, count: Int(w1 - w0) + 1)
        for t in timestamps { counts[Int(win(t) - w0)] += 1 }
        let scale = 60e9 / Double(window)
        return counts.enumerated().map { CadencePoint(start: (w0 + Int64($0.offset)) * window, stepsPerMinute: Double($0.element) * scale) }
    }
}
