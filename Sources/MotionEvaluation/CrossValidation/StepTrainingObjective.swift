/// How the cross-validation judges a configuration on the recordings it may tune on: the four
/// targets of issue 17 (Oxford MAPE, Bangle walks MAPE, non-walking false steps per hour, bout
/// recall), each figure divided by its target (for recall: the missed share by the allowed
/// missed share), so that 1 is a figure exactly at its target.
///
/// A configuration is better when it misses fewer of the four targets, then when the sum of the
/// four normalised figures is lower; a tie keeps the configuration found first.
public struct StepTrainingObjective: Sendable, Comparable {
    /// The normalised figures, in the order of ``names``; nil where the training recordings
    /// hold no recording of that set.
    public var normalised: [Double?]
    /// The figures' names.
    public static let names = ["oxford.mape_percent", "bangle_walks.mape_percent", "non_walking.false_steps_per_hour", "bouts.bout_recall"]

    /// Targets missed (normalised figure above 1).
    public var missed: Int { normalised.filter { ($0 ?? 0) > 1 }.count }
    /// The largest normalised figure: the smallest margin to any target (the rule minimises it,
    /// so that no target is met only narrowly while another is beaten by far).
    public var worst: Double { normalised.map { $0 ?? 0 }.max() ?? 0 }
    /// Sum of the normalised figures (the tie-break).
    public var loss: Double { normalised.map { $0 ?? 0 }.reduce(0, +) }

    /// The objective of counts on the training recordings.
    /// - Parameter outcomes: per recording, its set, truth, duration (s), steps counted, and
    ///   for a bout recording the true steps matched by a counted one.
    init(_ outcomes: [(set: StepEvaluation.Set, truth: Int, seconds: Double, counted: Int, matched: Int)]) {
        typealias T = StepEvaluation.Target
        func mape(_ set: StepEvaluation.Set) -> Double? {
            let e = outcomes.filter { $0.set == set && $0.truth > 0 }.map { abs(Double($0.counted - $0.truth)) / Double($0.truth) * 100 }
            return e.isEmpty ? nil : e.reduce(0, +) / Double(e.count)
        }
        let still = outcomes.filter { $0.set == .nonWalking }
        let hours = still.map(\.seconds).reduce(0, +) / 3600
        let falsePerHour: Double? = hours > 0 ? Double(still.map { max(0, $0.counted - $0.truth) }.reduce(0, +)) / hours : nil
        let bouts = outcomes.filter { $0.set == .bouts }
        let boutTruth = bouts.map(\.truth).reduce(0, +)
        let recall: Double? = boutTruth > 0 ? Double(bouts.map(\.matched).reduce(0, +)) / Double(boutTruth) : nil
        normalised = [mape(.oxford).map { $0 / T.oxfordMAPE }, mape(.bangleWalks).map { $0 / T.bangleMAPE },
                      falsePerHour.map { $0 / T.falseStepsPerHour }, recall.map { (1 - $0) / (1 - T.boutRecall) }]
    }

    /// Fewer missed targets first, then the smaller worst normalised figure, then the lower sum.
    public static func < (a: StepTrainingObjective, b: StepTrainingObjective) -> Bool {
        if a.missed != b.missed { return a.missed < b.missed }
        if a.worst != b.worst { return a.worst < b.worst }
        return a.loss < b.loss
    }
}
