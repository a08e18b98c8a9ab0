import Testing
@testable import MotionCore

/// Demux and conversion from raw byte buffers, as the kernel lays them out.
struct ScanDecoderTests {
    static func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
    static func be<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.bigEndian, Array.init) }

    @Test(arguments: [
        // bytes, format, expected raw
        ([0xFF, 0xFF] as [UInt8], "le:s16/16>>0", Int64(-1)),
        ([0x00, 0x80], "le:s16/16>>0", -32768),
        ([0x80, 0x00], "be:s16/16>>0", -32768),
        ([0x01, 0x02], "be:u16/16>>0", 0x0102),
        ([0xF0, 0xFF], "le:s12/16>>4", -1),      // 0xFFF0 >> 4 = 0xFFF → -1
        ([0x10, 0x00], "le:s12/16>>4", 1),
        ([0xFF, 0x07], "le:s12/16>>0", 2047),
        ([0x00, 0x08], "le:s12/16>>0", -2048),
        ([0xFF, 0x0F], "le:u12/16>>0", 4095),
        ([0xFF, 0xFF, 0xFF, 0xFF], "le:s32/32>>0", -1),
        ([0x00, 0x00, 0x00, 0x80], "le:s32/32>>0", Int64(Int32.min)),
        ([0x80, 0x00, 0x00, 0x00], "be:s32/32>>0", Int64(Int32.min)),
        ([0xFF, 0xFF, 0xFF, 0x00], "le:s24/32>>0", -1),
        ([0x00, 0xFF, 0xFF, 0xFF], "le:s24/32>>8", -1),
        ([0xFE], "le:s8/8>>0", -2),
        ([0x01, 0, 0, 0, 0, 0, 0, 0x80], "le:s64/64>>0", Int64.min + 1),
    ])
    func readsRawValues(_ bytes: [UInt8], _ format: String, _ expected: Int64) throws {
        let f = try ScanElementFormat(parsing: format)
        let v = bytes.withUnsafeBytes { ScanDecoder.readRaw($0, at: 0, format: f) }
        #expect(v == expected)
    }

    @Test(arguments: [
        // format, highest and lowest raw value
        ("le:s16/16>>0", Int64(32767), Int64(-32768)),
        ("le:s12/16>>4", 2047, -2048),
        ("le:u12/16>>0", 4095, 0),
        ("le:s32/32>>0", Int64(Int32.max), Int64(Int32.min)),
    ])
    func axisLimitsFollowTheFormat(format: String, high: Int64, low: Int64) throws {
        let f = try ScanElementFormat(parsing: format)
        var axis = ScanDecoder.Axis(offset: 0, format: try ScanElementFormat(parsing: "le:u8/8>>0"), scale: 1)
        #expect(axis.rawHigh == 255 && axis.rawLow == 0)
        // The limits are stored (compared with every value): changing the format updates them.
        axis.format = f
        #expect(axis.rawHigh == high && axis.rawLow == low)
        #expect(ScanDecoder.Axis(offset: 0, format: f, scale: 1) == axis)
    }

    @Test func decodesHIDScansToSIWithTimestamps() throws {
        let s32 = try ScanElementFormat(parsing: "le:s32/32>>0")
        let s64 = try ScanElementFormat(parsing: "le:s64/64>>0")
        let layout = ScanLayout(channels: [("accel_x", 0, s32), ("accel_y", 1, s32), ("accel_z", 2, s32), ("timestamp", 3, s64)])
        let decoder = ScanDecoder(layout: layout) { _ in (scale: 0.00980665, offset: 0) }
        #expect(decoder.sensors == .accel)
        var bytes: [UInt8] = []
        for (i, raw) in [(0, Int32(1000)), (1, Int32(-500))] {
            bytes += Self.le(raw) + Self.le(Int32(0)) + Self.le(Int32(-1000)) + [0, 0, 0, 0] + Self.le(Int64(1_000_000_000 + i * 10_000_000))
        }
        bytes += [1, 2, 3] // a partial scan is ignored
        var out: [Sample] = []
        let n = bytes.withUnsafeBytes { decoder.decode($0, into: &out) }
        #expect(n == 2)
        #expect(out[0].timestamp == 1_000_000_000 && out[1].timestamp == 1_010_000_000)
        #expect(abs(out[0].accel.x - 9.80665) < 1e-12)
        #expect(abs(out[0].accel.z + 9.80665) < 1e-12)
        #expect(abs(out[1].accel.x + 4.903325) < 1e-12)
        #expect(out[0].gyro == .zero)
    }

    @Test func decodesBigEndianShiftedIMUWithOffset() throws {
        let be12 = try ScanElementFormat(parsing: "be:s12/16>>4")
        let s64 = try ScanElementFormat(parsing: "le:s64/64>>0")
        let layout = ScanLayout(channels: [
            ("accel_x", 0, be12), ("accel_y", 1, be12), ("accel_z", 2, be12),
            ("anglvel_x", 3, be12), ("anglvel_y", 4, be12), ("anglvel_z", 5, be12), ("timestamp", 6, s64),
        ])
        #expect(layout.scanBytes == 24)
        let decoder = ScanDecoder(layout: layout) { id in id.hasPrefix("accel") ? (scale: 0.01, offset: 2) : (scale: 0.001, offset: 0) }
        #expect(decoder.sensors == [.accel, .gyro])
        func v(_ raw: Int16) -> [UInt8] { Self.be(UInt16(bitPattern: raw << 4)) }
        let bytes = v(100) + v(-100) + v(0) + v(2047) + v(-2048) + v(1) + [0, 0, 0, 0] + Self.le(Int64(42))
        var out: [Sample] = []
        bytes.withUnsafeBytes { _ = decoder.decode($0, into: &out) }
        #expect(out.count == 1)
        #expect(out[0].timestamp == 42)
        #expect(abs(out[0].accel.x - 1.02) < 1e-12)   // (100 + 2) * 0.01
        #expect(abs(out[0].accel.y + 0.98) < 1e-12)   // (-100 + 2) * 0.01
        #expect(abs(out[0].accel.z - 0.02) < 1e-12)
        #expect(abs(out[0].gyro.x - 2.047) < 1e-12)
        #expect(abs(out[0].gyro.y + 2.048) < 1e-12)
        #expect(abs(out[0].gyro.z - 0.001) < 1e-12)
    }

    @Test func withoutTimestampLeavesZeroAndMissingAxesGiveNoSensor() throws {
        let s16 = try ScanElementFormat(parsing: "le:s16/16>>0")
        let layout = ScanLayout(channels: [("accel_x", 0, s16), ("accel_y", 1, s16)])
        let decoder = ScanDecoder(layout: layout) { _ in (1, 0) }
        #expect(decoder.sensors.isEmpty)
        #expect(decoder.timestamp == nil)
    }
}
