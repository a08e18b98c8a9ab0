import MotionAnalysis
import Testing

struct StepMatchingTests {
    let s: Int64 = 1_000_000_000

    @Test func constantOffsetIsRemoved() {
        let truth = (0..<10).map { Int64($0) * s / 2 }
        let detected = truth.map { $0 + 400_000_000 }  // 0.4 s late: outside ±0.25 s without the offset
        let m = StepMatching(detected: detected, truth: truth)
        #expect(m.matched == 10)
        #expect(m.precision == 1 && m.recall == 1)
        #expect(abs(m.offset + 400_000_000) <= 1)
    }

    @Test func extraAndMissedStepsAreCounted() {
        let truth = (0..<10).map { Int64($0) * s }
        var detected = truth
        detected.remove(at: 4)                  // one missed
        detected.insert(7 * s + s / 2, at: 6)   // one extra, half-way between steps
        let m = StepMatching(detected: detected.sorted(), truth: truth)
        #expect(m.matched == 9)
        #expect(m.detected == 10 && m.truth == 10)
        #expect(abs(m.precision - 0.9) < 1e-12 && abs(m.recall - 0.9) < 1e-12)
    }

    @Test func oneToOne() {
        // Two detections near one true step match it only once.
        let m = StepMatching(detected: [0, 100_000_000], truth: [50_000_000], maxOffset: 0)
        #expect(m.matched == 1)
    }

    @Test func hardwareComparisonReportsBoth() {
        let c = HardwarePedometerComparison(ours: 1012, hardware: 1000)
        #expect(c.difference == 12)
        #expect(c.summary == "steps 1012 (hardware pedometer 1000, difference +12, +1.2%)")
        #expect(HardwarePedometerComparison(ours: 5, hardwareStart: 100, hardwareEnd: 90) == nil)
        #expect(HardwarePedometerComparison(ours: 5, hardwareStart: 100, hardwareEnd: 104)?.difference == 1)
    }

    @Test func cadenceAndSeries() {
        let steps = (0..<20).map { Int64($0) * s / 2 }   // 2 steps/s
        let summary = StepSummary(timestamps: steps)
        #expect(summary.cadence == 120)
        let series = summary.cadenceSeries(window: 5 * s)
        #expect(series.count == 2)
        #expect(series[0].stepsPerMinute == 120)
    }
}
