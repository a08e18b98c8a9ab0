import MotionAnalysis
import MotionCore

/// The activity classifier's accuracy on a datasets folder (`manifest.csv` + CSV files, as in
/// `../shared/datasets`), by the targets of issue 12:
/// - **HAPT** (waist, labelled per sample): still-versus-walking agreement and the still → walking
///   onset delay, cross-validated leaving one subject out: for each held-out subject the
///   classifier's two HAPT-relevant thresholds are re-tuned on the other subjects over a small grid
///   (``grid``), and the held-out subject is judged with the chosen values;
/// - **ST logs** (pocket, wrist; one activity per file): each file's majority label is its activity;
/// - **Bangle vehicle** (a drive, a train): time walking or running, and label changes per hour;
/// - **walks** (informational): time labelled vehicle on the step sets' walks (steps there are dropped).
///
/// Every recording goes through the one replay (``MotionAnalysis/RecordingReplay``) with the
/// standard pipeline (``MotionAnalysis/StandardAnalyzers``), labels collected beside it.
public struct ActivityEvaluation: Sendable {
    /// Targets of issue 12.
    public enum Target {
        /// HAPT still/walking agreement, percent of the judged labelled time (cross-validated).
        public static let agreementPercent = 97.0
        /// HAPT still → walking onset, median announcement delay after the end of the still or
        /// posture-transition label (s, cross-validated; an upper bound of the true delay).
        public static let onsetSeconds = 5.0
        /// ST logs: files whose majority label is their activity, percent.
        public static let filesCorrectPercent = 100.0
        /// Bangle drive and train: time walking or running, percent (worst file).
        public static let vehicleWalkingPercent = 2.0
        /// Bangle drive and train: label changes per hour (worst file).
        public static let changesPerHour = 6.0
    }

    /// The HAPT cross-validation grid: values tried for `stillMotion` × `walkingMinimum`, the two
    /// thresholds that depend on the wearer and the sensor's place (how much a sitting body sways,
    /// how hard a gentle walker's steps are); the default configuration first. The gait
    /// periodicity stays fixed: below 0.5, pedalling and road bumps pass for gait.
    public static let grid: [(name: String, values: [Double])] = [
        ("stillMotion", [0.15, 0.1, 0.2]),
        ("walkingMinimum", [0.6, 0.4, 0.8]),
    ]

    /// One HAPT recording's figures under one grid configuration.
    public struct HAPTFile: Sendable {
        /// Path relative to the datasets folder.
        public var path: String
        /// The subject (`user01`).
        public var subject: String
        /// Figures per grid configuration, in ``configurations`` order.
        public var byConfiguration: [ActivityAgreement]
    }

    /// The HAPT set: in-sample (defaults) and cross-validated figures.
    public struct HAPTResult: Sendable {
        /// Per recording.
        public var files: [HAPTFile]
        /// The grid's configurations (assignments, the default first).
        public var configurations: [[(String, Double)]]
        /// Pooled figures with the default configuration on every subject (in-sample).
        public var inSample: ActivityAgreement
        /// Pooled figures of the held-out subjects, each judged with the configuration chosen on
        /// the others (leave one subject out).
        public var crossValidated: ActivityAgreement
        /// Per held-out subject: the index of the configuration chosen on the other subjects.
        public var chosen: [(subject: String, configuration: Int)]
    }

    /// One one-activity recording (ST logs, Bangle drive and train, walks).
    public struct FileResult: Sendable {
        /// Path relative to the datasets folder.
        public var path: String
        /// The manifest's activity.
        public var activity: String
        /// The class it should mostly be (nil when not judged, e.g. ST's `other`).
        public var expected: ActivityClass?
        /// Duration, seconds.
        public var durationSeconds: Double
        /// Seconds per class.
        public var secondsPerClass: [Double]
        /// Label changes.
        public var changes: Int

        /// The class with the most time.
        public var majority: ActivityClass {
            var best = 0
            for i in secondsPerClass.indices where secondsPerClass[i] > secondsPerClass[best] { best = i }
            return ActivityClass(index: best)
        }
        /// Percent of the duration in `c`.
        public func percent(_ c: ActivityClass) -> Double { durationSeconds > 0 ? 100 * secondsPerClass[c.index] / durationSeconds : 0 }
        /// Changes per hour.
        public var changesPerHour: Double { durationSeconds > 0 ? Double(changes) * 3600 / durationSeconds : 0 }
        /// Whether the majority is the expected class (nil when not judged).
        public var correct: Bool? { expected.map { $0 == majority } }
    }

    /// Everything `eval activity` reports.
    public struct Report: Sendable {
        /// HAPT.
        public var hapt: HAPTResult
        /// ST pocket logs.
        public var stPocket: [FileResult]
        /// ST wrist logs.
        public var stWrist: [FileResult]
        /// Bangle drive and train.
        public var vehicle: [FileResult]
        /// The step sets' walks (informational).
        public var walks: [FileResult]
    }

    /// The datasets folder.
    public var directory: String

    /// Prepares an evaluation of `directory` (which must hold `manifest.csv`).
    public init(directory: String) { self.directory = directory }

    /// The expected class of an ST or Bangle manifest activity (nil: not judged).
    public static func expectedClass(_ activity: String) -> ActivityClass? {
        switch activity {
        case "stationary", "still": return .still
        case "walking": return .walking
        case "jogging", "running": return .running
        case "biking", "cycling": return .cycling
        case "driving", "vehicle": return .vehicle
        default: return nil
        }
    }

    /// Every configuration of ``grid`` (the defaults first), as assignments.
    public static var configurations: [[(String, Double)]] {
        var out: [[(String, Double)]] = [[]]
        for (name, values) in grid {
            out = out.flatMap { base in values.map { base + [(name, $0)] } }
        }
        return out
    }

    /// Runs the whole evaluation.
    /// - Parameter progress: called with each recording's path before it is evaluated.
    /// - Throws: ``MotionCore/RecordingError`` (or `SystemError`) naming the file and line of any
    ///   bad input; a manifest without HAPT, ST or Bangle vehicle recordings.
    public func run(progress: (String) -> Void = { _ in }) throws -> Report {
        let manifest = try DatasetManifest(directory: directory)
        let configs = try Self.configurations.map { assignments -> ActivityClassifierConfiguration in
            var c = ActivityClassifierConfiguration()
            for (n, v) in assignments { try c.set(n, to: v) }
            return c
        }
        var hapt: [HAPTFile] = []
        var stPocket: [FileResult] = [], stWrist: [FileResult] = [], vehicle: [FileResult] = [], walks: [FileResult] = []
        for row in manifest.entries {
            let activity = try row.field("activity")
            if row.path.hasPrefix("activity/hapt/") {
                progress(row.path)
                let subject = String(row.path.split(separator: "/").last?.split(separator: "_").first ?? "")
                hapt.append(HAPTFile(path: row.path, subject: subject, byConfiguration: try configs.map { try agreement(row.path, $0) }))
            } else if row.path.hasPrefix("activity/st/") {
                progress(row.path)
                let f = try classify(row.path, activity: activity)
                if (try row.field("position")) == "wrist" { stWrist.append(f) } else { stPocket.append(f) }
            } else if row.path.hasPrefix("steps/") && (activity == "vehicle" || activity == "walking") {
                progress(row.path)
                let f = try classify(row.path, activity: activity)
                if activity == "vehicle" { vehicle.append(f) } else { walks.append(f) }
            }
        }
        for (name, set) in [("HAPT", hapt.count), ("ST", stPocket.count + stWrist.count), ("Bangle vehicle", vehicle.count)] where set == 0 {
            throw RecordingError(file: directory + "/manifest.csv", line: nil, problem: "no \(name) recordings")
        }
        return Report(hapt: Self.crossValidate(hapt), stPocket: stPocket, stWrist: stWrist, vehicle: vehicle, walks: walks)
    }

    /// Leave-one-subject-out: per subject, the configuration with the best pooled agreement on the
    /// others (ties: the earlier one, so the defaults win a tie) judges that subject.
    static func crossValidate(_ files: [HAPTFile]) -> HAPTResult {
        let subjects = Array(Swift.Set(files.map(\.subject))).sorted()
        let n = configurations.count
        var heldOut: [ActivityAgreement] = []
        var chosen: [(String, Int)] = []
        for s in subjects {
            var best = 0, bestScore = -Double.infinity
            for c in 0..<n {
                let score = ActivityAgreement.pooled(files.filter { $0.subject != s }.map { $0.byConfiguration[c] }).percent
                if score > bestScore + 1e-9 { best = c; bestScore = score }
            }
            chosen.append((s, best))
            heldOut += files.filter { $0.subject == s }.map { $0.byConfiguration[best] }
        }
        return HAPTResult(files: files, configurations: configurations,
                          inSample: ActivityAgreement.pooled(files.map { $0.byConfiguration[0] }),
                          crossValidated: ActivityAgreement.pooled(heldOut), chosen: chosen)
    }

    /// One labelled recording through the standard pipeline with `configuration`.
    func agreement(_ path: String, _ configuration: ActivityClassifierConfiguration) throws -> ActivityAgreement {
        var handles: (StandardAnalyzers, AnalyzerHandle<LabelRunsAnalyzer>)?
        let replay = try RecordingReplay.run(path: directory + "/" + path) { header in
            var (pipeline, h) = try StandardAnalyzers.pipeline(for: header, activity: configuration)
            let labels = pipeline.add(LabelRunsAnalyzer())
            handles = (h, labels)
            return [ReplaySession(policy: .samples(RecordingReplay.chunkSamples), pipeline: pipeline, labelled: header.hasLabels)]
        }
        let p = replay.sessions[0].pipeline
        return ActivityAgreement(truth: p.result(of: handles!.1), timeline: p.result(of: handles!.0.activity))
    }

    /// One one-activity recording through the standard pipeline (default configuration).
    func classify(_ path: String, activity: String) throws -> FileResult {
        let (replay, h) = try StandardAnalyzers.replay(path: directory + "/" + path, policy: .samples(RecordingReplay.chunkSamples))
        let p = replay.sessions[0].pipeline
        let t = p.result(of: h.activity)
        return FileResult(path: path, activity: activity, expected: path.hasPrefix("activity/st/") ? Self.expectedClass(activity) : nil,
                          durationSeconds: p.result(of: h.stream).durationSeconds,
                          secondsPerClass: t.secondsPerClass.map(\.1), changes: t.changes)
    }

    /// Every judged figure of `report` against its target.
    public static func verdicts(_ r: Report) -> [TargetVerdict] {
        typealias T = Target
        var v: [TargetVerdict] = [
            TargetVerdict(set: "hapt", name: "agreement_percent", value: r.hapt.crossValidated.percent, target: T.agreementPercent, comparison: .atLeast),
            TargetVerdict(set: "hapt", name: "onset_median_s", value: r.hapt.crossValidated.medianPostureEndSeconds ?? .infinity, target: T.onsetSeconds, comparison: .atMost),
        ]
        for (set, files) in [("st_pocket", r.stPocket), ("st_wrist", r.stWrist)] {
            let judged = files.compactMap(\.correct)
            let percent = judged.isEmpty ? 0 : 100 * Double(judged.filter { $0 }.count) / Double(judged.count)
            v.append(TargetVerdict(set: set, name: "files_correct_percent", value: percent, target: T.filesCorrectPercent, comparison: .atLeast))
        }
        v.append(TargetVerdict(set: "bangle_vehicle", name: "max_walking_running_percent",
                               value: r.vehicle.map { $0.percent(.walking) + $0.percent(.running) }.max() ?? .infinity,
                               target: T.vehicleWalkingPercent, comparison: .atMost))
        v.append(TargetVerdict(set: "bangle_vehicle", name: "max_changes_per_hour", value: r.vehicle.map(\.changesPerHour).max() ?? .infinity,
                               target: T.changesPerHour, comparison: .atMost))
        return v
    }
}
