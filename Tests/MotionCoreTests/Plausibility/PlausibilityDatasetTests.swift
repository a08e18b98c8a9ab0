import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// The plausibility rule on every real recording: none of them gets a warning (manifest.csv's
/// recordings, spsw included, and every file under `devices/` that MotionBatch reads).
@Suite(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
struct PlausibilityDatasetTests {
    /// The manifest's paths, then every file under `devices/`.
    static func recordings() throws -> [String] {
        let manifest = try String(contentsOfFile: TestPaths.datasetsRoot + "/manifest.csv", encoding: .utf8)
        var paths = manifest.split(whereSeparator: \.isNewline).dropFirst().compactMap { $0.split(separator: ",").first.map(String.init) }
        let devices = TestPaths.datasetsRoot + "/devices"
        if let e = FileManager.default.enumerator(atPath: devices) {
            for case let p as String in e where !p.hasPrefix(".") {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: devices + "/" + p, isDirectory: &isDirectory), !isDirectory.boolValue {
                    paths.append("devices/" + p)
                }
            }
        }
        return paths.map { TestPaths.datasetsRoot + "/" + $0 }
    }

    @Test func noRealRecordingIsQuestioned() throws {
        let paths = try Self.recordings()
        #expect(paths.count > 300)
        var read = 0
        var questioned: [String] = []
        for path in paths {
            let reader: RecordingReader
            do {
                reader = try RecordingReader(input: .path(path), options: RecordingReadOptions(plausibility: PlausibilityRule(minimumRateHz: 12.5)))
            } catch {
                #expect(path.contains("/devices/"), "a manifest recording that does not read: \(error)")
                continue
            }
            while try reader.next(maxSamples: 1 << 16) != nil {}
            read += 1
            questioned += reader.warnings.filter { RecordingWarningKind.plausibility.contains($0.kind) }.map(\.description)
        }
        #expect(questioned.isEmpty, "\(questioned)")
        #expect(read >= 349)
    }
}
