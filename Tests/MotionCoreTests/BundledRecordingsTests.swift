import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// `<package root>/Recordings`.
let recordingsDirectory: String = TestPaths.packageRoot.appendingPathComponent("Recordings").path

/// Each bundled excerpt: file, HAPT source, and the cut in seconds.
let bundledRecordings: [(file: String, source: String, from: Int64, to: Int64)] = [
    ("hapt-user01-walking.csv", "activity/hapt/user01_seq0.csv", 150, 230),
    ("hapt-user03-stairs.csv", "activity/hapt/user03_seq0.csv", 280, 352),
    ("hapt-user05-mixed.csv", "activity/hapt/user05_seq1.csv", 46, 235),
]

@Suite struct BundledRecordingsTests {
    @Test(arguments: bundledRecordings.map(\.file))
    func bundledRecordingIsValidOwnFormat(_ file: String) throws {
        let r = try Recording.read(path: recordingsDirectory + "/" + file)
        #expect(r.header.format == .motionbatch(version: 1))  // version-1 files keep reading
        #expect(r.header.sensors == [.accel, .gyro])
        #expect(r.header.declaredRate == 50)
        #expect(r.header.metadata["license"]?.contains("CC BY 4.0") == true)
        #expect(r.warnings.isEmpty)
        let labels = try #require(r.labels)
        #expect(labels.count == r.samples.count)
        #expect(labels.contains("walking") || labels.contains("walking_upstairs"))
        // 50 Hz without gaps.
        #expect(zip(r.samples, r.samples.dropFirst()).allSatisfy { $1.timestamp - $0.timestamp == 20_000_000 })
    }

    // Skipped when the datasets folder is absent: the excerpt must equal the source slice exactly.
    @Test(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)),
          arguments: bundledRecordings)
    func bundledRecordingEqualsItsSource(_ entry: (file: String, source: String, from: Int64, to: Int64)) throws {
        let excerpt = try Recording.read(path: recordingsDirectory + "/" + entry.file)
        let source = try Recording.read(path: datasetsRoot + "/" + entry.source)
        let range = source.samples.indices.filter {
            source.samples[$0].timestamp >= entry.from * 1_000_000_000 && source.samples[$0].timestamp < entry.to * 1_000_000_000
        }
        #expect(excerpt.samples == range.map { source.samples[$0] })
        #expect(excerpt.labels == range.map { source.labels![$0] })
    }
}
