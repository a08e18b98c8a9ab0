import MotionCore

/// Every recording the step counter is judged on, held in memory: the step recordings of a
/// datasets folder's manifest (Oxford phone walks, Bangle.js wrist walks, non-walking
/// recordings) and the recordings derived from them for issues 17 and 23: the bout test
/// (``BoutRecordingBuilder``, Oxford walks cut into bouts between real still pieces), the slow
/// and gentle walks (``SlowWalkTransform``) and the wrist walks with their arm swing reduced and
/// removed (``ArmSwingTransform``).
///
/// Loaded once, it can be counted with many configurations (``StepEvaluation``,
/// ``StepCrossValidation``) without reading a file again.
public struct StepCorpus: Sendable {
    /// The datasets folder.
    public let directory: String
    /// The recordings: manifest order, then bouts, then slow walks, then the arm swing sets.
    public let recordings: [StepRecording]
    /// Where the bout test's still pieces came from (`path` of each source, with its duration in s).
    public let stillSources: [(path: String, seconds: Double)]
    /// The robustness scaling applied to every recording's motion (1: as recorded).
    public let amplitudeScale: Double

    /// Creates a corpus of given recordings (tests).
    public init(directory: String, recordings: [StepRecording], stillSources: [(path: String, seconds: Double)] = [], amplitudeScale: Double = 1) {
        self.directory = directory
        self.recordings = recordings
        self.stillSources = stillSources
        self.amplitudeScale = amplitudeScale
    }

    /// The manifest's activities whose recordings give still pieces for the bout test, by folder:
    /// Bangle.js `still` and `desk` (its quiet stretches only: it also holds 66 steps), the ST
    /// `stationary` log, and HAPT's `sitting` and `standing` runs.
    public static let stillActivities: Set<String> = ["still", "desk", "stationary"]

    /// The cross-validation source of a Bangle.js recording (file name): the wearer group, as the
    /// folder names it: `bangle:HughB` for the files named after their wearer, `bangle:numbered`
    /// for the numbered ones (another wearer or wearers). Leaving one out tunes the wrist figures
    /// on the other group only.
    public static func bangleSource(_ fileName: String) -> String {
        fileName.contains("HughB") ? "bangle:HughB" : "bangle:numbered"
    }
    /// The HAPT labels used as still pieces.
    public static let stillLabels: Set<String> = ["sitting", "standing"]

    /// Loads the step recordings of `directory/manifest.csv` and derives the bout, slow and arm swing sets.
    /// - Parameters:
    ///   - amplitudeScale: robustness experiment: every recording's acceleration (and every still
    ///     piece's) replaced by `mean + K · (a − mean)` before anything else (1 = as recorded).
    ///   - progress: called with each file's path before it is read.
    /// - Throws: as ``DatasetManifest/init(directory:)`` and ``MotionCore/Recording/read(path:)``
    ///   (file, line, column, problem); a ``MotionCore/RecordingError`` naming the manifest when a
    ///   set has no recordings, or the truth file of an Oxford walk that is missing or malformed.
    public static func load(directory: String, amplitudeScale: Double = 1, progress: (String) -> Void = { _ in }) throws -> StepCorpus {
        precondition(amplitudeScale.isFinite && amplitudeScale > 0, "amplitude scale must be finite and > 0")
        let manifest = try DatasetManifest(directory: directory)
        func read(_ path: String) throws -> Recording {
            progress(path)
            var r = try Recording.read(path: directory + "/" + path)
            if amplitudeScale != 1 {
                AmplitudeScaling(mean: MeanAcceleration.of(r.samples) ?? .zero, scale: amplitudeScale).apply(to: &r.samples)
            }
            return r
        }
        var recordings: [StepRecording] = []
        var still: [StillSegmentPool.Segment] = []
        var stillSources: [(String, Double)] = []
        for row in manifest.entries {
            let activity = try row.field("activity")
            if row.path.hasPrefix("steps/") {
                let truth = try row.requiredInteger("steps_true")
                let r = try read(row.path)
                let name = String(row.path.split(separator: "/").last ?? "")
                if row.path.hasPrefix("steps/oxford/") {
                    let truthPath = StepTruth.path(forRecording: directory + "/" + row.path)
                    // Foot switches double-trigger and miss: the truth is repaired, each repair counted.
                    let repaired = FootSwitchTruth(recorded: try StepTruth.read(truthPath))
                    let subject = name.split(separator: "_").dropFirst().first.map(String.init) ?? name
                    var repair = repaired.repair
                    repair.recordedCount = truth  // the manifest's count
                    recordings.append(StepRecording(path: row.path, sourcePath: row.path, set: .oxford, activity: activity,
                                                    unit: "oxford:" + subject, truth: repair.repairedCount, truthTimes: repaired.times, truthRepair: repair,
                                                    declaredRateHz: r.header.declaredRate, samples: r.samples))
                } else {
                    recordings.append(StepRecording(path: row.path, sourcePath: row.path, set: activity == "walking" ? .bangleWalks : .nonWalking,
                                                    activity: activity, unit: Self.bangleSource(name), truth: truth,
                                                    declaredRateHz: r.header.declaredRate, samples: r.samples))
                }
                if stillActivities.contains(activity) {
                    let pieces = activity == "desk" ? StillSegmentPool.quietStretches(r.samples) : [r.samples]
                    for p in pieces { still.append(.init(source: row.path, samples: p)) }
                    stillSources.append((row.path, pieces.map { Double($0.last!.timestamp - $0.first!.timestamp) / 1e9 }.reduce(0, +)))
                }
            } else if stillActivities.contains(activity) || row.path.hasPrefix("activity/hapt/") {
                let r = try read(row.path)
                let pieces = r.labels.map { StillSegmentPool.labelledRuns(r.samples, labels: $0, keeping: stillLabels) } ?? [r.samples]
                for p in pieces { still.append(.init(source: row.path, samples: p)) }
                stillSources.append((row.path, pieces.map { Double($0.last!.timestamp - $0.first!.timestamp) / 1e9 }.reduce(0, +)))
            }
        }
        let missing = [StepEvaluation.Set.oxford, .bangleWalks, .nonWalking].filter { set in !recordings.contains { $0.set == set } }
        if !missing.isEmpty {
            throw RecordingError(file: manifest.file, line: nil, problem: "no recordings for set(s) \(missing.map(\.rawValue).joined(separator: ", "))")
        }
        let walks = recordings.filter { $0.set == .oxford }
        var pool = StillSegmentPool(still)
        var derived: [StepRecording] = []
        for (w, walk) in walks.enumerated() {
            guard let built = BoutRecordingBuilder.build(walk: walk.samples, truth: walk.truthTimes ?? [], walkIndex: w, pool: &pool) else {
                if pool.segments.isEmpty {
                    throw RecordingError(file: manifest.file, line: nil,
                                         problem: "no still recordings for the bout test (activities \(stillActivities.sorted().joined(separator: ", ")), or HAPT \(stillLabels.sorted().joined(separator: "/")) runs)")
                }
                continue
            }
            derived.append(StepRecording(path: "bouts/" + walk.fileName, sourcePath: walk.path, set: .bouts, activity: "bouts",
                                         unit: walk.unit, truth: built.bouts.map(\.truth).reduce(0, +), truthTimes: built.truth, bouts: built.bouts,
                                         samples: built.samples))
        }
        let slow = SlowWalkTransform()
        for walk in recordings where walk.set == .oxford || walk.set == .bangleWalks {
            let origin = walk.samples.first?.timestamp ?? 0
            derived.append(StepRecording(path: "slow/" + walk.fileName, sourcePath: walk.path, set: .slowWalks, activity: "walking",
                                         unit: walk.unit, truth: walk.truth,
                                         truthTimes: walk.truthTimes.map { $0.map { slow.time($0, origin: origin) } },
                                         samples: slow.apply(to: walk.samples)))
        }
        // The wrist walks with less and with no arm swing: each in its walk's source (unit).
        for (set, k, folder) in [(StepEvaluation.Set.armSwingReduced, ArmSwingTransform.reduced, "arm-swing-reduced/"),
                                 (.armSwingRemoved, ArmSwingTransform.removed, "arm-swing-removed/")] {
            let transform = ArmSwingTransform(swing: k)
            for walk in recordings where walk.set == .bangleWalks {
                derived.append(StepRecording(path: folder + walk.fileName, sourcePath: walk.path, set: set, activity: "walking",
                                             unit: walk.unit, truth: walk.truth, declaredRateHz: walk.declaredRateHz,
                                             samples: transform.apply(to: walk.samples)))
            }
        }
        return StepCorpus(directory: directory, recordings: recordings + derived, stillSources: stillSources, amplitudeScale: amplitudeScale)
    }
}
