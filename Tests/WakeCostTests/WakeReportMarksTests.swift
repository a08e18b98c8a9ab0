import Testing
import MotionCore
@testable import WakeCost

/// The HTML report's marks say what they mean: the overflow mark is like no series, its legend
/// names the chips it is judged on, every legend entry has a line, the latency axis labels every
/// swept latency, and no stale text is left.
struct WakeReportMarksTests {
    @Test func overflowMarkIsDistinctFromEverySeriesAndNamesItsChips() {
        let html = sampleReport(chips: [.adxl345, .lsm6dso]).html(title: "t")
        #expect(html.contains("class=\"lost\""), "the sweep has overflowing settings")
        #expect(!WakeReport.palette.contains(WakeReport.overflowColour))
        // No mark reuses a series colour as its stroke (the old red ring was the 25 Hz line's red).
        for mark in html.components(separatedBy: "class=\"lost").dropFirst() {
            let stroke = mark.components(separatedBy: "stroke=\"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
            #expect(stroke == WakeReport.overflowColour)
        }
        #expect(html.contains("on ADXL345, LSM6DSO"))
        #expect(sampleReport().html(title: "t").contains("on any of the \(FIFOChip.builtIn.count) chips judged"))
    }

    @Test func everyLegendEntryHasALineInTheDelayChart() {
        // Replays at 25 Hz only, the sweep also has 50 Hz: the delay chart lists 25 Hz alone.
        let predictions = WakeCostModel.sweep(rates: [25, 50], latencies: [0, 1, 5], buffering: .hardware, sensors: .accel, board: .rpi4B, chips: [.lsm6ds3])
        let replays = [0.0, 1, 5].map { l in
            ConfigurationReplay(rateHz: 25, replayedRateHz: 25, latencyS: l, worstSampleDelayS: l, meanSampleDelayS: l / 2,
                                steps: VisibilityDelays(delaysS: [0.5, 2 + l]))
        }
        let html = WakeReport(board: .rpi4B, predictions: predictions, chips: [.lsm6ds3], replays: replays).html(title: "t")
        let chart = html.components(separatedBy: "<svg id=\"chart-visibility\"").dropFirst().first ?? ""
        let visibility = chart.components(separatedBy: "</svg>").first ?? ""
        #expect(visibility.contains(">25 Hz</text>") && !visibility.contains(">50 Hz</text>"))
        #expect(!html.contains("until the activity classifier exists") && !html.contains("no activity classifier yet"))
    }

    @Test func latencyAxisLabelsEverySweptLatency() {
        let x = LatencyAxis(latencies: [0, 0.1, 0.2, 0.5, 1, 2, 5, 10], left: 0, width: 500)
        #expect(x.ticks == [0, 0.1, 0.2, 0.5, 1, 2, 5, 10])
        #expect(x.minorTicks.isEmpty)
        let html = sampleReport().html(title: "t")
        for l in [0.1, 1, 5, 10] { #expect(html.contains("class=\"tick\" data-value=\"\(NumberFormat.json(l))\""), "no tick at \(l)") }
    }
}
