import MotionCore

/// One recording of a ``StepCorpus``, held in memory: its samples, what is true about it, the set
/// it is judged in and the cross-validation unit it belongs to.
public struct StepRecording: Sendable {
    /// The path relative to the datasets folder (`steps/oxford/…csv`), or for a recording derived
    /// from others `bouts/<walk file>`, `slow/<walk file>`, `arm-swing-reduced/<walk file>` or
    /// `arm-swing-removed/<walk file>`.
    public var path: String
    /// The dataset file it comes from (for messages), relative to the datasets folder.
    public var sourcePath: String
    /// The evaluation set.
    public var set: StepEvaluation.Set
    /// Activity from the manifest (`walking`, `vehicle`, …; `bouts` for bout recordings).
    public var activity: String
    /// The cross-validation unit (``StepCrossValidation``): `oxford:<subject>`, or a Bangle.js wearer group (``StepCorpus/bangleSource(_:)``).
    public var unit: String
    /// True steps in the whole recording (where the truth file was repaired, after the repair).
    public var truth: Int
    /// What the evaluation repaired in the recording's foot-switch truth (``FootSwitchTruth``);
    /// nil where it was taken as it is.
    public var truthRepair: FootSwitchTruth.Repair?
    /// Every true step's time (ns), where the dataset has them (Oxford and what derives from it).
    public var truthTimes: [Int64]?
    /// The walking bouts of a bout recording (empty otherwise).
    public var bouts: [StepBout]
    /// The rate the source declares (Hz), if any.
    public var declaredRateHz: Double?
    /// The samples, time order.
    public var samples: [Sample]

    /// Creates a recording.
    public init(path: String, sourcePath: String, set: StepEvaluation.Set, activity: String, unit: String, truth: Int,
                truthTimes: [Int64]? = nil, truthRepair: FootSwitchTruth.Repair? = nil, bouts: [StepBout] = [], declaredRateHz: Double? = nil,
                samples: [Sample]) {
        self.path = path
        self.sourcePath = sourcePath
        self.set = set
        self.activity = activity
        self.unit = unit
        self.truth = truth
        self.truthTimes = truthTimes
        self.truthRepair = truthRepair
        self.bouts = bouts
        self.declaredRateHz = declaredRateHz
        self.samples = samples
    }

    /// Duration from the first to the last sample, seconds (0 under two samples).
    public var durationSeconds: Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        return Double(last.timestamp - first.timestamp) / 1e9
    }

    /// The file name without folders.
    public var fileName: String { String(path.split(separator: "/").last ?? "") }
}
