import Foundation
@testable import MotionCore
import MotionTestSupport
import Testing

/// The bomb rules never refuse a real recording: every file of the datasets' manifest, gzipped at
/// zlib's best level, reads through ``GzipSource`` under the default ``ArchiveLimits``; and a long still recording (the most compressible real data:
/// constant values, regular timestamps) passes too.
@Suite(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
struct DatasetBoundsTests {
    static func manifestPaths() throws -> [String] {
        let text = try String(contentsOfFile: TestPaths.datasetsRoot + "/manifest.csv", encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).dropFirst().compactMap { $0.split(separator: ",").first.map { TestPaths.datasetsRoot + "/" + $0 } }
    }

    @Test func everyManifestRecordingGzippedReadsWithinTheBounds() throws {
        let paths = try Self.manifestPaths()
        #expect(paths.count > 300)
        var highest = 0.0
        for path in paths {
            let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let gz = ArchiveFixtures.deflate(head: raw, gzip: true)
            highest = max(highest, Double(raw.count) / Double(gz.count))
            // The plain files' duplicate runs are covered by RecordingDatasetTests (no warnings at all).
            #expect(try ArchiveFixtures.drain(RecordingReader(input: .bytes(gz, name: path + ".gz"))) > 0, "\(path)")
        }
        // Far from the bound: real data compresses an order of magnitude less.
        #expect(highest < Double(ArchiveLimits.defaultMaxRatio) / 10, "highest ratio \(highest)")
    }

    /// Two hours of a board at rest at 100 Hz (the same values every row, timestamps regular):
    /// neither a duplicate run nor past the ratio.
    @Test func aLongStillRecordingIsNoBomb() throws {
        var text = "time_s,accel_x,accel_y,accel_z\n"
        text.reserveCapacity(720_000 * 24)
        for i in 0..<720_000 { text += "\(Double(i) / 100),0.01,-0.02,9.81\n" }
        let gz = ArchiveFixtures.deflate(head: Array(text.utf8), gzip: true)
        #expect(try ArchiveFixtures.drain(RecordingReader(input: .bytes(gz, name: "still.csv.gz"))) == 720_000)
    }
}
