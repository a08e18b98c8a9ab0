import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// The Axivity `.cwa` reader on files written by ``CWAWriter`` from the format's description:
/// every field (packing, scales, rate code, timestamp, fraction and offset, AX6 gyroscope,
/// header) and every defect (bad checksum, a block that is no data block, a truncated block,
/// a time jump).
@Suite struct CWADialectTests {
    static let g = 9.80665
    /// 2024-03-01T12:00:00 local, as seconds since the local epoch.
    static let t0: Int64 = 1_709_294_400

    static func read(_ path: String, tz: String? = nil) throws -> Recording {
        var options = RecordingReadOptions()
        options.dialect.timeZone = tz.flatMap(UTCOffset.init(parsing:))
        return try Recording.read(try RecordingReader(input: .path(path), options: options))
    }

    /// `count` distinct samples starting at `start` (x = i, y = −i, z = 256 − i).
    static func ramp(_ start: Int, _ count: Int, scale: Int = 1) -> [(Int, Int, Int)] {
        (start..<(start + count)).map { ($0 * scale, -$0 * scale, (256 - $0) * scale) }
    }

    /// Three packed AX3 blocks at 100 Hz, each 120 samples, anchored 1.2 s apart.
    static func ax3(blocks: Int = 3, edit: (inout CWAWriter.Block, Int) -> Void = { _, _ in }) -> CWAWriter {
        var w = CWAWriter()
        w.header()
        for n in 0..<blocks {
            // Block n starts at t0 + 1.2 n s: its whole second and the sample there.
            let startMs = Int64(n) * 1200
            let second = t0 + startMs / 1000
            let offset = Int16(-(startMs % 1000) / 10)
            var b = CWAWriter.Block(sequence: UInt32(n), second: second, fraction: nil, storedOffset: offset, accel: ramp(n * 120, 120))
            edit(&b, n)
            w.block(b)
        }
        return w
    }

    @Test func packedAX3ReadsEveryValueAndTime() throws {
        let r = try Self.read(try Self.ax3().write())
        #expect(r.header.sensors == .accel)
        #expect(r.header.metadata[RecordingKey.actualHz] == "100")
        #expect(r.header.metadata["accel_range"] == "±8 g")
        #expect(r.header.metadata[RecordingKey.device] == "Axivity AX3 device 74565 session 777 firmware 45")
        #expect(r.header.metadata[RecordingKey.timeBasis] == DeviceTimeBasis.deviceLocal)
        #expect(r.samples.count == 360)
        let counts = r.samples.map { s in [s.accel.x, s.accel.y, s.accel.z].map { Int(($0 / Self.g * 256).rounded()) } }
        #expect(counts == Self.ramp(0, 360).map { [$0.0, $0.1, $0.2] })
        #expect(r.samples.map(\.timestamp) == (0..<360).map { (Self.t0 * 1000 + Int64($0) * 10) * 1_000_000 })
        #expect(r.warnings.isEmpty, "\(r.warnings)")
    }

    @Test func thePackedExponentScalesValues() throws {
        var w = CWAWriter()
        w.header()
        w.block(CWAWriter.Block(sequence: 0, second: Self.t0, storedOffset: 0, accel: [(2044, -2048, 1000), (-4, 8, 511)]))
        let r = try Self.read(try w.write())
        let counts = r.samples.map { s in [s.accel.x, s.accel.y, s.accel.z].map { Int(($0 / Self.g * 256).rounded()) } }
        #expect(counts == [[2044, -2048, 1000], [-4, 8, 511]])
    }

    @Test func withTzTimesAreUTC() throws {
        let r = try Self.read(try Self.ax3(blocks: 1).write(), tz: "+01:00")
        #expect(r.header.metadata[RecordingKey.timeBasis] == DeviceTimeBasis.utc)
        #expect(r.header.metadata[RecordingKey.utcOffset] == "+01:00 (--tz)")
        #expect(r.samples.first?.timestamp == (Self.t0 - 3600) * 1_000_000_000)
    }

    @Test func theFractionAndOffsetAnchorTheBlock() throws {
        // A block whose timestamp is t0 + 0.25 s (fraction 16384) at sample 30; the device stores
        // the offset less the fraction's 25 whole samples at 100 Hz: 5.
        var w = CWAWriter()
        w.header()
        w.block(CWAWriter.Block(sequence: 0, second: Self.t0, fraction: 16_384, storedOffset: 5, accel: Self.ramp(0, 120)))
        let r = try Self.read(try w.write())
        // Sample 30 at t0 + 0.25 s, so sample 0 at t0 − 0.05 s.
        #expect(r.samples[30].timestamp == Self.t0 * 1_000_000_000 + 250_000_000)
        #expect(r.samples[0].timestamp == Self.t0 * 1_000_000_000 - 50_000_000)
    }

    @Test func samplesAreSpacedBetweenConsecutiveAnchors() throws {
        // The device's clock says 120 samples took 1.21 s (a slow oscillator): they are spaced
        // 1.21 s / 120 apart, not at the nominal 10 ms.
        var w = CWAWriter()
        w.header()
        w.block(CWAWriter.Block(sequence: 0, second: Self.t0, storedOffset: 0, accel: Self.ramp(0, 120)))
        // Block 1's sample 0 at t0 + 1 s + 13762/65536 s; the stored offset is less the
        // fraction's (13762 × 100) >> 16 = 20 whole samples.
        w.block(CWAWriter.Block(sequence: 1, second: Self.t0 + 1, fraction: 13_762, storedOffset: -20, accel: Self.ramp(120, 120)))
        let r = try Self.read(try w.write())
        #expect(r.samples.count == 240)
        let anchor = (Self.t0 + 1) * 1_000_000_000 + Int64((13_762 * 1_000_000_000 + 32_768) >> 16)
        #expect(r.samples[120].timestamp == anchor)
        let step = Double(anchor - Self.t0 * 1_000_000_000) / 120
        #expect(abs(Double(r.samples[119].timestamp - r.samples[0].timestamp) - 119 * step) < 1)
        #expect(abs(step - 1e7) > 1000)
        #expect(r.warnings.isEmpty, "\(r.warnings)")
    }

    @Test func unpackedAX3AndAX6GyroscopeScale() throws {
        var w = CWAWriter()
        w.header()
        w.block(CWAWriter.Block(sequence: 0, second: Self.t0, storedOffset: 0, packing: .unpacked, accel: [(256, -512, 32767), (-32768, 0, 1)]))
        let ax3 = try Self.read(try w.write())
        let expected: [[Double]] = [[1, -2, 32767.0 / 256], [-128, 0, 1.0 / 256]]
        let got: [[Double]] = ax3.samples.map { s in [s.accel.x / Self.g, s.accel.y / Self.g, s.accel.z / Self.g] }
        #expect(got == expected)

        var w6 = CWAWriter()
        w6.header(hardwareType: 0x64, sensorConfig: 0x02)
        w6.block(CWAWriter.Block(sequence: 0, second: Self.t0, storedOffset: 0, packing: .gyroAccel, accelScaleN: 4, gyroScaleN: 1,
                                 accel: [(4096, -2048, 0)], gyro: [(16384, -32768, 0)]))
        let ax6 = try Self.read(try w6.write())
        #expect(ax6.header.sensors == [.accel, .gyro])
        #expect(ax6.header.metadata[RecordingKey.device]?.hasPrefix("Axivity AX6") == true)
        let s = try #require(ax6.samples.first)
        #expect([s.accel.x, s.accel.y, s.accel.z].map { $0 / Self.g } == [1, -0.5, 0])
        // 2000 dps over 32768: 16384 is 1000 dps.
        #expect(abs(s.gyro.x - 1000 * Double.pi / 180) < 1e-12 && abs(s.gyro.y + 2000 * Double.pi / 180) < 1e-12 && s.gyro.z == 0)
    }

    @Test func aBadChecksumBlockIsSkippedAndCounted() throws {
        let w = Self.ax3 { b, n in if n == 1 { b.corruptChecksum = true } }
        let r = try Self.read(try w.write())
        #expect(r.samples.count == 240)
        let warning = try #require(r.warnings.first { $0.kind == .badChecksum })
        #expect(warning.firstLines == [2])
        // The blocks around it keep their own times.
        #expect(r.samples[120].timestamp == (Self.t0 * 1000 + 2400) * 1_000_000)
        #expect(!r.warnings.contains { $0.kind == .timeJump })
    }

    @Test func aBlockThatIsNoDataBlockAndATruncatedOneAreCounted() throws {
        var w = Self.ax3 { b, n in if n == 0 { b.header = [0x58, 0x41] } }
        w.bytes += [0x41, 0x58, 0xFC, 0x01, 0, 0]
        let r = try Self.read(try w.write())
        #expect(r.samples.count == 240)
        let truncated = try #require(r.warnings.first { $0.kind == .truncatedBlock })
        #expect(truncated.count == 2 && truncated.firstLines == [1, 4])
    }

    @Test func aTimeJumpIsCountedAndKeptAtItsOwnTime() throws {
        let w = Self.ax3 { b, n in if n == 2 { b.second += 3600 } }
        let r = try Self.read(try w.write())
        #expect(r.samples.count == 360)
        #expect(r.warnings.map(\.kind) == [.timeJump])
        #expect(r.warnings.first?.firstLines == [3])
        #expect(r.samples[240].timestamp == (Self.t0 * 1000 + 3_600_000 + 2400) * 1_000_000)
        // The block before the jump is spaced at the nominal rate.
        #expect(r.samples[239].timestamp - r.samples[238].timestamp == 10_000_000)
    }

    @Test func aStepBackWithinOneSecondDropsTheEarlierSamples() throws {
        // Block 2 anchored 0.5 s early (sample 10 at t0 + 2 s): its first 50 samples are not
        // after block 1's last one (t0 + 2.39 s).
        let w = Self.ax3 { b, n in if n == 2 { b.storedOffset = 10 } }
        let r = try Self.read(try w.write())
        let back = try #require(r.warnings.first { $0.kind == .backwardStep })
        #expect(back.count == 50 && back.firstLines == [3, 3, 3, 3, 3])
        #expect(r.samples.count == 360 - 50)
        #expect(zip(r.samples, r.samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    @Test func aStepBackBeyondOneSecondIsTheDefectRulesError() throws {
        let w = Self.ax3 { b, n in if n == 2 { b.second -= 10 } }
        #expect { try Self.read(try w.write()) } throws: { "\($0)".contains("rec.cwa") }
    }

    @Test func recognisedByContentAndRefusedWhenNotCWA() throws {
        let w = Self.ax3(blocks: 1)
        #expect(CWADialect().recognizes(Array(w.bytes.prefix(64))))
        #expect(!CWADialect().recognizes(Array("MD,x,y,z\n1,2,3,4\n".utf8)))
        let reader = try RecordingReader(input: .path(try w.write()))
        #expect(reader.dialect.name == "cwa")
        var short = CWAWriter()
        short.header()
        short.bytes.removeLast(100)
        #expect { try Self.read(try short.write()) } throws: { "\($0)".contains("header block") }
    }

    @Test func theHeaderFieldsDecode() throws {
        #expect(CWAHeader.rateHz(code: 0x4A) == 100)
        #expect(CWAHeader.rateHz(code: 0x08) == 25)
        #expect(CWAHeader.rangeG(code: 0x0A) == 16 && CWAHeader.rangeG(code: 0xCA) == 2)
        #expect(CWABlockDecoder.localSeconds(CWAWriter.packedTime(Self.t0)) == Self.t0)
        #expect(CWABlockDecoder.localSeconds(0) == nil)
    }
}
