import MotionAnalysis
import MotionCore

/// The activity classifier's accuracy on a datasets folder (`manifest.csv` + CSV files, as in
/// `../shared/datasets`), by the targets of issue 23, left one source out (a source is a dataset and
/// wearer group: each HAPT and spsw subject, the ST pocket logs, the ST wrist logs, the Bangle rides):
/// for each source the grid's thresholds (``standardGrid``) are chosen on every other source and
/// the source is judged with them (``crossValidate(_:_:configurations:)``).
/// - **Labelled recordings** (HAPT waist, spsw pocket and wrist): still-versus-walking agreement,
///   the HAPT still → walking onset delay, the spsw walking onset from a cold start;
/// - **ST logs** (pocket, wrist; one activity per file): each file's majority label is its activity;
/// - **whole rides** (Bangle drive and train, ST driving): time walking, label changes, time vehicle;
/// - **person at rest** (``PersonAtRestTransform`` of the still recordings): time still;
/// - **walks** (informational): time labelled vehicle on the step sets' walks (steps there are dropped).
///
/// Every recording goes through the one replay (``MotionAnalysis/RecordingReplay``) with the
/// standard pipeline (``MotionAnalysis/StandardAnalyzers``), labels collected beside it.
public struct ActivityEvaluation: Sendable {
    /// Targets (issue 23), judged on the leave-one-source-out figures.
    public enum Target {
        /// Still/walking agreement, percent of the judged labelled time, waist and pocket.
        public static let agreementPercent = 99.5
        /// Still/walking agreement at the wrist (spsw), percent.
        public static let wristAgreementPercent = 98.0
        /// HAPT still → walking onset, median announcement delay after the end of the still or
        /// posture-transition label (s; an upper bound of the true delay).
        public static let onsetSeconds = 4.0
        /// spsw walking onset from a cold start: at most this (s) ...
        public static let coldOnsetSeconds = 3.0
        /// ... in at least this percent of the recordings.
        public static let coldOnsetSharePercent = 90.0
        /// ST logs: files whose majority label is their activity, percent.
        public static let filesCorrectPercent = 100.0
        /// Whole rides (Bangle drive and train, the ST driving log): time walking or running,
        /// percent (worst file).
        public static let vehicleWalkingPercent = 1.0
        /// Whole rides: label changes per hour (worst file of 30 min or longer).
        public static let changesPerHour = 2.0
        /// Whole rides shorter than 30 min: label changes (worst file).
        public static let shortRideChanges = 1.0
        /// Whole rides: time labelled `vehicle`, percent (worst file).
        public static let vehiclePercent = 90.0
        /// Person at rest (``PersonAtRestTransform``): time `still`, percent (worst file).
        public static let personAtRestStillPercent = 99.0
    }

    /// The standard cross-validation grid: values tried for `stillMotion` × `walkingMinimum` ×
    /// `walkingEntrySeconds` × `gaitRotation`, the thresholds that depend on the wearer and the
    /// sensor's place (how much a body at rest sways, how hard a gentle walker's steps are; how
    /// much gait evidence announces a walk: two windows or three; whether a rotational rhythm
    /// counts as gait with a gyroscope: 1 rad/s, or 100, which turns it off); the default
    /// configuration first. `stillMotion` 0.5, `walkingMinimum` 0.4 and `shortGaitVertical` 1.5
    /// and 100 (the short-gait rule off) were in earlier grids and never chosen by any fold. The gait periodicity stays fixed at
    /// its default (0.5): with it in the grid (`eval activity --grid gaitPeriodicity=0.5,0.4,0.3`),
    /// the folds choose 0.3, which calls the ST car drive walking (docs/activity-classifier.md).
    public static let standardGrid: [(name: String, values: [Double])] = [
        ("stillMotion", [0.15, 0.3]),
        ("walkingMinimum", [0.6, 0.8]),
        ("walkingEntrySeconds", [0.8, 1.2]),
        ("gaitRotation", [1.0, 100]),
    ]

    /// One labelled recording (HAPT, spsw): its figures under every grid configuration.
    public struct LabelledFile: Sendable {
        /// Path relative to the datasets folder.
        public var path: String
        /// The dataset: `hapt` or `spsw`.
        public var dataset: String
        /// The cross-validation source: the dataset and the wearer (`hapt:user01`, `spsw:s01`);
        /// a spsw subject's wrist and pocket recordings are one source (the same person, at once).
        public var source: String
        /// The manifest's position: `waist` (HAPT), `pocket` or `wrist` (spsw).
        public var position: String
        /// Figures per grid configuration, in ``configurations`` order.
        public var byConfiguration: [ActivityAgreement]

        /// The group the figures are reported by: dataset and position (`hapt_waist`, `spsw_wrist`).
        public var group: String { dataset + "_" + position }
    }

    /// One recording of one activity (ST logs, whole rides): its figures under every grid configuration.
    public struct OneActivityFile: Sendable {
        /// The cross-validation source: `st:pocket`, `st:wrist` (each ST set is one wearer group),
        /// `bangle:HughB` (the rides).
        public var source: String
        /// The tuning group: `st_pocket`, `st_wrist`, `rides`.
        public var group: String
        /// Figures per grid configuration, in ``configurations`` order.
        public var byConfiguration: [FileResult]
    }

    /// One group's pooled figures (a dataset at one position).
    public struct GroupFigures: Sendable {
        /// `hapt_waist`, `spsw_pocket`, `spsw_wrist`.
        public var group: String
        /// Recordings in the group.
        public var recordings: Int
        /// Pooled with the default configuration on every source (in-sample, a diagnostic).
        public var inSample: ActivityAgreement
        /// Pooled over the held-out sources, each judged with the configuration chosen without it.
        public var crossValidated: ActivityAgreement
        /// Per recording (cross-validated): the first still -> walking onset's delay after the
        /// start of the walking label (s; nil when missed or when the recording has none), from a
        /// cold start (the analysis starts at the file's first sample).
        public var firstOnsets: [Double?]

        /// Percent of the recordings with an onset whose first onset was announced within `seconds`.
        public func onsetShare(within seconds: Double) -> Double {
            let judged = firstOnsets.count
            return judged == 0 ? 0 : 100 * Double(firstOnsets.filter { ($0 ?? .infinity) <= seconds }.count) / Double(judged)
        }
    }

    /// The labelled sets, left one source out.
    public struct LabelledResult: Sendable {
        /// Per recording.
        public var files: [LabelledFile]
        /// The grid's configurations (assignments, the default first).
        public var configurations: [[(String, Double)]]
        /// Per group, in ``groupOrder``.
        public var groups: [GroupFigures]
        /// Per held-out source: the index of the configuration chosen on the other sources.
        public var chosen: [(source: String, configuration: Int)]
        /// Per source, cross-validated: the source's own pooled agreement.
        public var bySource: [(source: String, agreement: ActivityAgreement)]
        /// The one-activity recordings, each with the configuration chosen without its source.
        public var oneActivity: [(group: String, file: FileResult)] = []

        /// The figures of `group` (empty figures when the group has no recording).
        public func group(_ name: String) -> GroupFigures {
            groups.first { $0.group == name }
                ?? GroupFigures(group: name, recordings: 0, inSample: .pooled([]), crossValidated: .pooled([]), firstOnsets: [])
        }
    }

    /// The order the groups are reported in.
    public static let groupOrder = ["hapt_waist", "spsw_pocket", "spsw_wrist"]

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
        /// The labelled sets (HAPT, spsw), left one source out.
        public var labelled: LabelledResult
        /// ST pocket logs.
        public var stPocket: [FileResult]
        /// ST wrist logs.
        public var stWrist: [FileResult]
        /// Bangle drive and train.
        public var vehicle: [FileResult]
        /// The step sets' walks (informational).
        public var walks: [FileResult]
        /// The "person at rest" set: each real still recording at every level of
        /// ``PersonAtRestTransform`` (path `FILE at rest 0.35`, the level in m/s²), default configuration.
        public var personAtRest: [FileResult] = []
        /// The labelled groups at lower rates than their own (``LowerRate``), each recording with
        /// its source's fold's configuration, in group then rate order.
        public var lowerRates: [LowerRateAgreement] = []

        /// Recordings of a whole ride (truth `vehicle` for the whole file, stops included): the
        /// Bangle drive and train and the ST driving log.
        public var rides: [FileResult] { vehicle + stPocket.filter { $0.activity == "driving" } + stWrist.filter { $0.activity == "driving" } }
    }

    /// One labelled group at one lower rate.
    public struct LowerRateAgreement: Sendable {
        /// `hapt_waist`, `spsw_pocket`, `spsw_wrist`.
        public var group: String
        /// The rate, Hz.
        public var rateHz: Double
        /// Pooled agreement at that rate (cross-validated: each source with its fold's choice).
        public var agreement: ActivityAgreement
        /// The same recordings at their own rate.
        public var ownRate: ActivityAgreement

        /// Agreement at this rate minus at the own rate, percentage points.
        public var changePoints: Double { agreement.percent - ownRate.percent }
    }

    /// Target: the largest loss of still/walking agreement at a lower rate, percentage points.
    public static let lowerRateLossPoints = 2.0

    /// The datasets folder.
    public var directory: String
    /// The grid the folds search (``standardGrid`` unless set; each name a parameter of
    /// ``MotionAnalysis/ActivityClassifierConfiguration``, first values the defaults).
    public var grid: [(name: String, values: [Double])]

    /// Prepares an evaluation of `directory` (which must hold `manifest.csv`).
    public init(directory: String, grid: [(name: String, values: [Double])] = ActivityEvaluation.standardGrid) {
        self.directory = directory
        self.grid = grid
    }

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

    /// Every configuration of ``standardGrid`` (the defaults first), as assignments.
    public static var configurations: [[(String, Double)]] { configurations(of: standardGrid) }

    /// Every configuration of `grid` (its first values first), as assignments.
    public static func configurations(of grid: [(name: String, values: [Double])]) -> [[(String, Double)]] {
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
        let assignments = Self.configurations(of: grid)
        let configs = try assignments.map { assignments -> ActivityClassifierConfiguration in
            var c = ActivityClassifierConfiguration()
            for (n, v) in assignments { try c.set(n, to: v) }
            return c
        }
        var labelled: [LabelledFile] = []
        var ownRates: [String: Double] = [:]
        var oneActivity: [OneActivityFile] = []
        var walks: [FileResult] = []
        var atRest: [FileResult] = []
        for row in manifest.entries {
            let activity = try row.field("activity")
            if let dataset = Self.labelledDataset(row.path) {
                progress(row.path)
                let subject = String(row.path.split(separator: "/").last?.split(separator: "_").first ?? "")
                ownRates[row.path] = row["rate_hz"].flatMap { Double($0) }
                labelled.append(LabelledFile(path: row.path, dataset: dataset, source: dataset + ":" + subject,
                                             position: try row.field("position"),
                                             byConfiguration: try configs.map { try agreement(row.path, $0) }))
            } else if row.path.hasPrefix("activity/st/") {
                progress(row.path)
                let position = try row.field("position") == "wrist" ? "wrist" : "pocket"
                oneActivity.append(OneActivityFile(source: "st:" + position, group: "st_" + position,
                                                   byConfiguration: try configs.map { try classify(row.path, activity: activity, $0) }))
            } else if row.path.hasPrefix("steps/") && activity == "vehicle" {
                progress(row.path)
                let name = String(row.path.split(separator: "/").last ?? "")
                oneActivity.append(OneActivityFile(source: StepCorpus.bangleSource(name), group: "rides",
                                                   byConfiguration: try configs.map { try classify(row.path, activity: activity, $0) }))
            }
            if activity == "still" || activity == "stationary" {
                progress(row.path + " (person at rest)")
                let r = try Recording.read(path: directory + "/" + row.path)
                for level in PersonAtRestTransform.standardLevels {
                    atRest.append(try classify(PersonAtRestTransform(motion: level).apply(to: r.samples),
                                               path: row.path + " at rest \(level)", header: r.header, configs[0]))
                }
            }
            if row.path.hasPrefix("steps/") && activity == "walking" {
                progress(row.path)
                walks.append(try classify(row.path, activity: activity, configs[0]))
            }
        }
        let result = Self.crossValidate(labelled, oneActivity, configurations: assignments)
        let judged = result.oneActivity
        let stPocket = judged.filter { $0.group == "st_pocket" }.map(\.file), stWrist = judged.filter { $0.group == "st_wrist" }.map(\.file)
        let vehicle = judged.filter { $0.group == "rides" }.map(\.file)
        for (name, set) in [("HAPT", labelled.filter { $0.dataset == "hapt" }.count), ("ST", stPocket.count + stWrist.count), ("Bangle vehicle", vehicle.count)] where set == 0 {
            throw RecordingError(file: directory + "/manifest.csv", line: nil, problem: "no \(name) recordings")
        }
        // The labelled groups at lower rates, each source with its fold's choice.
        let chosen = Dictionary(result.chosen.map { ($0.source, $0.configuration) }, uniquingKeysWith: { a, _ in a })
        var lower: [LowerRateAgreement] = []
        for g in Self.groupOrder {
            let members = labelled.filter { $0.group == g }
            for rate in LowerRate.standardRates {
                let judged = members.filter { f in ownRates[f.path].map { rate <= $0 * LowerRate.margin } ?? false }
                guard !judged.isEmpty else { continue }
                progress("\(g) at \(rate) Hz")
                let at = try judged.map { try agreement($0.path, configs[chosen[$0.source] ?? 0], rateHz: rate) }
                lower.append(LowerRateAgreement(group: g, rateHz: rate, agreement: .pooled(at),
                                                ownRate: .pooled(judged.map { $0.byConfiguration[chosen[$0.source] ?? 0] })))
            }
        }
        return Report(labelled: result, stPocket: stPocket, stWrist: stWrist, vehicle: vehicle, walks: walks, personAtRest: atRest, lowerRates: lower)
    }

    /// The labelled dataset a manifest path belongs to (`hapt`, `spsw`), nil for others.
    static func labelledDataset(_ path: String) -> String? {
        if path.hasPrefix("activity/hapt/") { return "hapt" }
        if path.hasPrefix("activity/spsw/") { return "spsw" }
        return nil
    }

    /// The tuning objective of a configuration on some recordings (a fold's training sources),
    /// as the step counter's cross-validation judges its grid: first the targets missed on those
    /// recordings alone (``verdicts(_:)`` of the sets they hold: the labelled groups' agreement
    /// and onset, the ST logs' majorities, the rides), then the mean over the groups present of
    /// each group's score (so that HAPT's long sequences do not outweigh spsw's short ones, nor
    /// the other way round): a labelled group's pooled agreement, a one-activity group's mean
    /// percent of time in its files' expected classes (ST's `other` is not judged).
    static func objective(_ files: [LabelledFile], _ others: [OneActivityFile] = [], configuration c: Int) -> TrainingObjective {
        var scores: [Double] = []
        var groups: [GroupFigures] = []
        for g in Swift.Set(files.map(\.group)).sorted() {
            let figures = files.filter { $0.group == g }.map { $0.byConfiguration[c] }
            let pooled = ActivityAgreement.pooled(figures)
            scores.append(pooled.percent)
            groups.append(GroupFigures(group: g, recordings: figures.count, inSample: pooled, crossValidated: pooled,
                                       firstOnsets: figures.compactMap { $0.onsetDelays.isEmpty ? nil : .some($0.onsetDelays[0]) }))
        }
        func results(_ group: String) -> [FileResult] { others.filter { $0.group == group }.map { $0.byConfiguration[c] } }
        for g in Swift.Set(others.map(\.group)).sorted() {
            let judged = results(g).compactMap { f in f.expected.map { f.percent($0) } }
            if !judged.isEmpty { scores.append(judged.reduce(0, +) / Double(judged.count)) }
        }
        let report = Report(labelled: LabelledResult(files: [], configurations: [], groups: groups, chosen: [], bySource: []),
                            stPocket: results("st_pocket"), stWrist: results("st_wrist"), vehicle: results("rides"), walks: [])
        var present = Swift.Set(groups.map(\.group))
        if !report.stPocket.isEmpty { present.insert("st_pocket") }
        if !report.stWrist.isEmpty { present.insert("st_wrist") }
        if !report.rides.isEmpty { present.insert("rides") }
        let missed = verdicts(report).filter { !$0.met && present.contains($0.set) }.count
        return TrainingObjective(missed: missed, score: scores.isEmpty ? 0 : scores.reduce(0, +) / Double(scores.count))
    }

    /// A configuration's figures on a fold's training sources: fewer missed targets is better,
    /// then a higher score.
    struct TrainingObjective: Equatable {
        /// Targets missed on the training sources.
        var missed: Int
        /// The mean group score (percent).
        var score: Double

        /// Whether this is better than `other` (a score better by more than 10⁻⁹; ties keep `other`).
        func isBetter(than other: TrainingObjective) -> Bool {
            missed != other.missed ? missed < other.missed : score > other.score + 1e-9
        }
    }

    /// Leave one source out: per source, the configuration with the best ``objective(_:_:configuration:)``
    /// on every other source (fewest missed targets, then the highest score; ties: the earlier
    /// one, so the defaults win a tie) judges that source.
    static func crossValidate(_ files: [LabelledFile], _ others: [OneActivityFile] = [],
                              configurations: [[(String, Double)]] = ActivityEvaluation.configurations) -> LabelledResult {
        let sources = Array(Swift.Set(files.map(\.source) + others.map(\.source))).sorted()
        let n = configurations.count
        var heldOut: [(file: LabelledFile, agreement: ActivityAgreement)] = []
        var chosenBySource: [String: Int] = [:]
        var chosen: [(String, Int)] = []
        var bySource: [(String, ActivityAgreement)] = []
        for s in sources {
            let training = files.filter { $0.source != s }, trainingOthers = others.filter { $0.source != s }
            var best = 0
            var bestObjective = objective(training, trainingOthers, configuration: 0)
            for c in 1..<Swift.max(1, n) {
                let o = objective(training, trainingOthers, configuration: c)
                if o.isBetter(than: bestObjective) { best = c; bestObjective = o }
            }
            chosen.append((s, best))
            chosenBySource[s] = best
            let own = files.filter { $0.source == s }.map { ($0, $0.byConfiguration[best]) }
            heldOut += own
            if !own.isEmpty { bySource.append((s, ActivityAgreement.pooled(own.map(\.1)))) }
        }
        // In manifest order, each with its source's choice.
        let judged = others.map { (group: $0.group, file: $0.byConfiguration[chosenBySource[$0.source]!]) }
        var groups: [GroupFigures] = []
        for g in groupOrder {
            let members = heldOut.filter { $0.file.group == g }
            guard !members.isEmpty else { continue }
            groups.append(GroupFigures(group: g, recordings: members.count,
                                       inSample: .pooled(members.map { $0.file.byConfiguration[0] }),
                                       crossValidated: .pooled(members.map(\.agreement)),
                                       firstOnsets: members.compactMap { m in m.agreement.onsetDelays.isEmpty ? nil : .some(m.agreement.onsetDelays[0]) }))
        }
        return LabelledResult(files: files, configurations: configurations, groups: groups, chosen: chosen, bySource: bySource, oneActivity: judged)
    }

    /// One labelled recording through the standard pipeline with `configuration`, thinned to
    /// `rateHz` when given (``MotionAnalysis/ReplaySession``'s decimation: the box-car mean).
    func agreement(_ path: String, _ configuration: ActivityClassifierConfiguration, rateHz: Double? = nil) throws -> ActivityAgreement {
        var handles: (StandardAnalyzers, AnalyzerHandle<LabelRunsAnalyzer>)?
        let replay = try RecordingReplay.run(path: directory + "/" + path) { header in
            var (pipeline, h) = try StandardAnalyzers.pipeline(for: header, activity: configuration)
            let labels = pipeline.add(LabelRunsAnalyzer())
            handles = (h, labels)
            return [ReplaySession(policy: .samples(RecordingReplay.chunkSamples), pipeline: pipeline, decimatingTo: rateHz, labelled: header.hasLabels)]
        }
        let p = replay.sessions[0].pipeline
        let timeline = p.result(of: handles!.0.activity)
        var a = ActivityAgreement(truth: p.result(of: handles!.1), timeline: timeline)
        a.gait = GaitAgreement(steps: p.result(of: handles!.0.steps).timestamps, timeline: timeline)
        return a
    }

    /// One one-activity recording through the standard pipeline with `configuration`.
    func classify(_ path: String, activity: String, _ configuration: ActivityClassifierConfiguration) throws -> FileResult {
        var handle: StandardAnalyzers?
        let replay = try RecordingReplay.run(path: directory + "/" + path) { header in
            let (pipeline, h) = try StandardAnalyzers.pipeline(for: header, activity: configuration)
            handle = h
            return [ReplaySession(policy: .samples(RecordingReplay.chunkSamples), pipeline: pipeline)]
        }
        let p = replay.sessions[0].pipeline
        let t = p.result(of: handle!.activity)
        let judged = path.hasPrefix("activity/st/") || activity == "vehicle"
        return FileResult(path: path, activity: activity, expected: judged ? Self.expectedClass(activity) : nil,
                          durationSeconds: p.result(of: handle!.stream).durationSeconds,
                          secondsPerClass: t.secondsPerClass.map(\.1), changes: t.changes)
    }

    /// In-memory samples (a transformed recording, `header` its source's) through the standard
    /// pipeline with `configuration`; expected `still`.
    func classify(_ samples: [Sample], path: String, header: RecordingHeader, _ configuration: ActivityClassifierConfiguration) throws -> FileResult {
        let (pipeline, h) = try StandardAnalyzers.pipeline(for: header, activity: configuration)
        var session = ReplaySession(policy: .samples(RecordingReplay.chunkSamples), pipeline: pipeline)
        try session.push(samples)
        try session.finish()
        let t = session.pipeline.result(of: h.activity)
        return FileResult(path: path, activity: "still", expected: .still, durationSeconds: session.pipeline.result(of: h.stream).durationSeconds,
                          secondsPerClass: t.secondsPerClass.map(\.1), changes: t.changes)
    }

    /// Every judged figure of `report` against its target.
    public static func verdicts(_ r: Report) -> [TargetVerdict] {
        typealias T = Target
        var v: [TargetVerdict] = []
        for g in r.labelled.groups {
            let target = g.group.hasSuffix("_wrist") ? T.wristAgreementPercent : T.agreementPercent
            v.append(TargetVerdict(set: g.group, name: "agreement_percent", value: g.crossValidated.percent, target: target, comparison: .atLeast))
            if g.group.hasPrefix("hapt") {
                v.append(TargetVerdict(set: g.group, name: "onset_median_s", value: g.crossValidated.medianPostureEndSeconds ?? .infinity,
                                       target: T.onsetSeconds, comparison: .atMost))
            } else {
                v.append(TargetVerdict(set: g.group, name: "cold_onset_within_3s_percent", value: g.onsetShare(within: T.coldOnsetSeconds),
                                       target: T.coldOnsetSharePercent, comparison: .atLeast))
            }
        }
        for (set, files) in [("st_pocket", r.stPocket), ("st_wrist", r.stWrist)] {
            let judged = files.compactMap(\.correct)
            let percent = judged.isEmpty ? 0 : 100 * Double(judged.filter { $0 }.count) / Double(judged.count)
            v.append(TargetVerdict(set: set, name: "files_correct_percent", value: percent, target: T.filesCorrectPercent, comparison: .atLeast))
        }
        v.append(TargetVerdict(set: "person_at_rest", name: "min_still_percent", value: r.personAtRest.map { $0.percent(.still) }.min() ?? 0,
                               target: T.personAtRestStillPercent, comparison: .atLeast))
        v.append(TargetVerdict(set: "person_at_rest", name: "files_mostly_unknown", value: Double(r.personAtRest.filter { $0.majority == .unknown }.count),
                               target: 0, comparison: .atMost))
        let rides = r.rides
        v.append(TargetVerdict(set: "rides", name: "max_walking_running_percent",
                               value: rides.map { $0.percent(.walking) + $0.percent(.running) }.max() ?? .infinity,
                               target: T.vehicleWalkingPercent, comparison: .atMost))
        v.append(TargetVerdict(set: "rides", name: "max_changes_per_hour",
                               value: rides.filter { $0.durationSeconds >= 1800 }.map(\.changesPerHour).max() ?? 0,
                               target: T.changesPerHour, comparison: .atMost))
        v.append(TargetVerdict(set: "rides", name: "max_changes_short_rides",
                               value: Double(rides.filter { $0.durationSeconds < 1800 }.map(\.changes).max() ?? 0),
                               target: T.shortRideChanges, comparison: .atMost))
        v.append(TargetVerdict(set: "rides", name: "min_vehicle_percent", value: rides.map { $0.percent(.vehicle) }.min() ?? 0,
                               target: T.vehiclePercent, comparison: .atLeast))
        if !r.lowerRates.isEmpty {
            v.append(TargetVerdict(set: "lower_rates", name: "max_agreement_loss_points", value: r.lowerRates.map { -$0.changePoints }.max() ?? 0,
                                   target: lowerRateLossPoints, comparison: .atMost))
        }
        return v
    }
}
