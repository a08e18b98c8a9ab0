import Foundation
import Testing
@testable import MotionCLI
import MotionAnalysis
import MotionCore
import MotionIIO
import MotionSession

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

    /// The live activity (current class, segments, time per class) and a chip's own activity
    /// recognition beside it.
    @Test func activityAndHardwareActivityAreReported() throws {
        var machine = SessionMachine(settings: SessionMachine.Settings(session: "s"))
        let samples = Self.walk(seconds: 30)
        var progress = CaptureMachine.Progress()
        func drain(_ first: SessionMachine.Action?) {
            var a = first
            while a != nil { a = machine.completed(.done(fileBytes: nil)) }
        }
        let clock = ClockReading(wallNanoseconds: 0, sync: .init(synchronized: false), monotonicNanoseconds: 0, bootID: nil)
        drain(machine.handle(.begin(devices: [], identities: [], clock: clock)))
        for start in stride(from: 0, to: samples.count, by: 50) {
            let part = Array(samples[start..<min(start + 50, samples.count)])
            progress.samples += part.count
            drain(machine.handle(.batch(SampleBatch(samples: part, deliveredAt: part.last!.timestamp), progress, clock: nil)))
        }
        #expect(machine.currentActivity == .walking)
        drain(machine.handle(.close(.signal(2), progress)))
        let chip = SensorDescription.Activity(channels: [.init(modifier: "still", confidence: 0), .init(modifier: "walking", confidence: 100)])
        let hardware = CaptureStatsJSON.ChipActivity(device: "bma400", start: chip, end: chip,
                                                     comparison: HardwareActivityComparison(ours: machine.currentActivity, hardwareModifier: chip.current))
        let json = CaptureStatsJSON.make(CaptureStatistics(), uri: "local:", output: nil, steps: machine.steps, activity: machine.activity,
                                         hardwareActivity: hardware, session: machine.summary)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(json.serialized(pretty: false).utf8)) as? [String: Any])
        let a = try #require(o["activity"] as? [String: Any])
        #expect(a["current"] as? String == "walking")
        let segments = try #require(a["segments"] as? [[String: Any]])
        #expect(segments.first?["start_s"] as? Double == 1 && segments.last?["label"] as? String == "walking")
        #expect(Set((try #require(a["time_s"] as? [String: Double])).keys) == ["still", "walking", "running", "cycling", "vehicle", "unknown"])
        let h = try #require(o["hardware_activity"] as? [String: Any])
        #expect(h["device"] as? String == "bma400" && h["current"] as? String == "walking" && h["agree"] as? Bool == true)
        #expect((h["end_percent"] as? [String: Int])?["walking"] == 100)
        let session = try #require(o["session"] as? [String: Any])
        #expect(session["kind"] as? String == "session" && session["steps"] as? Int == machine.steps)
        #expect(((session["activity_time_s"] as? [String: Double])?["walking"] ?? 0) > 20)
        let text = CaptureCommand.text(CaptureStatistics(), output: nil, steps: machine.steps, activity: machine.activity, hardwareActivity: hardware)
        #expect(text.contains("walking now;") && text.contains("bma400: activity walking (hardware: walking, agrees)"))
        let none = CaptureStatsJSON.make(CaptureStatistics(), uri: "local:", output: nil, steps: nil)
        let n = try #require(try JSONSerialization.jsonObject(with: Data(none.serialized(pretty: false).utf8)) as? [String: Any])
        #expect(n["activity"] is NSNull && n["hardware_activity"] is NSNull && n["session"] is NSNull)
    }
}
