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

    /// Windows without steps: one zero point per run, so steps far apart stay a few points
    /// (a point per window would be 8e8 points for steps at the timestamp limits).
    @Test func cadenceSeriesCollapsesEmptyRuns() {
        let summary = StepSummary(timestamps: [0, s, 35 * s, 36 * s, 40 * s])
        let series = summary.cadenceSeries(window: 10 * s)
        #expect(series.map(\.start) == [0, 10 * s, 30 * s, 40 * s])
        #expect(series.map(\.stepsPerMinute) == [12, 0, 12, 6])
        let adjacent = StepSummary(timestamps: [0, 15 * s]).cadenceSeries(window: 10 * s)
        #expect(adjacent.map(\.stepsPerMinute) == [6, 6])
        let far = StepSummary(timestamps: [-4_000_000_000_000_000_000, 4_000_000_000_000_000_000])
        #expect(far.cadenceSeries().count == 3)
    }
}
