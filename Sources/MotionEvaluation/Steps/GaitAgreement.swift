import MotionAnalysis

/// How the step counter and the activity classifier agree on one recording: the seconds the
/// classifier says `walking` or `running` while the counter counts nothing (stretches between
/// consecutive steps, or between a segment's bound and its nearest step, longer than
/// ``silenceSeconds``; each counted whole), and the steps counted outside such segments.
public struct GaitAgreement: Sendable, Equatable {
    /// A stretch of gait without a step longer than this (s) is a silence of the counter: about
    /// two steps of the slowest walk the counter follows (its 2 s longest step interval).
    public static let silenceSeconds = 2.0

    /// Seconds of `walking`/`running` segments.
    public var gaitSeconds: Double
    /// Seconds of gait inside silences of the counter.
    public var silentGaitSeconds: Double
    /// The longest silence (s).
    public var longestSilenceSeconds: Double
    /// Steps counted outside `walking`/`running` segments.
    public var stepsOutsideGait: Int
    /// Steps counted.
    public var steps: Int

    /// Creates figures directly (for pooling).
    public init(gaitSeconds: Double = 0, silentGaitSeconds: Double = 0, longestSilenceSeconds: Double = 0, stepsOutsideGait: Int = 0, steps: Int = 0) {
        self.gaitSeconds = gaitSeconds
        self.silentGaitSeconds = silentGaitSeconds
        self.longestSilenceSeconds = longestSilenceSeconds
        self.stepsOutsideGait = stepsOutsideGait
        self.steps = steps
    }

    /// Compares `steps` (increasing, ns) with `timeline`.
    /// - Complexity: O(segments + steps).
    public init(steps: [Int64], timeline: ActivityTimeline) {
        self.init(steps: steps.count)
        let limit = Int64(Self.silenceSeconds * 1e9)
        var i = 0
        for s in timeline.segments {
            let gait = s.label == .walking || s.label == .running
            var previous = s.start
            while i < steps.count && steps[i] < s.end {
                if steps[i] >= s.start {
                    if gait { note(silence: steps[i] - previous, limit: limit) } else { stepsOutsideGait += 1 }
                    previous = steps[i]
                }
                i += 1
            }
            if gait {
                gaitSeconds += Double(s.end - s.start) / 1e9
                note(silence: s.end - previous, limit: limit)
            }
        }
        // Steps after the last segment's end (none in a complete timeline) are outside gait.
        stepsOutsideGait += steps.count - i
    }

    private mutating func note(silence d: Int64, limit: Int64) {
        guard d > limit else { return }
        silentGaitSeconds += Double(d) / 1e9
        longestSilenceSeconds = Swift.max(longestSilenceSeconds, Double(d) / 1e9)
    }

    /// Several recordings' figures pooled.
    public static func pooled(_ parts: [GaitAgreement]) -> GaitAgreement {
        GaitAgreement(gaitSeconds: parts.reduce(0) { $0 + $1.gaitSeconds }, silentGaitSeconds: parts.reduce(0) { $0 + $1.silentGaitSeconds },
                      longestSilenceSeconds: parts.map(\.longestSilenceSeconds).max() ?? 0,
                      stepsOutsideGait: parts.reduce(0) { $0 + $1.stepsOutsideGait }, steps: parts.reduce(0) { $0 + $1.steps })
    }

    /// Percent of the gait time in silences (0 without gait).
    public var silentPercent: Double { gaitSeconds > 0 ? 100 * silentGaitSeconds / gaitSeconds : 0 }
    /// Percent of the steps counted outside gait (0 without steps).
    public var outsidePercent: Double { steps > 0 ? 100 * Double(stepsOutsideGait) / Double(steps) : 0 }
}
