import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// The Bangle.js accellog CSV in its three forms (docs/dialects.md, "Bangle.js accellog"): the
/// current app's `Time (ms),X,Y,Z,Total` in g and with "Log raw data" (8192 = 1 g), and the older
/// `Time (ms),X,Y,Z` in raw counts; each reads as the same walk in m/s².
struct BangleDialectTests {
    enum Form: String, CaseIterable { case currentInG, currentRaw, older }

    /// The bundled real walk written the way the app writes `form`.
    static func write(_ form: Form, samples: [Sample]) throws -> String {
        let g = AccelerationUnit.standardGravityValue
        let t0 = samples[0].timestamp
        var text = form == .older ? "Time (ms),X,Y,Z\n" : "Time (ms),X,Y,Z,Total\n"
        for s in samples {
            let ms = (s.timestamp - t0) / 1_000_000
            let axes = [s.accel.x, s.accel.y, s.accel.z].map { $0 / g }
            let total = s.accel.magnitude / g
            switch form {
            case .currentInG:
                text += "\(ms)," + axes.map { String(format: "%.4f", $0) }.joined(separator: ",") + String(format: ",%.4f\n", total)
            case .currentRaw:
                text += "\(ms)," + axes.map { String(Int(($0 * 8192).rounded())) }.joined(separator: ",") + ",\(Int((total * 8192).rounded()))\n"
            case .older:
                text += "\(ms)," + axes.map { String(Int(($0 * 8192).rounded())) }.joined(separator: ",") + "\n"
            }
        }
        return try TestPaths.scratchFile(text, name: "accellog.csv")
    }

    @Test(arguments: Form.allCases)
    func eachFormReadsAsTheWalkInMetresPerSecondSquared(form: Form) throws {
        let walk = try Recording.read(path: TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path).samples
        let path = try Self.write(form, samples: walk)
        let reader = try RecordingReader(input: .path(path), options: RecordingReadOptions(plausibility: PlausibilityRule(minimumRateHz: 12.5)))
        #expect(reader.dialect.name == "bangle")
        let read = try Recording.read(reader)
        #expect(read.samples.count == walk.count)
        // g to 4 decimals: 0.0005 g; raw: half of 9.80665/8192.
        let tolerance = form == .currentInG ? 0.0005 * 9.80665 : 9.80665 / 8192
        let worst = zip(read.samples, walk).map { a, b in
            max(abs(a.accel.x - b.accel.x), abs(a.accel.y - b.accel.y), abs(a.accel.z - b.accel.z))
        }.max() ?? .infinity
        #expect(worst <= tolerance, "\(form): worst axis error \(worst) m/s²")
        #expect(read.warnings.isEmpty, "\(read.warnings)")
    }

    @Test func theUnitIsToldByMagnitude() {
        #expect(BangleDialect.holdsRawCounts(Array("Time (ms),X,Y,Z,Total\n0,8602,-3300,-1183,9286\n".utf8)))
        #expect(!BangleDialect.holdsRawCounts(Array("Time (ms),X,Y,Z,Total\n0,1.05,-0.40,-0.14,1.13\n".utf8)))
        #expect(!BangleDialect.holdsRawCounts(Array("Time (ms),X,Y,Z,Total\n".utf8)))
    }
}
