import Foundation
import MotionTestSupport
@testable import MotionCore

/// Writes Axivity `.cwa` files from the format's description (openmovementproject/openmovement
/// `Docs/ax3/cwa.h`): a 1024-byte `MD` header and 512-byte `AX` data blocks, every field set
/// from what the test asks, so that the reader is tested on each field and defect.
struct CWAWriter {
    /// How a block stores its samples.
    enum Packing {
        /// AX3: 3 axes of 10 bits and a 2-bit exponent in 32 bits, 1/256 g (120 per block).
        case packed
        /// 3 axes of s16, 1/2^(8+n) g (80 per block).
        case unpacked
        /// AX6: gyroscope x, y, z then accelerometer x, y, z, s16 (40 per block).
        case gyroAccel
    }

    /// One data block's fields.
    struct Block {
        var sequence: UInt32
        /// Local wall time of the timestamp, whole seconds since the local epoch.
        var second: Int64
        /// The 16-bit fraction of a second (nil: the top bit clear, no fraction).
        var fraction: Int?
        /// The timestamp offset as the device stores it (already moved by the fraction's whole samples).
        var storedOffset: Int16
        var rateCode: UInt8 = 0x4A
        var packing: Packing = .packed
        /// Accelerometer scale exponent n (1/2^(8+n) g), unpacked only.
        var accelScaleN: Int = 0
        /// Gyroscope range exponent n (4000/2^n dps).
        var gyroScaleN: Int = 0
        /// Accelerometer counts (x, y, z) per sample.
        var accel: [(Int, Int, Int)]
        /// Gyroscope counts per sample (`.gyroAccel`).
        var gyro: [(Int, Int, Int)] = []
        var corruptChecksum = false
        var header: [UInt8] = [0x41, 0x58]
    }

    var bytes: [UInt8] = []

    /// The header block.
    mutating func header(hardwareType: UInt8 = 0x17, deviceID: UInt32 = 0x0001_2345, sessionID: UInt32 = 777, sensorConfig: UInt8 = 0, rateCode: UInt8 = 0x4A, firmware: UInt8 = 45) {
        var h = [UInt8](repeating: 0, count: 1024)
        put16(&h, 0, 0x444D)
        put16(&h, 2, 1020)
        h[4] = hardwareType
        put16(&h, 5, Int(deviceID & 0xFFFF))
        put32(&h, 7, sessionID)
        put16(&h, 11, Int(deviceID >> 16))
        h[35] = sensorConfig
        h[36] = rateCode
        h[41] = firmware
        put16(&h, 42, 0xFFFF)  // time zone: unknown (unused)
        for (i, c) in "_c=test".utf8.enumerated() { h[64 + i] = c }
        bytes += h
    }

    /// One data block.
    mutating func block(_ b: Block) {
        var d = [UInt8](repeating: 0, count: 512)
        d[0] = b.header[0]
        d[1] = b.header[1]
        put16(&d, 2, 508)
        put16(&d, 4, b.fraction.map { 0x8000 | ($0 >> 1) } ?? 0)
        put32(&d, 6, 777)
        put32(&d, 10, b.sequence)
        put32(&d, 14, Self.packedTime(b.second))
        put16(&d, 18, b.accelScaleN << 13 | b.gyroScaleN << 10)
        d[24] = b.rateCode
        switch b.packing {
        case .packed:
            d[25] = 0x30
            for (i, s) in b.accel.enumerated() { put32(&d, 30 + 4 * i, Self.pack10(s)) }
        case .unpacked:
            d[25] = 0x32
            for (i, s) in b.accel.enumerated() { for (k, v) in [s.0, s.1, s.2].enumerated() { put16(&d, 30 + 6 * i + 2 * k, v & 0xFFFF) } }
        case .gyroAccel:
            d[25] = 0x62
            for (i, s) in b.accel.enumerated() {
                let g = b.gyro[i]
                for (k, v) in [g.0, g.1, g.2, s.0, s.1, s.2].enumerated() { put16(&d, 30 + 12 * i + 2 * k, v & 0xFFFF) }
            }
        }
        put16(&d, 26, Int(UInt16(bitPattern: b.storedOffset)))
        put16(&d, 28, b.accel.count)
        var sum: UInt16 = 0
        for k in stride(from: 0, to: 510, by: 2) { sum &+= UInt16(d[k]) | UInt16(d[k + 1]) << 8 }
        put16(&d, 510, Int(0 &- sum) + (b.corruptChecksum ? 1 : 0))
        bytes += d
    }

    /// `YYYYYYMM MMDDDDDh hhhhmmmm mmssssss`, the year from 2000.
    static func packedTime(_ second: Int64) -> UInt32 {
        let (y, mo, d, h, mi, s) = UTCTime.components(second * 1_000_000_000)
        return UInt32(y - 2000) << 26 | UInt32(mo) << 22 | UInt32(d) << 17 | UInt32(h) << 12 | UInt32(mi) << 6 | UInt32(s)
    }

    /// Three values as 10-bit two's complement with the smallest exponent that fits them.
    static func pack10(_ s: (Int, Int, Int)) -> UInt32 {
        var e = 0
        while e < 3 && [s.0, s.1, s.2].contains(where: { ($0 >> e) < -512 || ($0 >> e) > 511 }) { e += 1 }
        func ten(_ v: Int) -> UInt32 { UInt32(truncatingIfNeeded: v >> e) & 0x3FF }
        return UInt32(e) << 30 | ten(s.2) << 20 | ten(s.1) << 10 | ten(s.0)
    }

    /// Writes the file.
    func write(name: String = "rec.cwa") throws -> String {
        let url = try TestPaths.makeScratchDirectory(prefix: "cwa").appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func put16(_ b: inout [UInt8], _ o: Int, _ v: Int) { b[o] = UInt8(v & 0xFF); b[o + 1] = UInt8(v >> 8 & 0xFF) }
    private func put32(_ b: inout [UInt8], _ o: Int, _ v: UInt32) { for k in 0..<4 { b[o + k] = UInt8(v >> (8 * UInt32(k)) & 0xFF) } }
}
