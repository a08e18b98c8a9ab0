import Foundation
import Testing
@testable import MotionCLI
import MotionAnalysis
import MotionCore
import MotionIIO

/// The statistics report the live count and, beside it, a hardware pedometer's.
@Suite struct CaptureStatsReportTests {
    @Test func stepsAndHardwarePedometerAreReported() throws {
        let p = CaptureStatsJSON.Pedometer(device: "bma400", start: 1000, end: 1040,
                                          comparison: try #require(HardwarePedometerComparison(ours: 42, hardwareStart: 1000, hardwareEnd: 1040)))
        let json = CaptureStatsJSON.make(CaptureStatistics(), uri: "local:", output: nil, steps: 42, pedometer: p)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(json.serialized(pretty: false).utf8)) as? [String: Any])
        #expect(o["steps"] as? Int == 42)
        let h = try #require(o["hardware_pedometer"] as? [String: Any])
        #expect(h["device"] as? String == "bma400")
        #expect(h["steps"] as? Int == 40 && h["difference"] as? Int == 2)
        #expect(h["difference_percent"] as? Double == 5)
        let text = CaptureCommand.text(CaptureStatistics(), output: nil, steps: 42, pedometer: p)
        #expect(text.contains("hardware pedometer      bma400: steps 42 (hardware pedometer 40, difference +2, +5.0%)"))
        let none = CaptureStatsJSON.make(CaptureStatistics(), uri: "local:", output: nil, steps: nil)
        let n = try #require(try JSONSerialization.jsonObject(with: Data(none.serialized(pretty: false).utf8)) as? [String: Any])
        #expect(n["steps"] is NSNull && n["hardware_pedometer"] is NSNull)
        #expect(CaptureCommand.text(CaptureStatistics(), output: nil, steps: nil).contains("not counted"))
    }
}
