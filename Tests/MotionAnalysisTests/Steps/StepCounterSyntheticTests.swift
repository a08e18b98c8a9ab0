import Foundation
import MotionAnalysis
import MotionCore
import Testing
import MotionTestSupport

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

    @Test(arguments: [1.5, 1.8])
    func gentleRegularWalkingIsCounted(amplitude: Double) throws {
        // 1.5 steps/s with a gentle heel strike (swings of about 1.25 and 1.5 m/s² after the band-pass): the swings are
        // below `minAmplitude`, so only the very-regular "weak run" confirmation counts them.
        let samples = SyntheticMotion.walking(stepHz: 1.5, seconds: 120, amplitude: amplitude)
        let steps = try count(samples)
        #expect(abs(Double(steps.count) - 180) <= 3, "counted \(steps.count)")
        // Without the weak-run path (minSwing raised to minAmplitude) the same walk is lost,
        // which shows the swings really are below the strong threshold.
        var strict = StepCounterConfiguration()
        strict.minSwing = strict.minAmplitude
        var counter = try StepCounter(configuration: strict)
        var none: [Int64] = []
        try counter.process(samples, into: &none)
        #expect(none.count < 20, "strict counter counted \(none.count)")
    }

    @Test func asymmetricGaitIsCounted() throws {
        // A stride-rate arm swing dominates: after the band-pass, swings alternate about 5.9 / 1.2 m/s².
        let samples = SyntheticMotion.walking(stepHz: 1.8, seconds: 60, amplitude: 4, strideSway: 2)
        let steps = try count(samples)
        #expect(abs(Double(steps.count) - 108) <= 3, "counted \(steps.count)")
        // The alternating-run confirmation is what finds this walk: its swings alternate by more
        // than `maxAmplitudeRatio`, so no plain run confirms it. Without a strong level (no swing
        // reaches `minAmplitude`, which the alternating rule requires of its stronger level) the
        // walk is lost.
        var config = StepCounterConfiguration()
        config.minAmplitude = 10
        var counter = try StepCounter(configuration: config)
        var without: [Int64] = []
        try counter.process(samples, into: &without)
        #expect(without.count < steps.count - 20, "without alternating runs: \(without.count)")
    }

    @Test(arguments: [1.0, 1.8, 2.5])
    func everyStepIsEmittedWithinThreeSeconds(stepHz: Double) throws {
        // Fed one sample at a time: the delay between a step's timestamp and the sample whose
        // processing emitted it is the latency a live device would see.
        let samples = SyntheticMotion.walking(stepHz: stepHz, seconds: 60, rateHz: 50)
        var counter = try StepCounter()
        var steps: [Int64] = []
        var worst: Int64 = 0
        for s in samples {
            let before = steps.count
            try counter.process([s], into: &steps)
            for t in steps[before...] { worst = max(worst, s.timestamp - t) }
        }
        #expect(steps.count > Int(stepHz * 55))
        #expect(worst <= 3_000_000_000, "a step was emitted \(Double(worst) / 1e9) s late")
    }

    @Test func longInputGapRestartsAndStaysBatchInvariant() throws {
        // Two walks separated by a 5 s hole in the data (longer than maxInputGap).
        let first = SyntheticMotion.walking(stepHz: 1.8, seconds: 30, seed: 4)
        let offset: Int64 = 35_000_000_000
        let second = SyntheticMotion.walking(stepHz: 1.8, seconds: 30, seed: 5).map {
            Sample(timestamp: $0.timestamp + offset, accel: $0.accel)
        }
        let all = first + second
        let whole = try count(all)
        #expect(abs(whole.count - 108) <= 4, "counted \(whole.count)")
        #expect(whole.contains { $0 < 30_000_000_000 } && whole.contains { $0 > offset })
        var g = SplitMix64(seed: 77)
        for _ in 0..<5 {
            var counter = try StepCounter()
            var steps: [Int64] = []
            var i = 0
            while i < all.count {
                let end = min(all.count, i + Int.random(in: 1...400, using: &g))
                try counter.process(Array(all[i..<end]), into: &steps)
                i = end
            }
            #expect(steps == whole)
        }
    }

    @Test func armWavingWithoutRhythmIsRejected() throws {
        // Large, irregular arm movements: swings of random size at random intervals (0.3–2.5 s).
        var g = SplitMix64(seed: 9)
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

/// The periodicity gate: what it rejects and what it lets through.
struct StepCounterPeriodicityTests {
    /// The counter as it was before the gate (no periodicity test, gentle runs only if very regular).
    static var ungated: StepCounterConfiguration {
        var c = StepCounterConfiguration()
        c.minPeriodicity = 0
        c.weakRunIntervalRatio = 1.1
        c.maxIntervalRatio = 1.4
        c.maxAmplitudeRatio = 1.5
        return c
    }

    static func count(_ samples: [Sample], _ c: StepCounterConfiguration = StepCounterConfiguration()) throws -> Int {
        var counter = try StepCounter(configuration: c)
        var steps: [Int64] = []
        try counter.process(samples, into: &steps)
        return steps.count
    }

    /// Swaying in a vehicle or on a boat: random motion concentrated around 1.6 Hz (white noise
    /// through a resonator of bandwidth `bandwidth` Hz), large enough to pass every swing threshold.
    /// Its peaks are often spaced like steps, but the motion never repeats for long.
    static func sway(seconds: Double, size: Double, bandwidth: Double, seed: UInt64) -> [Sample] {
        var g = SplitMix64(seed: seed)
        let r = exp(-.pi * bandwidth / 100), w = 2 * Double.pi * 1.6 / 100
        var y1 = 0.0, y2 = 0.0
        var raw: [Double] = []
        for _ in 0..<Int(seconds * 100) {
            let y = 2 * r * cos(w) * y1 - r * r * y2 + Double.random(in: -1...1, using: &g)
            raw.append(y); y2 = y1; y1 = y
        }
        let rms = (raw.map { $0 * $0 }.reduce(0, +) / Double(raw.count)).squareRoot()
        return raw.enumerated().map { i, y in
            let a = size * y / rms
            return Sample(timestamp: Int64(i) * 10_000_000, accel: Vector3(0.3 * a, 0, 9.81 + a))
        }
    }

    @Test func theWalkingPeriodicityCheckEndsAWalkThatIsReallySway() throws {
        // Sway whose peaks keep a step-like rhythm: once a lucky run is confirmed, rhythm alone
        // would carry the "walk" on for minutes. The optional in-walk check ends it when the
        // motion stops repeating. (Sway this narrow-band is not rejected completely by either
        // counter; see docs/step-counter.md, limitations.)
        let samples = Self.sway(seconds: 600, size: 2, bandwidth: 1.5, seed: 21)
        var checked = StepCounterConfiguration()
        checked.minWalkingPeriodicity = 0.3
        var unchecked = checked
        unchecked.minWalkingPeriodicity = 0
        let without = try Self.count(samples, unchecked)
        let with = try Self.count(samples, checked)
        #expect(with < without * 2 / 3, "with the check \(with), without \(without)")
    }

    /// `minSwing` is the floor of every candidate: swings below it neither start nor continue a
    /// walk, swings above it do.
    @Test func minSwingIsTheCandidateFloor() throws {
        let samples = SyntheticMotion.walking(stepHz: 1.8, seconds: 60, amplitude: 0.6)  // 108 steps
        var c = StepCounterConfiguration()
        #expect(c.minSwing == 0.8)
        var defaults = try StepCounter(configuration: c)
        var steps: [Int64] = []
        try defaults.process(samples, into: &steps)
        #expect(steps.isEmpty, "at the default minSwing these swings are too small")
        c.minSwing = 0.3
        var gentle = try StepCounter(configuration: c)
        steps = []
        try gentle.process(samples, into: &steps)
        #expect(abs(steps.count - 108) <= 3, "\(steps.count) steps")
    }

    @Test(arguments: [0.5, 0.6, 0.7])
    func gentleSomewhatIrregularWalkingIsCounted(amplitude: Double) throws {
        // Bouts of 12 gentle steps (swings below minAmplitude; intervals jittered by up to ±10 %, too
        // irregular for the old "very regular gentle run" rule with its 1.1 interval ratio)
        // separated by 4 s pauses, so that every bout has to be confirmed afresh.
        var g = SplitMix64(seed: 8)
        var samples: [Sample] = []
        var t = 0.0, truth = 0
        while t < 300 {
            for _ in 0..<12 {
                let length = 0.6 * Double.random(in: 0.9...1.1, using: &g)
                let end = t + length
                while t < end {
                    let phase = (t - (end - length)) / length
                    let pulse = phase < 0.4 ? 0.5 * (1 - cos(2 * .pi * phase / 0.4)) : 0
                    let z = 9.81 + amplitude * 3 * (pulse - 0.2) + Double.random(in: -0.05...0.05, using: &g)
                    samples.append(Sample(timestamp: Int64((t * 1e9).rounded()), accel: Vector3(0, 0, z)))
                    t += 0.01
                }
                truth += 1
            }
            let pauseEnd = t + 4
            while t < pauseEnd {
                samples.append(Sample(timestamp: Int64((t * 1e9).rounded()), accel: Vector3(0, 0, 9.81 - amplitude * 0.6 + Double.random(in: -0.05...0.05, using: &g))))
                t += 0.01
            }
        }
        let gated = try Self.count(samples)
        let ungated = try Self.count(samples, Self.ungated)
        // At most one step too many per bout of 12: after a stop as abrupt as this synthetic one,
        // the band-pass filter's ring-down can pass for one more step (docs/step-counter.md,
        // limitations).
        #expect(Double(gated) >= 0.88 * Double(truth) && gated <= truth + truth / 12, "counted \(gated) of \(truth), ungated \(ungated)")
        // The old rule loses clearly more of the bout starts.
        #expect(ungated <= gated - 20, "ungated counter: \(ungated), gated: \(gated) of \(truth)")
    }
}
