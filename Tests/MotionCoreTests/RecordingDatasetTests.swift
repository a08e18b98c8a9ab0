import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// The shared datasets folder (`TestPaths.datasetsRoot`).
let datasetsRoot = TestPaths.datasetsRoot

/// Every `*.csv` recording under the datasets folder except the manifest and step-truth files and
/// `devices/` (raw files as devices write them, in their own formats: not the datasets' plain CSV).
func datasetRecordings() -> [String] {
    guard let e = FileManager.default.enumerator(atPath: datasetsRoot) else { return [] }
    return e.compactMap { $0 as? String }
        .filter { $0.hasSuffix(".csv") && !$0.hasSuffix(".steps.csv") && $0 != "manifest.csv" && !$0.hasPrefix("devices/") }
        .sorted()
        .map { datasetsRoot + "/" + $0 }
}

// Skipped when the datasets folder is absent (a fresh clone without ../shared/datasets).
@Suite(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
struct RecordingDatasetTests {
    @Test func readsEveryDatasetRecordingStrictly() throws {
        let files = datasetRecordings()
        #expect(files.count > 50)
        var total = 0
        for path in files {
            let r = try Recording.read(path: path)
            #expect(r.header.format == .plain, "\(path)")
            #expect(!r.samples.isEmpty, "\(path)")
            #expect(r.warnings.isEmpty, "\(path): \(r.warnings)")
            #expect(r.samples.allSatisfy { $0.accel.isFinite && $0.gyro.isFinite }, "\(path)")
            total += r.samples.count
        }
        #expect(total > 1_000_000)
    }

    @Test func haptHasGyroAndLabels() throws {
        let r = try Recording.read(path: datasetsRoot + "/activity/hapt/user01_seq0.csv")
        #expect(r.header.sensors == [.accel, .gyro])
        let labels = try #require(r.labels)
        #expect(labels.count == r.samples.count)
        #expect(Set(labels.compactMap { $0 }).isSuperset(of: ["walking", "sitting", "standing", "lying"]))
        // 50 Hz: consecutive timestamps 20 ms apart, exactly, from the decimal digits.
        #expect(r.samples[1].timestamp - r.samples[0].timestamp == 20_000_000)
    }
}
