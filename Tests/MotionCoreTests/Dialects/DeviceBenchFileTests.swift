import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// Writes the 7-day 100 Hz device files `bench parse` is measured on (docs/research.md), with
/// the tests' writers, when `MOTIONBATCH_BENCH_DEVICE_DIR` names a folder: `week.cwa` (AX3
/// packed, 504,000 blocks of 120 samples, 258 MB) and `week-gt3x/` (info.txt and a log.bin of
/// 604,800 ACTIVITY2 records, 368 MB). Each is read back here to check its sample count.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MOTIONBATCH_BENCH_DEVICE_DIR"] != nil))
struct DeviceBenchFileTests {
    static let dir = ProcessInfo.processInfo.environment["MOTIONBATCH_BENCH_DEVICE_DIR"] ?? ""
    static let seconds = 7 * 86_400

    @Test func writesASevenDayCWAFile() throws {
        var w = CWAWriter()
        w.header()
        let path = Self.dir + "/week.cwa"
        FileManager.default.createFile(atPath: path, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try out.write(contentsOf: w.bytes)
        var rng = SplitMix64(seed: 27)
        let blocks = Self.seconds * 100 / 120
        for n in 0..<blocks {
            w.bytes.removeAll(keepingCapacity: true)
            let startMs = Int64(n) * 1200
            let samples = (0..<120).map { _ in (Int(rng.next() % 64) - 32, Int(rng.next() % 64) - 32, 256 + Int(rng.next() % 16)) }
            w.block(CWAWriter.Block(sequence: UInt32(n), second: CWADialectTests.t0 + startMs / 1000, storedOffset: Int16(-(startMs % 1000) / 10), accel: samples))
            try out.write(contentsOf: w.bytes)
        }
        try out.close()
        let r = try RecordingReader(input: .path(path))
        var count = 0
        while let c = try r.next(maxSamples: 1 << 16) { count += c.samples.count }
        #expect(count == blocks * 120)
        #expect(r.warnings.isEmpty)
    }

    @Test func writesASevenDayGT3XFolder() throws {
        let folder = Self.dir + "/week-gt3x"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data((GT3XLogWriter.linkInfo(rate: 100).joined(separator: "\r\n") + "\r\n").utf8).write(to: URL(fileURLWithPath: folder + "/info.txt"))
        FileManager.default.createFile(atPath: folder + "/log.bin", contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/log.bin"))
        var rng = SplitMix64(seed: 27)
        for s in 0..<Self.seconds {
            var w = GT3XLogWriter()
            w.activity2(second: UInt32(1_616_169_420 + s), (0..<100).map { _ in (Int16(rng.next() % 64) - 32, Int16(rng.next() % 64) - 32, 256 + Int16(rng.next() % 16)) })
            try out.write(contentsOf: w.bytes)
        }
        try out.close()
        let r = try RecordingReader(input: .path(folder))
        var count = 0
        while let c = try r.next(maxSamples: 1 << 16) { count += c.samples.count }
        #expect(count == Self.seconds * 100)
    }
}
