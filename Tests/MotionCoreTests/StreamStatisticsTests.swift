import Testing
@testable import MotionCore

private func stats(_ samples: [Sample], batch: Int, rate: Double? = nil) -> StreamStatistics {
    var st = StreamStatistics(declaredRateHz: rate)
    for b in batches(samples, .samples(batch)) { st.add(b) }
    st.finish()
    return st
}

@Test func regularStreamHasNoGapsAndItsRate() {
    let st = stats(regularSamples(count: 1001, periodNs: 10_000_000), batch: 50)
    #expect(st.sampleCount == 1001)
    #expect(st.gapCount == 0)
    #expect(st.durationSeconds == 10)
    #expect(st.effectiveRateHz == 100)
    #expect(st.nominalPeriod == 10_000_000)
}

@Test(arguments: [1, 2, 7, 64, 255, 256, 1000, 5000])
func gapsDoNotDependOnBatchSize(batch: Int) {
    var s = regularSamples(count: 600, periodNs: 20_000_000)
    // Remove samples 100..<105 (gap of 6 periods) and 400..<401 (gap of 2 periods: not > 2x).
    s.removeSubrange(400..<401)
    s.removeSubrange(100..<105)
    let st = stats(s, batch: batch)
    #expect(st.gapCount == 1)
    #expect(st.longestGap == 6 * 20_000_000)
    #expect(st.estimatedMissingSamples == 5)
    let reference = stats(s, batch: s.count)
    #expect(st.gapCount == reference.gapCount && st.longestGap == reference.longestGap)
}

@Test func declaredRateSetsThePeriodBeforeAnySample() {
    let st = StreamStatistics(declaredRateHz: 50)
    #expect(st.nominalPeriod == 20_000_000)
}

@Test func shortStreamSettlesPeriodAtFinish() {
    var s = regularSamples(count: 10, periodNs: 1_000_000)
    s.append(Sample(timestamp: 100_000_000, accel: .zero))
    let st = stats(s, batch: 3)
    #expect(st.gapCount == 1)
    #expect(st.longestGap == 91_000_000)
}

/// A declared rate outside InputLimits.rate is ignored rather than turned into a period (1e-320 Hz
/// made 1e9/r infinite, 1e308 Hz made it 0; issue 13); extreme timestamps do not trap.
@Test(arguments: [1e308, 1e-320, 0, -50, Double.nan])
func declaredRatesOutsideTheRuleAreIgnored(rate: Double) {
    var st = StreamStatistics(declaredRateHz: rate)
    #expect(st.nominalPeriod == nil)
    st.add(SampleBatch(samples: [Sample(timestamp: -InputLimits.timestampLimit, accel: .zero), Sample(timestamp: InputLimits.timestampLimit, accel: .zero)], deliveredAt: 0))
    st.finish()
    #expect(st.sampleCount == 2 && st.durationSeconds.isFinite)
}
