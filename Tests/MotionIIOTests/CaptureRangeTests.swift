import MotionCore
import Testing
@testable import MotionIIO

/// `--range`: the scale chosen from `*_scale_available`, and clipped samples counted by the decoder.
struct CaptureRangeTests {
    // st_lsm6dsx accelerometer scales (m/s² per count) with 16-bit samples: 2, 4, 8, 16 g.
    static let lsm = ["0.000598", "0.001196", "0.002392", "0.004785"]
    static let s16 = ScanElementFormat(isBigEndian: false, isSigned: true, bits: 16, storageBits: 16, shift: 0)

    @Test(arguments: [(2.0, "0.000598"), (3.0, "0.001196"), (4.0, "0.001196"), (8.0, "0.002392"), (16.0, "0.004785"), (50.0, "0.004785")])
    func picksTheSmallestFullScaleAtOrAboveTheRequest(g: Double, expected: String) throws {
        let max = CaptureRange.rawMax(Self.s16)
        #expect(max == 32767)
        let c = try #require(CaptureRange.choose(requested: g * 9.80665 * 0.999, available: Self.lsm, rawMax: max))
        #expect(c.text == expected)
    }

    @Test func parsesUnitsAndRejectsBareNumbers() {
        #expect(CaptureRange.parse("4g")?.quantity == "accel")
        #expect(abs((CaptureRange.parse("4g")?.value ?? 0) - 39.2266) < 1e-9)
        #expect(CaptureRange.parse("39.2m/s2")?.value == 39.2)
        #expect(CaptureRange.parse("500dps")?.quantity == "anglvel")
        #expect(abs((CaptureRange.parse("180dps")?.value ?? 0) - Double.pi) < 1e-12)
        #expect(CaptureRange.parse("8.7rad/s")?.value == 8.7)
        for bad in ["4", "g", "-2g", "0dps", "nang", "infg"] { #expect(CaptureRange.parse(bad) == nil, "\(bad)") }
        #expect(CaptureRange.choose(requested: 1, available: ["x", ""], rawMax: 10) == nil)
    }

    @Test func samplesAtEitherEndOfTheRawRangeAreCountedAsClipped() {
        let layout = ScanLayout(channels: [("accel_x", 0, Self.s16), ("accel_y", 1, Self.s16), ("accel_z", 2, Self.s16)])
        let decoder = ScanDecoder(layout: layout) { _ in (scale: 0.000598, offset: 0) }
        let rows: [[Int16]] = [[0, 100, -100], [32767, 0, 0], [0, -32768, 5], [32766, -32767, 1]]
        var bytes: [UInt8] = []
        for r in rows { for v in r { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } } }
        var out: [Sample] = []
        var clipped = 0
        let n = bytes.withUnsafeBytes { decoder.decode($0, into: &out, clipped: &clipped) }
        #expect(n == 4 && clipped == 2)
    }
}
