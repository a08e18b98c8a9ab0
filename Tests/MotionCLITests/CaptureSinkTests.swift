import Foundation
import Testing
@testable import MotionCLI
import MotionAnalysis
import MotionCore

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
        }
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
