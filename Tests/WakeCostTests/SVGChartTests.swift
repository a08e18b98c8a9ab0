import Testing
@testable import WakeCost

// The latency axis is logarithmic (equal width per decade) with 0 drawn left of the log part;
// the battery axis starts at zero; the log value axis spans whole decades.
@Test func latencyAxisIsLogWithPerSampleApart() {
    let x = LatencyAxis(latencies: [0, 0.1, 0.2, 0.5, 1, 2, 5, 10], left: 78, width: 542)
    #expect(x.lo == 0.1 && x.hi == 10 && x.hasZero)
    #expect(abs((x.x(1) - x.x(0.1)) - (x.x(10) - x.x(1))) < 1e-9)
    #expect(abs((x.x(2) - x.x(1)) - (x.x(20) - x.x(10))) < 1e-9 || x.x(20) == x.x(10))
    #expect(x.x(0) < x.logLeft - 20 && x.x(0.1) == x.logLeft && x.x(10) == x.right)
    #expect(x.ticks == [0, 0.1, 0.2, 0.5, 1, 2, 5, 10])
    let noZero = LatencyAxis(latencies: [0.05, 3], left: 0, width: 100)
    #expect(noZero.lo == 0.01 && noZero.hi == 10 && !noZero.hasZero && noZero.x(0.01) == 0)
}

@Test func valueAxesStartAtZeroOrSpanDecades() {
    let linear = ValueAxis(scale: .linearZero, values: [17.4, 17.6], top: 40, height: 260)
    #expect(linear.lo == 0 && linear.hi >= 17.6 && linear.y(0) == 300 && linear.ticks.first == 0)
    let log = ValueAxis(scale: .log, values: [0.29, 82.8], top: 40, height: 260)
    #expect(log.lo == 0.1 && log.hi == 100 && abs((log.y(1) - log.y(10)) - (log.y(10) - log.y(100))) < 1e-9)
    #expect(ValueAxis(scale: .log, values: [0, 0], top: 0, height: 10).scale == .linearZero)
}
