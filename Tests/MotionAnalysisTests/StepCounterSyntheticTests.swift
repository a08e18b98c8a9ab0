import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// Rejection of non-walking motion and counting of walking, on synthetic signals.
struct StepCounterSyntheticTests {
    func count(_ samples: [Sample]) throws -> [Int64] {
        var counter = try StepCounter()
        var steps: [Int64] = []
        try counter.process(samples, into: &steps)
        #expect(counter.count == steps.count)
        return steps
    }

    @Test func stillDeviceCountsNothing() throws {
        #expect(try count(SyntheticMotion.still(seconds: 600)).isEmpty)
    }

    @Test func vehicleVibrationCountsNothing() throws {
        #expect(try count(SyntheticMotion.vehicle(seconds: 600)).isEmpty)
    }

    @Test func isolatedJoltsCountNothing() throws {
        #expect(try count(SyntheticMotion.jolts(count: 20)).isEmpty)
    }

    @Test(arguments: [1.0, 1.8, 2.5])
    func walkingWithRotationIsCounted(stepHz: Double) throws {
        let seconds = 60.0
        let steps = try count(SyntheticMotion.walking(stepHz: stepHz, seconds: seconds))
        let expected = stepHz * seconds
        // At most the first and last step may be lost to the filter's start-up and the end of data.
        #expect(abs(Double(steps.count) - expected) <= 2, "counted \(steps.count), expected \(expected)")
        // Regular steps: every interval close to the step period.
        for (a, b) in zip(steps, steps.dropFirst()) {
            #expect(abs(Double(b - a) / 1e9 - 1 / stepHz) < 0.1)
        }
    }

    @Test func walkingAt12Point5HertzIsCounted() throws {
        let steps = try count(SyntheticMotion.walking(stepHz: 1.6, seconds: 60, rateHz: 12.5))
        #expect(abs(Double(steps.count) - 96) <= 2, "counted \(steps.count)")
    }

    @Test func slowLowAmplitudeWalkingIsCounted() throws {
        // 0.9 steps/s with a 1.5 m/s² heel strike (e.g. a phone in a bag, strolling).
        let steps = try count(SyntheticMotion.walking(stepHz: 0.9, seconds: 120, amplitude: 1.5))
        #expect(abs(Double(steps.count) - 108) <= 3, "counted \(steps.count)")
    }

    @Test func armWavingWithoutRhythmIsRejected() throws {
        // Large, irregular arm movements: swings of random size at random intervals (0.3–2.5 s).
        var g = SeededGenerator(seed: 9)
        var samples: [Sample] = []
        var t = 0.0
        var nextSwing = 1.0, swingAmp = 0.0, swingStart = -10.0
        while t < 300 {
            if t >= nextSwing {
                swingStart = t
                swingAmp = Double.random(in: 2...8, using: &g)
                nextSwing = t + Double.random(in: 0.3...2.5, using: &g) * (Bool.random(using: &g) ? 1 : 2.2)
            }
            let u = t - swingStart
            let a = u < 0.3 ? swingAmp * sin(.pi * u / 0.3) : 0
            samples.append(Sample(timestamp: Int64((t * 1e9).rounded()), accel: Vector3(a, 0.3 * a, 9.81)))
            t += 0.01
        }
        let steps = try count(samples)
        // Irregular motion may occasionally look like a short rhythmic run; allow a handful at most.
        #expect(steps.count <= 10, "counted \(steps.count) false steps in 5 minutes of arm waving")
    }
}
