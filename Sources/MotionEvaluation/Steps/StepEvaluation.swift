import MotionAnalysis
import MotionCore

/// The step counter's accuracy on the step recordings of a datasets folder (`manifest.csv` + CSV
/// files, as in `../shared/datasets`): per file the count against the truth, per-step matching
/// where the truth has every step's time, and how late each step was emitted; per set the
/// aggregate figures of issue 4, judged against ``Target`` by ``verdicts(_:)``.
///
/// Every recording goes through the one replay (``MotionAnalysis/RecordingReplay``) with the
/// standard pipeline, delivered one sample at a time, so the latency of every step (the time of
/// the sample whose processing emitted it minus the step's time) is measured exactly.
public struct StepEvaluation: Sendable {
    /// The evaluation sets.
    public enum Set: String, Sendable, CaseIterable {
        /// Oxford phone walks (foot-switch truth per step).
        case oxford
        /// Bangle.js wrist walks.
        case bangleWalks = "bangle_walks"
        /// Recordings with no or little walking (vehicle, still, desk, no-walking).
        case nonWalking = "non_walking"

        /// Title used in tables.
        public var title: String {
            switch self {
            case .oxford: return "Oxford phone walks"
            case .bangleWalks: return "Bangle.js wrist walks"
            case .nonWalking: return "Non-walking recordings"
            }
        }
    }

    /// One evaluated recording.
    public struct FileResult: Sendable {
        /// Path relative to the datasets folder.
        public var path: String
        /// Activity from the manifest.
        public var activity: String
        /// Steps counted.
        public var counted: Int
        /// Ground-truth steps.
        public var truth: Int
        /// Recording duration, seconds.
        public var durationSeconds: Double
        /// Longest delay between a step's timestamp and the sample whose processing emitted it
        /// from the counter, seconds (the counter's own latency, without the activity hold).
        public var maxLatencySeconds: Double
        /// Longest time a step was held for the activity classifier's vehicle decision, seconds
        /// (it adds to the step's visibility delay: docs/activity-classifier.md).
        public var maxActivityHoldSeconds: Double = 0
        /// Per-step matching (Oxford only).
        public var matching: StepMatching?
        /// Step timestamps (ns).
        public var steps: [Int64]

        /// Signed error in percent of truth (nil when truth is 0).
        public var errorPercent: Double? { truth == 0 ? nil : 100 * Double(counted - truth) / Double(truth) }
        /// Steps counted beyond the truth (the false steps of a non-walking recording).
        public var excess: Int { max(0, counted - truth) }
        /// The file name without folders (`Samsung_Dario_Hard_InHand_1.csv`).
        public var fileName: String { String(path.split(separator: "/").last ?? "") }
        /// The first two `_`-separated parts of the file name: phone and user in the Oxford set
        /// (`Samsung_Dario`).
        public var phoneAndUser: String { fileName.split(separator: "_").prefix(2).joined(separator: "_") }
    }

    /// Aggregate figures of one set.
    public struct SetResult: Sendable {
        /// Which set.
        public var set: Set
        /// Per-file results, in manifest order.
        public var files: [FileResult]
        /// Mean absolute percentage error over files with truth > 0.
        public var mape: Double {
            let e = files.compactMap { $0.errorPercent.map(abs) }
            return e.isEmpty ? 0 : e.reduce(0, +) / Double(e.count)
        }
        /// Largest absolute percentage error.
        public var maxAbsErrorPercent: Double { files.compactMap { $0.errorPercent.map(abs) }.max() ?? 0 }
        /// Pooled precision over all matched files (sum matched / sum detected).
        public var precision: Double? {
            let m = files.compactMap(\.matching)
            guard !m.isEmpty else { return nil }
            return Double(m.map(\.matched).reduce(0, +)) / Double(max(1, m.map(\.detected).reduce(0, +)))
        }
        /// Pooled recall over all matched files (sum matched / sum truth).
        public var recall: Double? {
            let m = files.compactMap(\.matching)
            guard !m.isEmpty else { return nil }
            return Double(m.map(\.matched).reduce(0, +)) / Double(max(1, m.map(\.truth).reduce(0, +)))
        }
        /// Total duration, hours.
        public var hours: Double { files.map(\.durationSeconds).reduce(0, +) / 3600 }
        /// Total steps counted beyond truth.
        public var falseSteps: Int { files.map(\.excess).reduce(0, +) }
        /// False steps per hour over the whole set.
        public var falseStepsPerHour: Double { hours > 0 ? Double(falseSteps) / hours : 0 }
        /// Longest emission latency, seconds.
        public var maxLatencySeconds: Double { files.map(\.maxLatencySeconds).max() ?? 0 }
        /// Longest activity hold of a step, seconds.
        public var maxActivityHoldSeconds: Double { files.map(\.maxActivityHoldSeconds).max() ?? 0 }

        /// Mean and largest absolute percentage error over the files that `keep` selects and that
        /// have truth > 0; nil when there are none (e.g. one phone of a set held out).
        public func absoluteError(where keep: (FileResult) -> Bool) -> (mean: Double, worst: Double)? {
            let e = files.filter(keep).compactMap { $0.errorPercent.map(abs) }
            guard let worst = e.max() else { return nil }
            return (e.reduce(0, +) / Double(e.count), worst)
        }

        /// MAPE per group of files (`key` of each file), groups sorted by key; files without
        /// truth count as 0 % error.
        public func mapeByGroup(_ key: (FileResult) -> String) -> [(group: String, mape: Double, files: Int)] {
            var groups: [String: [Double]] = [:]
            for x in files { groups[key(x), default: []].append(abs(x.errorPercent ?? 0)) }
            return groups.keys.sorted().map { k in (k, groups[k]!.reduce(0, +) / Double(groups[k]!.count), groups[k]!.count) }
        }
    }

    /// Targets of issue 4.
    public enum Target {
        /// Oxford MAPE, percent.
        public static let oxfordMAPE = 3.0
        /// Oxford worst file, percent.
        public static let oxfordMaxError = 10.0
        /// Oxford pooled precision and recall.
        public static let oxfordPrecisionRecall = 0.95
        /// Bangle walks MAPE, percent.
        public static let bangleMAPE = 5.0
        /// Bangle walks worst file, percent.
        public static let bangleMaxError = 15.0
        /// Non-walking false steps per hour.
        public static let falseStepsPerHour = 10.0
        /// Emission latency bound, seconds.
        public static let latencySeconds = 3.0
    }

    /// The datasets folder.
    public var directory: String
    /// Counter parameters.
    public var configuration: StepCounterConfiguration

    /// Robustness experiment: every recording's acceleration is replaced by
    /// `mean + amplitudeScale · (a − mean)` (mean = the file's mean acceleration vector, about
    /// gravity), i.e. the motion is made gentler (< 1) or rougher (> 1). 1 = the recordings as they are.
    public var amplitudeScale: Double

    /// Prepares an evaluation of `directory` (which must hold `manifest.csv`).
    /// - Precondition: `amplitudeScale` is finite and positive.
    public init(directory: String, configuration: StepCounterConfiguration = StepCounterConfiguration(), amplitudeScale: Double = 1) {
        precondition(amplitudeScale.isFinite && amplitudeScale > 0, "amplitude scale must be finite and > 0")
        self.directory = directory
        self.configuration = configuration
        self.amplitudeScale = amplitudeScale
    }

    /// One manifest row relevant to step counting.
    struct Entry { var path: String; var activity: String; var truth: Int; var set: Set }

    /// The manifest's step recordings (paths under `steps/`), each with its set.
    /// - Throws: as ``DatasetManifest/init(directory:)``; a ``MotionCore/RecordingError`` naming the
    ///   line and column of a missing or bad `steps_true`.
    func entries() throws -> [Entry] {
        let manifest = try DatasetManifest(directory: directory)
        var out: [Entry] = []
        for row in manifest.entries where row.path.hasPrefix("steps/") {
            let truth = try row.requiredInteger("steps_true")
            let activity = try row.field("activity")
            let set: Set = row.path.hasPrefix("steps/oxford/") ? .oxford : (activity == "walking" ? .bangleWalks : .nonWalking)
            out.append(Entry(path: row.path, activity: activity, truth: truth, set: set))
        }
        return out
    }

    /// Evaluates every step recording, grouped by set.
    /// - Parameter progress: called with each recording's path before it is evaluated.
    /// - Throws: ``MotionCore/RecordingError`` (or `SystemError`) naming the file and line of any
    ///   bad input, or a manifest without recordings for a set.
    public func run(progress: (String) -> Void = { _ in }) throws -> [SetResult] {
        var results: [Set: [FileResult]] = [:]
        for e in try entries() {
            progress(e.path)
            results[e.set, default: []].append(try evaluate(e))
        }
        let missing = Set.allCases.filter { results[$0] == nil }
        if !missing.isEmpty {
            throw RecordingError(file: directory + "/manifest.csv", line: nil,
                                 problem: "no recordings for set(s) \(missing.map(\.rawValue).joined(separator: ", "))")
        }
        return Set.allCases.map { SetResult(set: $0, files: results[$0]!) }
    }

    /// Runs the standard pipeline over one recording, one sample per delivery.
    func evaluate(_ e: Entry) throws -> FileResult {
        let path = directory + "/" + e.path
        var transform: ((inout [Sample]) -> Void)?
        if amplitudeScale != 1 {
            let scaling = try AmplitudeScaling(recording: path, scale: amplitudeScale)
            transform = { scaling.apply(to: &$0) }
        }
        let (replay, handles) = try StandardAnalyzers.replay(path: path, policy: .perSample, steps: configuration, transform: transform)
        let pipeline = replay.sessions[0].pipeline
        let steps = pipeline.result(of: handles.steps).timestamps
        var matching: StepMatching?
        if e.set == .oxford {
            matching = StepMatching(detected: steps, truth: try StepTruth.read(StepTruth.path(forRecording: path)))
        }
        // Visible = emitted by the counter + held for the activity decision, step by step.
        let visible = pipeline.visibility(of: handles.steps).delays
        let holds = pipeline.analyzer(handles.steps).activityHold.delays
        let own = zip(visible, holds + repeatElement(0, count: Swift.max(0, visible.count - holds.count))).map { $0 - $1 }
        return FileResult(path: e.path, activity: e.activity, counted: steps.count, truth: e.truth,
                          durationSeconds: pipeline.result(of: handles.stream).durationSeconds,
                          maxLatencySeconds: Double(own.max() ?? 0) / 1e9,
                          maxActivityHoldSeconds: Double(holds.max() ?? 0) / 1e9,
                          matching: matching, steps: steps)
    }

    /// Every aggregate figure of `results` against its target, in set order.
    public static func verdicts(_ results: [SetResult]) -> [TargetVerdict] {
        typealias T = Target
        var v: [TargetVerdict] = []
        for r in results {
            let s = r.set.rawValue
            switch r.set {
            case .oxford:
                v.append(TargetVerdict(set: s, name: "mape_percent", value: r.mape, target: T.oxfordMAPE, comparison: .atMost))
                v.append(TargetVerdict(set: s, name: "max_abs_error_percent", value: r.maxAbsErrorPercent, target: T.oxfordMaxError, comparison: .atMost))
                v.append(TargetVerdict(set: s, name: "precision", value: r.precision ?? 0, target: T.oxfordPrecisionRecall, comparison: .atLeast))
                v.append(TargetVerdict(set: s, name: "recall", value: r.recall ?? 0, target: T.oxfordPrecisionRecall, comparison: .atLeast))
            case .bangleWalks:
                v.append(TargetVerdict(set: s, name: "mape_percent", value: r.mape, target: T.bangleMAPE, comparison: .atMost))
                v.append(TargetVerdict(set: s, name: "max_abs_error_percent", value: r.maxAbsErrorPercent, target: T.bangleMaxError, comparison: .atMost))
            case .nonWalking:
                v.append(TargetVerdict(set: s, name: "false_steps_per_hour", value: r.falseStepsPerHour, target: T.falseStepsPerHour, comparison: .atMost))
            }
            v.append(TargetVerdict(set: s, name: "max_latency_s", value: r.maxLatencySeconds, target: T.latencySeconds, comparison: .atMost))
        }
        return v
    }
}
