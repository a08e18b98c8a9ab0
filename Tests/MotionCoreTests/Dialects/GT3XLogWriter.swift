import Foundation
import MotionTestSupport

/// Writes ActiGraph `log.bin` records as actigraph/GT3X-File-Format describes them (separator
/// `1E`, type, u32 LE seconds, u16 LE size, payload, ones' complement XOR checksum), and a
/// folder holding them with an `info.txt`: the GT3X reader's tests build their defects with it.
struct GT3XLogWriter {
    var bytes: [UInt8] = []

    /// One record; `corruptChecksum` writes a wrong checksum.
    mutating func record(type: UInt8, second: UInt32, payload: [UInt8], corruptChecksum: Bool = false) {
        var r: [UInt8] = [0x1E, type]
        r += withUnsafeBytes(of: second.littleEndian, Array.init)
        r += withUnsafeBytes(of: UInt16(payload.count).littleEndian, Array.init)
        r += payload
        let x = r.reduce(0, ^)
        r.append(corruptChecksum ? x : ~x)
        bytes += r
    }

    /// An ACTIVITY2 record: s16 LE X, Y, Z per sample.
    mutating func activity2(second: UInt32, _ samples: [(Int16, Int16, Int16)], corruptChecksum: Bool = false) {
        var p: [UInt8] = []
        for s in samples { for v in [s.0, s.1, s.2] { p += withUnsafeBytes(of: v.littleEndian, Array.init) } }
        record(type: 0x1A, second: second, payload: p, corruptChecksum: corruptChecksum)
    }

    /// An ACTIVITY record: 12-bit values packed in Y, X, Z order, most significant bits first.
    mutating func activity(second: UInt32, _ samples: [(Int16, Int16, Int16)]) {
        record(type: 0x00, second: second, payload: Self.pack12(samples))
    }

    /// An EVENT record (`08` enters idle sleep mode, `09` leaves it).
    mutating func event(second: UInt32, _ code: UInt8) { record(type: 0x03, second: second, payload: [code]) }

    /// A PARAMETERS record with ACCEL_SCALE (address 0, id 55) as ActiGraph's float, and
    /// FEATURE_ENABLE (address 1, id 2) with bit 2 (idle sleep mode) set or not.
    mutating func parameters(second: UInt32, accelScale: Double?, idleSleepMode: Bool) {
        var p: [UInt8] = []
        func item(_ space: UInt16, _ id: UInt16, _ value: UInt32) {
            p += withUnsafeBytes(of: space.littleEndian, Array.init) + withUnsafeBytes(of: id.littleEndian, Array.init) + withUnsafeBytes(of: value.littleEndian, Array.init)
        }
        if let s = accelScale { item(0, 55, Self.sspFloat(s)) }
        item(1, 2, idleSleepMode ? 0x14 : 0x10)
        record(type: 0x15, second: second, payload: p)
    }

    /// ActiGraph's parameter float: fraction × 2^23 in 24 bits (0.5 ≤ |fraction| < 1), exponent in 8.
    static func sspFloat(_ v: Double) -> UInt32 {
        var f = abs(v), e = 0
        while f >= 1 { f /= 2; e += 1 }
        while f < 0.5 { f *= 2; e -= 1 }
        var code = UInt32(f * 8_388_608)
        if v < 0 { code = UInt32(bitPattern: -Int32(code)) }
        return (code & 0x00FF_FFFF) | (UInt32(bitPattern: Int32(e)) << 24)
    }

    /// Samples packed as 12-bit two's complement Y, X, Z values, big-endian nibbles.
    static func pack12(_ samples: [(Int16, Int16, Int16)]) -> [UInt8] {
        var nibbles: [UInt8] = []
        for s in samples {
            for v in [s.1, s.0, s.2] {
                let u = UInt16(bitPattern: v) & 0x0FFF
                nibbles += [UInt8(u >> 8), UInt8(u >> 4 & 0xF), UInt8(u & 0xF)]
            }
        }
        if nibbles.count % 2 == 1 { nibbles.append(0) }
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }

    /// A folder in the .gt3x layout: `info.txt` (with `lines`) and `log.bin`.
    func folder(info lines: [String]) throws -> String {
        let dir = try TestPaths.makeScratchDirectory(prefix: "gt3x")
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: dir.appendingPathComponent("info.txt"))
        try Data(bytes).write(to: dir.appendingPathComponent("log.bin"))
        return dir.path
    }

    /// `info.txt` lines of a Link at `rate` Hz.
    static func linkInfo(rate: Int = 30, timeZone: String? = "-05:00:00", scale: String? = "256.0") -> [String] {
        ["Serial Number: TAS1E00000000", "Device Type: Link", "Firmware: 1.7.2", "Sample Rate: \(rate)", "Start Date: 637517662200000000"]
            + (timeZone.map { ["TimeZone: \($0)"] } ?? []) + (scale.map { ["Acceleration Scale: \($0)"] } ?? [])
    }
}
