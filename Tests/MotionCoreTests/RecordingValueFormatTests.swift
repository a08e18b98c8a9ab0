import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

@Suite struct RecordingValueFormatTests {
    @Test(arguments: [
        ("m/s^2 scale=0.000598550", 0.000598550, Int64(598_550), 9),
        ("rad/s scale=0.000152716 (250 dps)", 0.000152716, 152_716, 9),
        ("m/s^2 scale=0.0095768", 0.0095768, 95_768, 7),
        ("m/s^2 scale=2", 2.0, 2, 0),
    ] as [(String, Double, Int64, Int)])
    func parsesDeclaredScale(_ text: String, _ scale: Double, _ units: Int64, _ decimals: Int) throws {
        let f = try #require(RecordingValueFormat(channelDescription: text))
        #expect(f.scale == scale && f.units == units && f.decimals == decimals)
    }

    @Test(arguments: ["m/s^2", "m/s^2 scale=", "m/s^2 scale=1e-3", "m/s^2 scale=-0.1", "m/s^2 scale=0", "m/s^2 scale=abc", "m/s^2 scale=0.0000000000001"])
    func ignoresOtherDescriptions(_ text: String) {
        #expect(RecordingValueFormat(channelDescription: text) == nil)
    }

    /// Device values (`raw × scale`) are written as the exact short decimal and read back to the
    /// same raw value; other values in the same file are written shortest and read back bit for bit.
    @Test func writerPrintsDeviceValuesAsExactDecimals() throws {
        let accelScale = 0.000598550, gyroScale = 0.000152716
        var metadata = ["device": "lsm6dsl"]
        for axis in ["x", "y", "z"] {
            metadata["channel.accel_\(axis)"] = "m/s^2 scale=0.000598550"
            metadata["channel.gyro_\(axis)"] = "rad/s scale=0.000152716"
        }
        var rng = SplitMix64(seed: 17)
        var samples: [Sample] = []
        var raws: [[Int]] = []
        for i in 0..<20_000 {
            let r = (0..<6).map { _ in Int(Int16(truncatingIfNeeded: rng.next())) }
            raws.append(r)
            var s = Sample(timestamp: Int64(i + 1) * 9_615_000,
                           accel: Vector3(Double(r[0]) * accelScale, Double(r[1]) * accelScale, Double(r[2]) * accelScale),
                           gyro: Vector3(Double(r[3]) * gyroScale, Double(r[4]) * gyroScale, Double(r[5]) * gyroScale))
            if i % 100 == 7 { s.accel.x = 0.1 + Double(i) * 1e-7 }  // not a device value: shortest form
            samples.append(s)
        }
        let path = try temporaryPath()
        let w = try RecordingWriter(path: path, header: RecordingHeader(sensors: [.accel, .gyro], metadata: metadata))
        try w.append(SampleBatch(samples: samples, deliveredAt: 0))
        try w.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let read = try Recording.read(path: path).samples
        #expect(read.count == samples.count)
        var shorter = 0
        for (i, (a, b)) in zip(samples, read).enumerated() {
            #expect(a.timestamp == b.timestamp)
            let written = [a.accel.x, a.accel.y, a.accel.z, a.gyro.x, a.gyro.y, a.gyro.z]
            let back = [b.accel.x, b.accel.y, b.accel.z, b.gyro.x, b.gyro.y, b.gyro.z]
            for k in 0..<6 {
                let scale = k < 3 ? accelScale : gyroScale
                if i % 100 == 7 && k == 0 {
                    #expect(back[k].bitPattern == written[k].bitPattern, "row \(i): \(back[k]) vs \(written[k])")
                    continue
                }
                #expect(Int((back[k] / scale).rounded()) == raws[i][k], "row \(i) col \(k)")
                #expect((back[k] - written[k]).magnitude <= 2 * written[k].ulp, "row \(i) col \(k): \(back[k]) vs \(written[k])")
                if back[k].bitPattern != written[k].bitPattern { shorter += 1 }
            }
        }
        #expect(shorter > 0)  // the floating-point products that needed 17 digits
        // No value of a device column has more than 9 decimals, except the non-device ones.
        let longest = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("timestamp") }.flatMap { $0.split(separator: ",").dropFirst() }
            .filter { !$0.hasPrefix("0.1") }.map { $0.split(separator: ".").last?.count ?? 0 }.max() ?? 0
        #expect(longest <= 9)
    }

    @Test func exactDecimalsForKnownRaws() throws {
        let f = try #require(RecordingValueFormat(channelDescription: "m/s^2 scale=0.000598550"))
        for (raw, expected) in [(760, "0.454898"), (-26, "-0.0155623"), (0, "0"), (16384, "9.8066432"), (-32768, "-19.6132864"), (1000, "0.59855")] {
            var out: [UInt8] = []
            #expect(f.appendDeviceValue(Double(raw) * 0.000598550, to: &out))
            #expect(String(decoding: out, as: UTF8.self) == expected, "raw \(raw)")
        }
        var out: [UInt8] = []
        #expect(!f.appendDeviceValue(0.1, to: &out))
        #expect(out.isEmpty)
    }
}
