import MotionAnalysis
import Testing

/// Summaries of counted steps, and the comparison with a hardware pedometer.
struct StepSummaryTests {
    let s: Int64 = 1_000_000_000

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
