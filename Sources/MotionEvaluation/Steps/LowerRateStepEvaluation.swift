import MotionAnalysis
import MotionCore

/// The step counter at lower rates than the recordings' own (issue 23: "every set also at lower
/// rates than its own, decimated with an anti-aliasing filter, down to 12.5 Hz; counts within 2 %
/// of the source rate's"): every Oxford, Bangle.js and non-walking recording at each rate of
/// ``LowerRate/standardRates`` below its own (``LowerRate``; the Bangle.js files, already at
/// 12.5 Hz, are never upsampled and so take no part), counted by the counter alone
/// (``StepEvaluation/count(_:configuration:directory:)``) with the configuration its source's fold
/// chose (leave one source out), and compared with the same count at the recording's own rate.
public struct LowerRateStepEvaluation: Sendable {
    /// One recording at one lower rate.
    public struct File: Sendable, Equatable {
        /// Path relative to the datasets folder.
        public var path: String
        /// The evaluation set.
        public var set: StepEvaluation.Set
        /// Steps at the recording's own rate.
        public var sourceCount: Int
        /// Steps at the lower rate.
        public var counted: Int
        /// Ground-truth steps.
        public var truth: Int
        /// Duration, seconds.
        public var seconds: Double

        /// Creates a file's result.
        public init(path: String, set: StepEvaluation.Set, sourceCount: Int, counted: Int, truth: Int, seconds: Double) {
            self.path = path
            self.set = set
            self.sourceCount = sourceCount
            self.counted = counted
            self.truth = truth
            self.seconds = seconds
        }

        /// Change against the own rate's count, percent of it (0 when both are 0; 100 when only
        /// the own rate's count is 0).
        public var changePercent: Double { StepEvaluation.SourceChange.changePercent(counted, against: sourceCount) }
    }

    /// Every recording at one rate.
    public struct Rate: Sendable, Equatable {
        /// The rate, Hz.
        public var rateHz: Double
        /// Per recording, corpus order.
        public var files: [File]

        /// Creates a rate's results.
        public init(rateHz: Double, files: [File]) {
            self.rateHz = rateHz
            self.files = files
        }

        /// The walks (files with truth > 0).
        public var walks: [File] { files.filter { $0.truth > 0 } }
        /// Mean |change| against the own rate over the walks, percent.
        public var meanAbsChangePercent: Double {
            let w = walks
            return w.isEmpty ? 0 : w.map { abs($0.changePercent) }.reduce(0, +) / Double(w.count)
        }
        /// Largest |change| over the walks, percent.
        public var worstAbsChangePercent: Double { walks.map { abs($0.changePercent) }.max() ?? 0 }
        /// MAPE against the truth over the walks at this rate, percent.
        public var mape: Double {
            let w = walks
            return w.isEmpty ? 0 : w.map { 100 * abs(Double($0.counted - $0.truth)) / Double($0.truth) }.reduce(0, +) / Double(w.count)
        }
        /// Steps beyond the truth in the non-walking recordings, per hour of them.
        public var nonWalkingFalseStepsPerHour: Double {
            let n = files.filter { $0.set == .nonWalking }
            let h = n.map(\.seconds).reduce(0, +) / 3600
            return h > 0 ? Double(n.map { max(0, $0.counted - $0.truth) }.reduce(0, +)) / h : 0
        }
    }

    /// The sets taken (derived sets are left out: they are built from these).
    public static let sets: [StepEvaluation.Set] = [.oxford, .bangleWalks, .nonWalking]

    /// Target: the walks' mean |change| against the own rate at every rate, percent.
    public static let targetChangePercent = 2.0

    /// The verdict on the worst rate's mean |change|; nil without rates.
    public static func verdict(_ rates: [Rate]) -> TargetVerdict? {
        guard let worst = rates.map(\.meanAbsChangePercent).max() else { return nil }
        return TargetVerdict(set: "lower_rates", name: "max_mean_abs_change_percent", value: worst,
                             target: targetChangePercent, comparison: .atMost)
    }

    /// Counts the recordings of `corpus` at each of `rates` below their own.
    /// - Parameters:
    ///   - configuration: the configuration of a recording's unit (its source's fold).
    /// - Throws: as ``StepEvaluation/count(_:configuration:directory:)``.
    public static func run(_ corpus: StepCorpus, rates: [Double] = LowerRate.standardRates,
                           configuration: (String) -> StepCounterConfiguration) throws -> [Rate] {
        var perRate = rates.map { Rate(rateHz: $0, files: []) }
        for r in corpus.recordings where sets.contains(r.set) {
            let below = LowerRate.rates(below: r.samples, from: rates)
            guard !below.isEmpty else { continue }
            let c = configuration(r.unit)
            let own = try StepEvaluation.count(r, configuration: c, directory: corpus.directory).count
            for rate in below {
                var low = r
                low.samples = LowerRate.apply(r.samples, rateHz: rate)
                low.declaredRateHz = rate
                let n = try StepEvaluation.count(low, configuration: c, directory: corpus.directory).count
                let i = perRate.firstIndex { $0.rateHz == rate }!
                perRate[i].files.append(File(path: r.path, set: r.set, sourceCount: own, counted: n, truth: r.truth, seconds: r.durationSeconds))
            }
        }
        return perRate.filter { !$0.files.isEmpty }
    }
}
