import Testing
@testable import MotionCore

struct ScanElementFormatTests {
    @Test(arguments: [
        ("le:s16/16>>0", false, true, 16, 16, 0, 1),
        ("le:S32/32>>0", false, true, 32, 32, 0, 1),
        ("be:s12/16>>4", true, true, 12, 16, 4, 1),
        ("le:u8/8>>0", false, false, 8, 8, 0, 1),
        ("le:s64/64>>0", false, true, 64, 64, 0, 1),
        ("be:u14/16X2>>2", true, false, 14, 16, 2, 2),
    ])
    func parses(_ text: String, _ be: Bool, _ signed: Bool, _ bits: Int, _ storage: Int, _ shift: Int, _ repeats: Int) throws {
        let f = try ScanElementFormat(parsing: text)
        #expect(f == ScanElementFormat(isBigEndian: be, isSigned: signed, bits: bits, storageBits: storage, shift: shift, repeatCount: repeats))
        #expect(try ScanElementFormat(parsing: f.description) == f)
    }

    @Test(arguments: [
        ("s16/16>>0", "prefix"),
        ("xe:s16/16>>0", "endianness"),
        ("le:q16/16>>0", "sign"),
        ("le:s16/24>>0", "storage bits"),
        ("le:s16/16>>4", "exceed"),
        ("le:s16/16", "bits/storagebits>>shift"),
        ("le:s/16>>0", "bit count"),
    ])
    func rejects(_ text: String, _ problem: String) {
        #expect {
            _ = try ScanElementFormat(parsing: text)
        } throws: { error in
            guard let e = error as? ScanFormatError else { return false }
            return e.text == text && e.description.contains(problem)
        }
    }
}

struct ScanLayoutTests {
    static let s16 = ScanElementFormat(isBigEndian: false, isSigned: true, bits: 16, storageBits: 16, shift: 0)
    static let s32 = ScanElementFormat(isBigEndian: false, isSigned: true, bits: 32, storageBits: 32, shift: 0)
    static let s64 = ScanElementFormat(isBigEndian: false, isSigned: true, bits: 64, storageBits: 64, shift: 0)

    @Test func threeS16AndTimestampAlignTimestampTo8() {
        let l = ScanLayout(channels: [("timestamp", 3, Self.s64), ("accel_x", 0, Self.s16), ("accel_y", 1, Self.s16), ("accel_z", 2, Self.s16)])
        #expect(l.elements.map(\.id) == ["accel_x", "accel_y", "accel_z", "timestamp"])
        #expect(l.elements.map(\.offset) == [0, 2, 4, 8])
        #expect(l.scanBytes == 16)
    }

    @Test func hidSensorLayoutIs24Bytes() {
        let l = ScanLayout(channels: [("accel_x", 0, Self.s32), ("accel_y", 1, Self.s32), ("accel_z", 2, Self.s32), ("timestamp", 3, Self.s64)])
        #expect(l.elements.map(\.offset) == [0, 4, 8, 16])
        #expect(l.scanBytes == 24)
    }

    @Test func noTimestampPadsToLargestElement() {
        let u8 = ScanElementFormat(isBigEndian: false, isSigned: false, bits: 8, storageBits: 8, shift: 0)
        let l = ScanLayout(channels: [("a", 0, u8), ("b", 1, Self.s32)])
        #expect(l.elements.map(\.offset) == [0, 4])
        #expect(l.scanBytes == 8)
        #expect(ScanLayout(channels: []).scanBytes == 0)
    }
}
