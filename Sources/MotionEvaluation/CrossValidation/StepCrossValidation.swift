import MotionAnalysis

/// Cross-validated accuracy of the step counter (issue 17): what the figures would be on
/// recordings the parameters were not tuned on.
///
/// Units: an Oxford subject (the second part of the file name: all of that person's walks, on
/// every phone, leave together), and each Bangle.js recording on its own (the folder does not
/// say who wore the watch). Derived recordings (bouts, slow walks, arm swing) belong to the unit of the
/// walk they come from. For each unit (a *fold*), a grid search over ``StepSearchSpace`` (the
/// base configuration with every combination of the tuned values) takes, on the recordings of
/// every *other* unit, the configuration ``StepTrainingObjective`` judges best; the held-out
/// unit's recordings are then evaluated with it. Every recording is held out exactly once, so
/// the cross-validated set figures are computed over the whole corpus, each file with
/// parameters that never saw it.
///
/// Bounded: the grid is small (``StepSearchSpace/gridSize`` points); each point is counted once
/// on the whole corpus and cached, and every fold only re-aggregates those counts.
public struct StepCrossValidation {
    /// One fold: the unit held out and what the search chose without it.
    public struct Fold: Sendable {
        /// The held-out unit (empty for the search on every unit).
        public var heldOut: String
        /// The chosen value of each dimension, in the space's order.
        public var values: [Double]
        /// The chosen configuration.
        public var configuration: StepCounterConfiguration
        /// The objective of the choice on the fold's training recordings.
        public var objective: StepTrainingObjective
    }

    /// Everything a cross-validation found.
    public struct Result: Sendable {
        /// The space searched.
        public var space: StepSearchSpace
        /// The base configuration evaluated on every recording (in-sample).
        public var inSample: [StepEvaluation.SetResult]
        /// The search on every unit: what tuning on the whole corpus would choose.
        public var fullSearch: Fold
        /// One fold per held-out unit, in corpus order.
        public var folds: [Fold]
        /// Every held-out recording evaluated with its fold's configuration.
        public var crossValidated: [StepEvaluation.SetResult]
        /// Distinct configurations counted on the whole corpus.
        public var configurationsCounted: Int
        /// False steps per hour on the non-walking recordings with the counter alone, without the
        /// activity classifier's vehicle gating (what the search judges): in-sample and
        /// cross-validated (each recording with its fold's choice), over the held-out ones.
        public var counterAloneFalseStepsPerHour: (inSample: Double, crossValidated: Double)
    }

    /// The recordings.
    public let corpus: StepCorpus
    /// Where every search starts, and the parameters it does not tune.
    public let base: StepCounterConfiguration
    /// What is tuned.
    public let space: StepSearchSpace
    /// Per configuration (the values of the space's dimensions), per recording: steps counted
    /// and (bout recordings) true steps matched.
    private var cache: [[Double]: [(counted: Int, matched: Int)]] = [:]

    /// Prepares a cross-validation.
    public init(corpus: StepCorpus, base: StepCounterConfiguration = StepCounterConfiguration(), space: StepSearchSpace = .standard) {
        self.corpus = corpus
        self.base = base
        self.space = space
    }

    /// Every unit of the corpus, in corpus order.
    public var units: [String] {
        var seen: Set<String> = []
        return corpus.recordings.map(\.unit).filter { seen.insert($0).inserted }
    }

    /// The base configuration with the dimensions set to `values`.
    /// - Throws: ``MotionAnalysis/StepCounterError`` when they make it invalid.
    public func configuration(_ values: [Double]) throws(StepCounterError) -> StepCounterConfiguration {
        var c = base
        for (d, v) in zip(space.dimensions, values) { try c.set(d.name, to: v) }
        return c
    }

    /// Runs the folds of `units` (default: every unit), the search on every unit, and the
    /// in-sample evaluation.
    /// - Parameter progress: called with what is being done (`fold <unit>`, `in-sample`).
    /// - Throws: as ``StepEvaluation/evaluate(_:configuration:directory:)``.
    public mutating func run(units selected: [String]? = nil, progress: (String) -> Void = { _ in }) throws -> Result {
        let all = units
        let heldOut = selected ?? all
        progress("search on every unit")
        let full = try search(excluding: nil)
        var folds: [Fold] = []
        var files: [StepEvaluation.FileResult] = []
        for unit in heldOut {
            progress("fold " + unit)
            let fold = try search(excluding: unit)
            folds.append(fold)
            for r in corpus.recordings where r.unit == unit {
                files.append(try StepEvaluation.evaluate(r, configuration: fold.configuration, directory: corpus.directory))
            }
        }
        progress("in-sample")
        let inSample = try StepEvaluation(corpus: corpus, configuration: base).run()
        // The counter alone on the held-out non-walking recordings, in-sample and per fold.
        var seconds = 0.0, inSampleFalse = 0, foldFalse = 0
        for (i, r) in corpus.recordings.enumerated() where r.set == .nonWalking && heldOut.contains(r.unit) {
            let fold = folds.first { $0.heldOut == r.unit }!
            let own = try outcomes(fold.values)![i].counted
            let base = try StepEvaluation.count(r, configuration: base, directory: corpus.directory).count
            seconds += r.durationSeconds
            foldFalse += max(0, own - r.truth)
            inSampleFalse += max(0, base - r.truth)
        }
        let perHour = { (n: Int) in seconds > 0 ? Double(n) / (seconds / 3600) : 0 }
        return Result(space: space, inSample: inSample, fullSearch: full, folds: folds,
                      crossValidated: StepEvaluation.sets(files), configurationsCounted: cache.count,
                      counterAloneFalseStepsPerHour: (perHour(inSampleFalse), perHour(foldFalse)))
    }

    /// The grid search on every unit except `excluded`: every point of the space, the best by
    /// ``StepTrainingObjective`` (ties: the first in grid order, which starts at the first value
    /// of every dimension).
    mutating func search(excluding excluded: String?) throws -> Fold {
        let training = corpus.recordings.map { $0.unit != excluded }
        var best: (values: [Double], objective: StepTrainingObjective)?
        for values in space.points {
            guard let o = try objective(values, training: training) else { continue }
            if best == nil || o < best!.objective { best = (values, o) }
        }
        guard let best else { throw StepCounterError.invalidConfiguration("no point of the search space is a valid configuration") }
        return Fold(heldOut: excluded ?? "", values: best.values, configuration: try configuration(best.values), objective: best.objective)
    }

    /// The objective of `values` on the recordings `training` selects; nil when the values make
    /// the configuration invalid.
    mutating func objective(_ values: [Double], training: [Bool]) throws -> StepTrainingObjective? {
        guard let outcomes = try outcomes(values) else { return nil }
        var selected: [(set: StepEvaluation.Set, truth: Int, seconds: Double, counted: Int, matched: Int)] = []
        for (i, r) in corpus.recordings.enumerated() where training[i] {
            selected.append((r.set, r.truth, r.durationSeconds, outcomes[i].counted, outcomes[i].matched))
        }
        return StepTrainingObjective(selected)
    }

    /// Counts of every recording with `values` (cached); nil when they make the configuration invalid.
    mutating func outcomes(_ values: [Double]) throws -> [(counted: Int, matched: Int)]? {
        if let hit = cache[values] { return hit }
        guard let c = try? configuration(values) else { return nil }
        var out: [(counted: Int, matched: Int)] = []
        for r in corpus.recordings {
            let steps = try StepEvaluation.count(r, configuration: c, directory: corpus.directory)
            let judged = StepEvaluation.judge(r, steps: steps, latency: 0, matching: r.set == .bouts)
            out.append((judged.counted, judged.matching?.matched ?? 0))
        }
        cache[values] = out
        return out
    }
}
