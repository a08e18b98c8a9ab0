import Foundation
import Testing
@testable import MotionCLI
import MotionAnalysis
import MotionCore
import MotionIIO

/// The capture's sink feeds every delivered batch to the step counter: the live count equals the
/// count over the whole stream whatever the batching, and a batch the counter rejects stops the
/// counting (reported) without failing the capture.
@Suite struct CaptureSinkTests {
    /// A 2 Hz walk at 50 Hz: vertical bounce and a little sway, timestamps in ns.
    static func walk(seconds: Double) -> [Sample] {
        let rate = 50.0
        return (0..<Int(seconds * rate)).map { i in
            let t = Double(i) / rate
            let bounce = 3.0 * sin(2 * .pi * 2.0 * t) + 0.4 * sin(2 * .pi * 4.0 * t + 0.3)
            return Sample(timestamp: 1_000_000_000 + Int64(i) * 20_000_000,
                          accel: Vector3(0.5 * sin(2 * .pi * 1.0 * t), 0.3, 9.81 + bounce), gyro: .zero)
        }
    }

    @Test(arguments: [1, 7, 50, 100])
    func liveStepsEqualTheWholeStreamCount(batch: Int) throws {
        let samples = Self.walk(seconds: 30)
        var reference = try StepCounter()
        var times: [Int64] = []
        try reference.process(samples, into: &times)
        #expect(reference.count > 30)
        var sink = CaptureCommand.RecordingSink(countSteps: true)
        for start in stride(from: 0, to: samples.count, by: batch) {
            let part = Array(samples[start..<min(start + batch, samples.count)])
            try sink.write(SampleBatch(samples: part, deliveredAt: part.last!.timestamp))
            // Live: steps still held for the activity decision are not counted yet, never more.
            #expect((sink.steps ?? 0) <= reference.count)
        }
        try sink.close()
        #expect(sink.steps == reference.count)
        #expect(sink.stepProblem == nil)
    }

    @Test func noAccelerometerMeansNoCount() throws {
        var sink = CaptureCommand.RecordingSink(countSteps: false)
        try sink.write(SampleBatch(samples: Array(Self.walk(seconds: 2)), deliveredAt: 0))
        #expect(sink.steps == nil)
    }

    @Test func aRejectedBatchStopsCountingNotTheCapture() throws {
        var sink = CaptureCommand.RecordingSink(countSteps: true)
        let samples = Self.walk(seconds: 4)
        try sink.write(SampleBatch(samples: Array(samples[0..<100]), deliveredAt: samples[99].timestamp))
        // The same timestamps again: not increasing.
        try sink.write(SampleBatch(samples: Array(samples[0..<100]), deliveredAt: samples[99].timestamp))
        #expect(sink.steps == nil)
        #expect(sink.stepProblem?.isEmpty == false)
        try sink.write(SampleBatch(samples: Array(samples[100...]), deliveredAt: samples.last!.timestamp))
        #expect(sink.steps == nil)
    }
}

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

    /// The live activity (current class, segments, time per class) and a chip's own activity
    /// recognition beside it.
    @Test func activityAndHardwareActivityAreReported() throws {
        var sink = CaptureCommand.RecordingSink(countSteps: true)
        let samples = CaptureSinkTests.walk(seconds: 30)
        for start in stride(from: 0, to: samples.count, by: 50) {
            let part = Array(samples[start..<min(start + 50, samples.count)])
            try sink.write(SampleBatch(samples: part, deliveredAt: part.last!.timestamp))
        }
        #expect(sink.currentActivity == .walking)
        try sink.close()
        let chip = SensorDescription.Activity(channels: [.init(modifier: "still", confidence: 0), .init(modifier: "walking", confidence: 100)])
        let hardware = CaptureStatsJSON.ChipActivity(device: "bma400", start: chip, end: chip,
                                                     comparison: HardwareActivityComparison(ours: sink.currentActivity, hardwareModifier: chip.current))
        let json = CaptureStatsJSON.make(CaptureStatistics(), uri: "local:", output: nil, steps: sink.steps, activity: sink.activity, hardwareActivity: hardware)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(json.serialized(pretty: false).utf8)) as? [String: Any])
        let a = try #require(o["activity"] as? [String: Any])
        #expect(a["current"] as? String == "walking")
        let segments = try #require(a["segments"] as? [[String: Any]])
        #expect(segments.first?["start_s"] as? Double == 1 && segments.last?["label"] as? String == "walking")
        #expect(Set((try #require(a["time_s"] as? [String: Double])).keys) == ["still", "walking", "running", "cycling", "vehicle", "unknown"])
        let h = try #require(o["hardware_activity"] as? [String: Any])
        #expect(h["device"] as? String == "bma400" && h["current"] as? String == "walking" && h["agree"] as? Bool == true)
        #expect((h["end_percent"] as? [String: Int])?["walking"] == 100)
        let text = CaptureCommand.text(CaptureStatistics(), output: nil, steps: sink.steps, activity: sink.activity, hardwareActivity: hardware)
        #expect(text.contains("walking now;") && text.contains("bma400: activity walking (hardware: walking, agrees)"))
        let none = CaptureStatsJSON.make(CaptureStatistics(), uri: "local:", output: nil, steps: nil)
        let n = try #require(try JSONSerialization.jsonObject(with: Data(none.serialized(pretty: false).utf8)) as? [String: Any])
        #expect(n["activity"] is NSNull && n["hardware_activity"] is NSNull)
    }
}
