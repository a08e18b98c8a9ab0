extension StepEvaluation {
    /// One transformed recording's count against the count of the recording it was derived from
    /// (the arm swing sets: each wrist walk with its swing reduced or removed, against the walk as
    /// recorded, both counted with the same configuration).
    public struct SourceChange: Sendable, Equatable {
        /// The transformed recording's path (`arm-swing-removed/100.csv`).
        public var path: String
        /// The dataset file it was derived from.
        public var sourcePath: String
        /// Steps counted in the untransformed recording.
        public var sourceCount: Int
        /// Steps counted in the transformed one.
        public var counted: Int
        /// Ground-truth steps.
        public var truth: Int

        /// Creates a file's change.
        public init(path: String, sourcePath: String, sourceCount: Int, counted: Int, truth: Int) {
            self.path = path
            self.sourcePath = sourcePath
            self.sourceCount = sourceCount
            self.counted = counted
            self.truth = truth
        }

        /// Change against the untransformed count, percent of it (``changePercent(_:against:)``).
        public var changePercent: Double { Self.changePercent(counted, against: sourceCount) }

        /// The change of a count against a reference count, percent of the reference (0 when both
        /// are 0; 100 when only the reference is 0).
        public static func changePercent(_ counted: Int, against reference: Int) -> Double {
            reference == 0 ? (counted == 0 ? 0 : 100) : 100 * Double(counted - reference) / Double(reference)
        }

        /// Mean |change| over `changes`, percent (0 without any).
        public static func meanAbsChangePercent(_ changes: [SourceChange]) -> Double {
            changes.isEmpty ? 0 : changes.map { abs($0.changePercent) }.reduce(0, +) / Double(changes.count)
        }

        /// The change of largest magnitude (the first of equals), nil without any.
        public static func worst(_ changes: [SourceChange]) -> SourceChange? {
            changes.max { abs($0.changePercent) < abs($1.changePercent) }
        }
    }

    /// The sets whose recordings are judged against their untransformed source's count.
    public static let setsJudgedAgainstSource: [Set] = [.armSwingReduced, .armSwingRemoved]

    /// Each file of `set` against the count of its source recording in `results` (the same
    /// evaluation: in-sample with in-sample, cross-validated with cross-validated), in file order;
    /// files whose source is not in `results` are left out, and so is every file of a set not in
    /// ``setsJudgedAgainstSource``.
    public static func changes(of set: SetResult, in results: [SetResult]) -> [SourceChange] {
        guard setsJudgedAgainstSource.contains(set.set) else { return [] }
        var counts: [String: Int] = [:]
        for r in results where !setsJudgedAgainstSource.contains(r.set) {
            for f in r.files where f.path == f.sourcePath { counts[f.path] = f.counted }
        }
        return set.files.compactMap { f in
            counts[f.sourcePath].map { SourceChange(path: f.path, sourcePath: f.sourcePath, sourceCount: $0, counted: f.counted, truth: f.truth) }
        }
    }
}
