import Testing
@testable import MotionCore

/// Thinning a stream to a lower rate, as a sensor at that rate would have sampled it.
struct RateDecimatorTests {
    @Test(arguments: [(100.0, 25.0, 250), (100.0, 50.0, 500), (100.0, 90.0, 900), (200.0, 30.0, 300)])
    func oneSamplePerSlot(native: Double, rate: Double, expected: Int) {
        let period = Int64((1e9 / native).rounded())
        var d = RateDecimator(rateHz: rate)
        let kept = regularSamples(count: Int(native * 10), periodNs: period).filter { d.keeps($0) }
        #expect(abs(kept.count - expected) <= 1)
        #expect(kept.first?.timestamp == 0)
        if rate < native {
            let meanRate = Double(kept.count - 1) / (Double(kept.last!.timestamp) / 1e9)
            #expect(abs(meanRate - rate) < rate * 0.02)
        }
    }

    @Test func slotsCountFromTheFirstSample() {
        var d = RateDecimator(rateHz: 1)
        let ts: [Int64] = [5_000_000_000, 5_600_000_000, 6_000_000_000, 6_999_999_999, 7_000_000_001, 9_500_000_000]
        let kept = ts.filter { d.keeps(Sample(timestamp: $0, accel: .zero)) }
        #expect(kept == [5_000_000_000, 6_000_000_000, 7_000_000_001, 9_500_000_000])
    }
}
