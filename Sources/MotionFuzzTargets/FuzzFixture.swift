#if canImport(Glibc)
import Glibc
#endif
import MotionCore
import MotionSystem

/// The small recording the option-parser target runs commands on: 20 s of synthetic walking at
/// 50 Hz (a 2 Hz step rhythm on gravity), written once per process to a temporary folder.
enum FuzzFixture {
    /// The recording's path (created at first use).
    static let walkingRecordingPath: String = {
        var template = Array("/tmp/motionbatch-fuzz-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { b in mkdtemp(b.baseAddress!).map { String(cString: $0) } } ?? "/tmp"
        let path = dir + "/walk.csv"
        let samples = (0..<1000).map { i -> Sample in
            let t = Double(i) / 50
            let step = 2.5 * sin(2 * Double.pi * 2 * t)
            return Sample(timestamp: Int64(i) * 20_000_000, accel: Vector3(0.3 * step, 0.2, 9.81 + step), gyro: .zero)
        }
        do {
            var encoder = try RecordingEncoder(header: RecordingHeader(sensors: .accel, metadata: [RecordingKey.actualHz: "50"]), path: path)
            var bytes = encoder.headerText
            try encoder.encode(samples, labels: nil, into: &bytes)
            try OutputFile.write(bytes, to: path)
        } catch {
            preconditionFailure("cannot write the fuzz fixture \(path): \(error)")
        }
        return path
    }()
}
