import MotionAnalysis
import MotionCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs ``StepCounter`` over the step recordings of a datasets folder (`manifest.csv` + CSV files, as
/// in `../shared/datasets`) and computes the accuracy figures of issue 4. Recordings are read with
/// MotionCore's ``Recording`` reader and fed one sample per call, so the latency of every emitted
/// step is measured exactly.
public struct StepDatasetEvaluation: Sendable {
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
        /// Longest delay between a step's timestamp and the sample whose processing emitted it, seconds.
        public var maxLatencySeconds: Double
        /// Per-step matching (Oxford only).
        public var matching: StepMatching?
        /// Step timestamps (ns).
        public var steps: [Int64]

        /// Signed error in percent of truth (nil when truth is 0).
        public var errorPercent: Double? { truth == 0 ? nil : 100 * Double(counted - truth) / Double(truth) }
        /// Steps counted beyond the truth (the false steps of a non-walking recording).
        public var excess: Int { max(0, counted - truth) }
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
    public init(directory: String, configuration: StepCounterConfiguration = StepCounterConfiguration(), amplitudeScale: Double = 1) {
        self.directory = directory
        self.configuration = configuration
        self.amplitudeScale = amplitudeScale
    }

    /// Applies ``amplitudeScale`` to a recording's samples.
    static func scaled(_ samples: [Sample], by k: Double) -> [Sample] {
        guard k != 1, !samples.isEmpty else { return samples }
        var m = Vector3(0, 0, 0)
        for s in samples { m = Vector3(m.x + s.accel.x, m.y + s.accel.y, m.z + s.accel.z) }
        let n = Double(samples.count)
        m = Vector3(m.x / n, m.y / n, m.z / n)
        return samples.map { s in
            var t = s
            t.accel = Vector3(m.x + k * (s.accel.x - m.x), m.y + k * (s.accel.y - m.y), m.z + k * (s.accel.z - m.z))
            return t
        }
    }

    /// One manifest row relevant to step counting.
    struct Entry { var path: String; var activity: String; var truth: Int; var set: Set }

    /// Reads `manifest.csv` and keeps the step recordings.
    /// - Throws: ``CLIError`` naming the manifest line on a malformed row.
    func entries() throws -> [Entry] {
        let manifest = directory + "/manifest.csv"
        let text = try Self.readText(manifest)
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init),
              let pathCol = header.firstIndex(of: "path"), let actCol = header.firstIndex(of: "activity"),
              let truthCol = header.firstIndex(of: "steps_true") else {
            throw CLIError.failure("\(manifest):1: missing header with path, activity, steps_true")
        }
        var out: [Entry] = []
        for (n, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count == header.count else {
                throw CLIError.failure("\(manifest):\(n + 1): expected \(header.count) columns, found \(f.count)")
            }
            let path = f[pathCol]
            guard path.hasPrefix("steps/") else { continue }
            guard let truth = Int(f[truthCol]) else {
                throw CLIError.failure("\(manifest):\(n + 1): steps_true '\(f[truthCol])' is not an integer")
            }
            let activity = f[actCol]
            let set: Set = path.hasPrefix("steps/oxford/") ? .oxford : (activity == "walking" ? .bangleWalks : .nonWalking)
            out.append(Entry(path: path, activity: activity, truth: truth, set: set))
        }
        return out
    }

    /// Evaluates every step recording, grouped by set.
    /// - Throws: ``CLIError`` or ``RecordingError`` naming the file and line of any bad input.
    public func run(progress: (String) -> Void = { _ in }) throws -> [SetResult] {
        var results: [Set: [FileResult]] = [:]
        for e in try entries() {
            progress(e.path)
            results[e.set, default: []].append(try evaluate(e))
        }
        let missing = Set.allCases.filter { results[$0] == nil }
        if !missing.isEmpty {
            throw CLIError.failure("\(directory)/manifest.csv: no recordings for set(s) \(missing.map(\.rawValue).joined(separator: ", "))")
        }
        return Set.allCases.map { SetResult(set: $0, files: results[$0]!) }
    }

    /// Runs the counter over one recording.
    func evaluate(_ e: Entry) throws -> FileResult {
        let path = directory + "/" + e.path
        var recording = try Recording.read(path: path)
        recording.samples = Self.scaled(recording.samples, by: amplitudeScale)
        var counter = try StepCounter(configuration: configuration)
        var steps: [Int64] = []
        var maxLatency: Int64 = 0
        try recording.samples.withUnsafeBufferPointer { all in
            for i in all.indices {
                let before = steps.count
                do {
                    try counter.process(UnsafeBufferPointer(rebasing: all[i..<(i + 1)]), into: &steps)
                } catch {
                    throw CLIError.failure("\(path): sample \(i + 1): \(error)")
                }
                if steps.count > before, let first = steps[before...].min() {
                    maxLatency = max(maxLatency, all[i].timestamp - first)
                }
            }
        }
        let duration = recording.samples.isEmpty ? 0 : Double(recording.samples.last!.timestamp - recording.samples.first!.timestamp) / 1e9
        var matching: StepMatching?
        if e.set == .oxford {
            let truthPath = String(path.dropLast(4)) + ".steps.csv"
            matching = StepMatching(detected: steps, truth: try Self.readStepTimes(truthPath))
        }
        return FileResult(path: e.path, activity: e.activity, counted: steps.count, truth: e.truth,
                          durationSeconds: duration, maxLatencySeconds: Double(maxLatency) / 1e9,
                          matching: matching, steps: steps)
    }

    /// Reads a `.steps.csv` file (header `time_s`, one time in seconds per line) as nanoseconds.
    /// - Throws: ``CLIError`` naming file and line of a bad value.
    static func readStepTimes(_ path: String) throws -> [Int64] {
        let text = try readText(path)
        var out: [Int64] = []
        for (n, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if n == 0 {
                guard line == "time_s" else { throw CLIError.failure("\(path):1: expected header 'time_s'") }
                continue
            }
            if line.isEmpty { continue }
            guard let s = Double(line), s.isFinite else {
                throw CLIError.failure("\(path):\(n + 1): '\(line)' is not a time in seconds")
            }
            out.append(Int64((s * 1e9).rounded()))
        }
        return out
    }

    /// Reads a whole small text file (`fopen`/`fread`).
    static func readText(_ path: String) throws -> String {
        guard let f = fopen(path, "rb") else {
            throw CLIError.failure("\(path): cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(f) != 0 { throw CLIError.failure("\(path): read error") }
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
