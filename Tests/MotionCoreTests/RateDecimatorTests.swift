import Foundation
import Testing
@testable import MotionCore

/// Thinning a stream to a lower rate, as a sensor at that rate would have sampled it.
struct RateDecimatorTests {
    /// Every sample of a stream, decimated: what `push` produced plus the final `flush`.
    private func decimate(_ samples: [Sample], rate: Double) -> [Sample] {
        var d = RateDecimator(rateHz: rate)
        var out = samples.compactMap { d.push($0) }
        if let last = d.flush() { out.append(last) }
        return out
    }

    @Test(arguments: [(100.0, 25.0, 250), (100.0, 50.0, 500), (100.0, 90.0, 900), (200.0, 30.0, 300)])
    func oneSamplePerSlot(native: Double, rate: Double, expected: Int) {
        let period = Int64((1e9 / native).rounded())
        let kept = decimate(regularSamples(count: Int(native * 10), periodNs: period), rate: rate)
        #expect(abs(kept.count - expected) <= 1)
        #expect(kept.first?.timestamp == 0)
        if rate < native {
            let meanRate = Double(kept.count - 1) / (Double(kept.last!.timestamp) / 1e9)
            #expect(abs(meanRate - rate) < rate * 0.02)
        }
    }

    @Test func slotsCountFromTheFirstSample() {
        let ts: [Int64] = [5_000_000_000, 5_600_000_000, 6_000_000_000, 6_999_999_999, 7_000_000_001, 9_500_000_000]
        let kept = decimate(ts.map { Sample(timestamp: $0, accel: .zero) }, rate: 1)
        #expect(kept.map(\.timestamp) == [5_000_000_000, 6_000_000_000, 7_000_000_001, 9_500_000_000])
    }

    /// Each produced sample is its slot's mean, gyroscope included.
    @Test func producesTheSlotMean() {
        let s: [Sample] = (0..<6).map { i in
            Sample(timestamp: Int64(i) * 100_000_000, accel: Vector3(Double(i), 0, 1), gyro: Vector3(0, Double(2 * i), 0))
        }
        let kept = decimate(s, rate: 5)   // 200 ms slots: (0,1) (2,3) (4,5)
        #expect(kept.map(\.accel.x) == [0.5, 2.5, 4.5])
        #expect(kept.map(\.gyro.y) == [1, 5, 9])
        #expect(kept.map(\.accel.z) == [1, 1, 1])
    }

    /// A tone above the new Nyquist frequency: one sample per slot aliases it into a full-size
    /// slow wave, the mean suppresses it (a 45 Hz tone sampled at 100 Hz, thinned to 25 Hz).
    @Test func suppressesWhatWouldAlias() {
        let s: [Sample] = (0..<1000).map { i in
            let t = Double(i) / 100
            return Sample(timestamp: Int64(i) * 10_000_000, accel: Vector3(sin(2 * .pi * 45 * t), 0, 0))
        }
        let kept = decimate(s, rate: 25)
        let peak = kept.map { abs($0.accel.x) }.max()!
        #expect(peak < 0.5)
        let firstPerSlot = stride(from: 0, to: s.count, by: 4).map { abs(s[$0].accel.x) }.max()!
        #expect(firstPerSlot > 0.9)
    }

    /// A flush (an interruption) closes the slot: the next sample starts a new mean.
    @Test func flushClosesTheSlot() {
        var d = RateDecimator(rateHz: 1)
        #expect(d.push(Sample(timestamp: 0, accel: Vector3(2, 0, 0))) == nil)
        #expect(d.flush()?.accel.x == 2)
        #expect(!d.hasPending)
        #expect(d.push(Sample(timestamp: 100_000_000, accel: Vector3(4, 0, 0))) == nil)
        #expect(d.flush()?.accel.x == 4)
        #expect(d.flush() == nil)
    }
}
