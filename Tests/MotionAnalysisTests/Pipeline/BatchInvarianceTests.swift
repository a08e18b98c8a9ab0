import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// Batch invariance, once for every analyzer of MotionAnalysis, through the pipeline: on the bundled
/// HAPT excerpts (always present) and on real recordings of the datasets (when present), each
/// analyzer's result is the same for one batch, every fixed batch size, random splits, every
/// latency and the streamed file, and it found something. Add a line to `subjects` for each new analyzer.
@Suite struct BatchInvarianceTests {
    static let subjects: [BatchInvariance.Subject] = [
        .analyzer("stream") { StreamStatisticsAnalyzer(declaredRateHz: $0.declaredRate) },
        .analyzer("steps") { _ in try StepCountAnalyzer() },
        .analyzer("activity") { try ActivityAnalyzer(gyroscope: $0.sensors.contains(.gyro)) },
        .analyzer("acceleration") { _ in AccelerationMetricsAnalyzer() },
        BatchInvariance.Subject("standard") { try StandardAnalyzers.pipeline(for: $0).0 },
    ]

    static let bundled = ["hapt-user01-walking.csv", "hapt-user03-stairs.csv", "hapt-user05-mixed.csv"]

    /// Dataset recordings, and the subjects allowed to find nothing there (no steps while driving).
    static let datasets: [(path: String, quietFor: Set<String>)] = [
        ("steps/oxford/Pixel_Jamie_Hard_FrontPocket_1.csv", []),
        ("steps/oxford/Samsung_Dario_Hard_Purse_1.csv", []),
        ("steps/bangle/100_4.csv", []),
        ("steps/bangle/150_2.csv", []),
        ("steps/bangle/0_HughB-drive-36min-0.csv", ["steps", "standard"]),
        ("activity/hapt/user01_seq0.csv", []),
        // spsw: a smartwatch walk found by the rotational rhythm, and a pocket one (accel + gyro).
        ("activity/spsw/s19_02_sw.csv", []),
        ("activity/spsw/s01_02_sp.csv", []),
    ]

    @Test(arguments: subjects, bundled)
    func bundledRecordings(subject: BatchInvariance.Subject, file: String) throws {
        let problems = try BatchInvariance.problems(subject, recording: TestPaths.packageRoot.appendingPathComponent("Recordings/\(file)").path)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)),
          arguments: subjects, datasets.indices)
    func datasetRecordings(subject: BatchInvariance.Subject, index: Int) throws {
        let (path, quiet) = Self.datasets[index]
        let problems = try BatchInvariance.problems(subject, recording: TestPaths.datasetsRoot + "/" + path,
                                                    mayFindNothing: quiet.contains(subject.name))
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The check itself can fail: an analyzer whose result depends on the batching is caught, and
    /// one that finds nothing is reported.
    @Test func theCheckCatchesABatchDependentAnalyzerAndAnEmptyOne() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Recordings/\(Self.bundled[0])").path
        let dependent = try BatchInvariance.problems(.analyzer("deliveries") { _ in DeliveryCounter() }, recording: path)
        #expect(dependent.contains { $0.contains("batches of 7 differs") })
        let empty = try BatchInvariance.problems(.analyzer("nothing") { _ in NothingFinder() }, recording: path)
        #expect(empty.contains { $0.contains("found nothing") })
    }
}
