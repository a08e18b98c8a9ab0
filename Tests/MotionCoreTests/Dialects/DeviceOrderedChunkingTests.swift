import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// The binary device readers (CWA, GT3X log.bin and activity.bin) decode straight into the
/// caller's array, a record or block split wherever the caller's chunk ends: on large files
/// written by ``CWAWriter`` and ``GT3XLogWriter`` (longer than the readers' 1 MiB buffer, with
/// every defect they tolerate), the samples and warnings are the same whatever the chunk size,
/// whether the caller empties its array between calls or lets it grow.
@Suite struct DeviceOrderedChunkingTests {
    static let chunks = [1, 7, 4096, 65_536]

    /// Every sample and the warnings, read `chunk` at a time; `growing`: appended to one array
    /// that is never emptied (else read into a reused one and copied).
    static func read(_ path: String, chunk: Int, growing: Bool) throws -> (samples: [Sample], warnings: [RecordingWarning]) {
        let reader = try RecordingReader(input: .path(path), options: RecordingReadOptions(threads: 1))
        var all: [Sample] = []
        var buffer: [Sample] = []
        var labels: [String?] = []
        while true {
            if growing {
                let before = all.count
                let n = try reader.read(into: &all, labels: &labels, maxSamples: chunk)
                #expect(all.count - before == n && n <= chunk)
                if n == 0 { break }
            } else {
                buffer.removeAll(keepingCapacity: true)
                let n = try reader.read(into: &buffer, labels: &labels, maxSamples: chunk)
                #expect(buffer.count == n && n <= chunk)
                if n == 0 { break }
                all += buffer
            }
        }
        return (all, reader.warnings)
    }

    /// The reference (whole blocks of 65,536) and every other chunking agree.
    static func expectSameWhateverTheChunking(_ path: String) throws -> (samples: [Sample], warnings: [RecordingWarning]) {
        let reference = try read(path, chunk: 65_536, growing: false)
        for chunk in chunks {
            for growing in [false, true] where !(chunk == 65_536 && !growing) {
                let other = try read(path, chunk: chunk, growing: growing)
                #expect(other.samples.count == reference.samples.count, "chunk \(chunk) growing \(growing)")
                #expect(other.samples == reference.samples, "chunk \(chunk) growing \(growing)")
                #expect(other.warnings == reference.warnings, "chunk \(chunk) growing \(growing)")
            }
        }
        let whole = try Recording.read(try RecordingReader(input: .path(path)))
        #expect(whole.samples == reference.samples)
        #expect(whole.warnings == reference.warnings)
        return reference
    }

    /// 2,600 blocks (1.3 MB) of AX3 packed samples at 100 Hz, a few unpacked and AX6 blocks among
    /// them, a bad checksum, a block that is no data block, a time jump, a block that steps back
    /// half a second, and a truncated last block.
    static func largeCWA(stepBackBeyondTolerance: Bool = false) -> CWAWriter {
        var w = CWAWriter()
        w.header(hardwareType: 0x64, sensorConfig: 0x02)
        var rng = SplitMix64(seed: 7)
        var jump: Int64 = 0
        for n in 0..<2_600 {
            let startMs = Int64(n) * 1200
            var b = CWAWriter.Block(sequence: UInt32(n), second: CWADialectTests.t0 + startMs / 1000 + jump, storedOffset: Int16(-(startMs % 1000) / 10),
                                    accel: (0..<120).map { _ in (Int(rng.next() % 1024) - 512, Int(rng.next() % 2048) - 1024, 256 + Int(rng.next() % 16)) })
            switch n {
            case 300..<303:
                b.packing = .unpacked
                b.accelScaleN = n - 300
                b.accel = Array(b.accel.prefix(80))
            case 500..<502:
                b.packing = .gyroAccel
                b.gyroScaleN = 2
                b.accel = Array(b.accel.prefix(40))
                b.gyro = (0..<40).map { _ in (Int(rng.next() % 65_536) - 32_768, Int(rng.next() % 200), -Int(rng.next() % 200)) }
            case 700: b.corruptChecksum = true
            case 900: b.header = [0x41, 0x59]
            case 1_100:
                jump = 3_600
                b.second += jump
            case 1_500 where !stepBackBeyondTolerance: b.storedOffset += 50
            case 1_500: b.second -= 5
            default: break
            }
            w.block(b)
        }
        var tail = CWAWriter()
        tail.block(CWAWriter.Block(sequence: 2_600, second: CWADialectTests.t0 + 3_120 + jump, storedOffset: 0, accel: CWADialectTests.ramp(0, 120)))
        w.bytes += tail.bytes.prefix(300)
        return w
    }

    @Test func cwaSamplesAndWarningsDoNotDependOnTheChunking() throws {
        let r = try Self.expectSameWhateverTheChunking(try Self.largeCWA().write(name: "large.cwa"))
        // 2,598 good blocks: 2,593 of 120, 3 of 80, 2 of 40, less the 50 samples stepped back.
        #expect(r.samples.count == 2_593 * 120 + 3 * 80 + 2 * 40 - 50)
        let kinds = Dictionary(r.warnings.map { ($0.kind, $0.count) }, uniquingKeysWith: +)
        #expect(kinds[.badChecksum] == 1 && kinds[.truncatedBlock] == 2 && kinds[.backwardStep] == 50)
        // After each short block (its samples end before the next anchor), at the hour's jump,
        // and around the block anchored half a second early.
        #expect(kinds[.timeJump] == 8, "\(r.warnings)")
        #expect(r.samples.contains { $0.gyro != .zero })
        #expect(zip(r.samples, r.samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    /// A step back beyond the tolerance: the same error, after the same samples, whatever the chunking.
    @Test func cwaRefusalComesAfterTheSameSamplesWhateverTheChunking() throws {
        let path = try Self.largeCWA(stepBackBeyondTolerance: true).write(name: "back.cwa")
        var outcomes: [(Int, String)] = []
        for chunk in Self.chunks {
            let reader = try RecordingReader(input: .path(path), options: RecordingReadOptions(threads: 1))
            var all: [Sample] = []
            var labels: [String?] = []
            var message = ""
            do {
                while try reader.read(into: &all, labels: &labels, maxSamples: chunk) > 0 {}
            } catch {
                message = "\(error)"
            }
            outcomes.append((all.count, message))
            // Blocks 0 to 1,499 but the two skipped.
            #expect(all.count == 1_493 * 120 + 3 * 80 + 2 * 40, "chunk \(chunk)")
            #expect(zip(all, all.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        }
        #expect(outcomes.allSatisfy { $0 == outcomes[0] })
        #expect(outcomes[0].1.contains("back.cwa") && outcomes[0].1.contains("goes back"))
    }

    /// 3,000 s of ACTIVITY2 at 100 Hz (1.8 MB), with ACTIVITY (12-bit) records, idle sleep mode
    /// (seconds filled with the last sample), padding, stray bytes, a bad checksum, a record
    /// that repeats the previous second (stepped back), and a truncated last record.
    @Test func gt3xLogSamplesAndWarningsDoNotDependOnTheChunking() throws {
        var w = GT3XLogWriter()
        w.parameters(second: 1_000, accelScale: nil, idleSleepMode: true)
        var rng = SplitMix64(seed: 11)
        func samples(_ n: Int) -> [(Int16, Int16, Int16)] {
            (0..<n).map { _ in (Int16(rng.next() % 4096) - 2048, Int16(rng.next() % 4096) - 2048, Int16(rng.next() % 512)) }
        }
        var second: UInt32 = 1_001
        for n in 0..<3_000 {
            switch n {
            case 100..<110: w.activity(second: second, samples(100))
            case 400:
                w.event(second: second, 0x08)
                second += 37
                w.event(second: second, 0x09)
                w.activity2(second: second, samples(100))
            case 600: w.activity2(second: second, samples(100), corruptChecksum: true)
            case 800:
                w.bytes += [0, 0, 0, 0x55, 0x66]
                w.activity2(second: second, samples(100))
            case 1_000:
                w.activity2(second: second - 1, samples(100))
            default: w.activity2(second: second, samples(100))
            }
            second += 1
        }
        w.event(second: second, 0x08)
        w.record(type: 0x02, second: second + 5, payload: [0xD1, 0x0F])
        var tail = GT3XLogWriter()
        tail.activity2(second: second + 6, samples(100))
        w.bytes += tail.bytes.dropLast(7)
        let r = try Self.expectSameWhateverTheChunking(try w.folder(info: GT3XLogWriter.linkInfo(rate: 100)))
        let kinds = Dictionary(r.warnings.map { ($0.kind, $0.count) }, uniquingKeysWith: +)
        #expect(kinds[.badChecksum] == 1 && kinds[.strayBytes] == 1 && kinds[.truncatedBlock] == 1 && kinds[.backwardStep] == 100, "\(r.warnings)")
        // 2,999 records of 100 (one bad), 37 seconds filled, and 5 at the end, less the 100 stepped back.
        #expect(r.samples.count == 2_999 * 100 + 37 * 100 + 5 * 100 - 100)
        #expect(zip(r.samples, r.samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    /// activity.bin (12-bit samples back to back, pairs in 9 bytes): an odd count and a torn last byte.
    @Test func gt3xActivityBinSamplesDoNotDependOnTheChunking() throws {
        var rng = SplitMix64(seed: 13)
        let samples = (0..<250_001).map { _ in (Int16(rng.next() % 4096) - 2048, Int16(rng.next() % 4096) - 2048, Int16(rng.next() % 4096) - 2048) }
        let dir = try TestPaths.makeScratchDirectory(prefix: "gt3x-activity")
        try Data((GT3XLogWriter.linkInfo(rate: 30).joined(separator: "\r\n") + "\r\n").utf8).write(to: dir.appendingPathComponent("info.txt"))
        try Data(GT3XLogWriter.pack12(samples) + [0x12, 0x34]).write(to: dir.appendingPathComponent("activity.bin"))
        let r = try Self.expectSameWhateverTheChunking(dir.path)
        #expect(r.samples.count == samples.count)
        #expect(r.warnings.map(\.kind).contains(.truncatedBlock))
        let scale = 256 / 9.80665
        #expect(r.samples.suffix(3).map { Int16(($0.accel.x * scale).rounded()) } == samples.suffix(3).map(\.0))
        #expect(r.samples[30].timestamp - r.samples[0].timestamp == 1_000_000_000)
    }
}
