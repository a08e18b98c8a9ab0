import MotionAnalysis

/// How a classifier's timeline agrees with ground-truth label runs on the still-versus-walking
/// question of issue 12: the time where both say still (sitting, standing, lying) or both say
/// walking (level, upstairs, downstairs), over the labelled still and walking time, each run
/// trimmed by ``margin`` at both ends (the 2 s around label changes are not judged); and, for
/// every still → walking onset, how long after it the classifier announced walking.
public struct ActivityAgreement: Sendable, Equatable {
    /// Seconds trimmed from both ends of every judged run (a 2 s band around each change).
    public static let margin: Int64 = 1_000_000_000
    /// Longest stretch (ns) of transitions or unlabelled time between a still run and a walking run
    /// for the walking run's start to count as a still → walking onset (HAPT puts a posture
    /// transition and a few unlabelled seconds between lying or standing and the first walk).
    public static let onsetBridge: Int64 = 20_000_000_000

    /// The truth class of a label: `.still`, `.walking`, or nil (transitions, unlabelled).
    public static func truthClass(_ label: String?) -> ActivityClass? {
        switch label {
        case "sitting", "standing", "lying", "still", "stationary": return .still
        case "walking", "walking_upstairs", "walking_downstairs": return .walking
        default: return nil
        }
    }

    /// Judged seconds where the timeline agrees.
    public var agreeingSeconds: Double
    /// Judged seconds.
    public var judgedSeconds: Double
    /// Per still → walking onset: the announcement time minus the start of the walking label (s;
    /// negative when walking was announced during the unlabelled seconds before it), nil when
    /// walking was never announced during that walking run.
    public var onsetDelays: [Double?]
    /// Per onset: the announcement time minus the end of the still or posture-transition label
    /// before it (s): an upper bound of the true delay, since HAPT leaves the seconds between
    /// standing up and the walking label unlabelled (the subject may already walk there).
    public var postureEndDelays: [Double?]

    /// The step counter against the classifier over the same recording (``GaitAgreement``: seconds
    /// of walking without steps, steps outside walking), when the steps were counted beside it.
    public var gait = GaitAgreement()

    /// Agreement in percent of the judged time (100 when nothing was judged).
    public var percent: Double { judgedSeconds > 0 ? 100 * agreeingSeconds / judgedSeconds : 100 }

    /// Compares `timeline` with `truth`.
    /// - Complexity: O(runs × segments) in the worst case; runs and segments are both short lists.
    public init(truth: LabelRuns, timeline: ActivityTimeline) {
        var agree = 0.0, judged = 0.0
        var onsets: [Double?] = [], fromPosture: [Double?] = []
        var lastStillEnd: Int64?
        var postureEnd: Int64?
        for run in truth.runs {
            if run.label == "transition" { postureEnd = run.end }
            guard let c = Self.truthClass(run.label) else { continue }
            let a = run.start + Self.margin, b = run.end - Self.margin
            if b > a {
                judged += Double(b - a) / 1e9
                agree += timeline.seconds(from: a, to: b)[c.index]
            }
            if c == .still {
                lastStillEnd = run.end
                postureEnd = run.end
            } else {
                if let e = lastStillEnd, run.start - e <= Self.onsetBridge {
                    let walk = timeline.segments.first { $0.label == .walking && $0.end > run.start && $0.start < run.end && $0.announced >= run.start - Self.onsetBridge }
                    onsets.append(walk.map { Double($0.announced - run.start) / 1e9 })
                    let p = Swift.max(e, postureEnd ?? e)
                    fromPosture.append(walk.map { Double($0.announced - p) / 1e9 })
                }
                lastStillEnd = nil
            }
        }
        agreeingSeconds = agree
        judgedSeconds = judged
        onsetDelays = onsets
        postureEndDelays = fromPosture
    }

    /// Creates figures directly (for pooling).
    public init(agreeingSeconds: Double, judgedSeconds: Double, onsetDelays: [Double?], postureEndDelays: [Double?]) {
        self.agreeingSeconds = agreeingSeconds
        self.judgedSeconds = judgedSeconds
        self.onsetDelays = onsetDelays
        self.postureEndDelays = postureEndDelays
    }

    /// Several recordings' figures pooled: seconds summed, onsets concatenated.
    public static func pooled(_ parts: [ActivityAgreement]) -> ActivityAgreement {
        var a = ActivityAgreement(agreeingSeconds: parts.reduce(0) { $0 + $1.agreeingSeconds },
                                  judgedSeconds: parts.reduce(0) { $0 + $1.judgedSeconds },
                                  onsetDelays: parts.flatMap(\.onsetDelays), postureEndDelays: parts.flatMap(\.postureEndDelays))
        a.gait = .pooled(parts.map(\.gait))
        return a
    }

    /// Median of ``onsetDelays`` (s), a missed onset counting as infinitely late; nil without onsets.
    public var medianOnsetSeconds: Double? { Self.median(onsetDelays) }

    /// Median of ``postureEndDelays`` (s), as ``medianOnsetSeconds``.
    public var medianPostureEndSeconds: Double? { Self.median(postureEndDelays) }

    static func median(_ values: [Double?]) -> Double? { values.map { $0 ?? .infinity }.median }

    /// Onsets never announced.
    public var missedOnsets: Int { onsetDelays.filter { $0 == nil }.count }
}
