import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// Weak steps while walking: deferred until a stronger step shows that the walk goes on.
struct StepCounterWeakStepTests {
    static func count(_ samples: [Sample], _ c: StepCounterConfiguration = StepCounterConfiguration()) throws -> [Double] {
        var counter = try StepCounter(configuration: c)
        var steps: [Int64] = []
        try counter.process(samples, into: &steps)
        return steps.map { Double($0) / 1e9 }
    }

    @Test func weakStepsCountOnceAStrongerOneFollows() throws {
        // Every other step at a tenth of the pulse: after the band-pass its swing is below the
        // walk's typical swing (weakStepFraction 0.9 here, to put every weak step through the
        // deferral). Each weak step but the last is followed by a strong one and counts; the last
        // one, after which the walk ends, does not.
        let start = 5.0, period = 0.55, steps = 40
        var samples: [Sample] = []
        for i in 0..<Int((start + Double(steps) * period + 5) * 100) {
            let t = Double(i) / 100
            let k = ((t - start) / period).rounded(.down), phase = t - start - k * period
            let pulse = t >= start && Int(k) < steps && phase < 0.2 ? 10 * sin(.pi * phase / 0.2) * (Int(k) % 2 == 1 ? 0.1 : 1) : 0
            samples.append(Sample(timestamp: Int64((t * 1e9).rounded()), accel: Vector3(0.2, 0, 9.81 + pulse)))
        }
        var deferring = StepCounterConfiguration()
        deferring.weakStepFraction = 0.9
        let counted = try Self.count(samples, deferring)
        var immediate = StepCounterConfiguration()
        immediate.weakStepFraction = 0
        let atOnce = try Self.count(samples, immediate)
        #expect(counted.count >= steps - 3, "counted \(counted.count) of \(steps)")
        // The same steps, but the last weak one.
        #expect(atOnce.count == counted.count + 1, "at once \(atOnce.count), deferred \(counted.count)")
        #expect(Array(atOnce.dropLast()) == counted)
    }
}
