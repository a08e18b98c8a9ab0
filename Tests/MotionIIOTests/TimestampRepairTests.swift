import Testing
import MotionCore
@testable import MotionIIO

struct TimestampRepairTests {
    static let p: Int64 = 10_000_000 // 100 Hz
    static func samples(_ ts: [Int64]) -> [Sample] { ts.enumerated().map { Sample(timestamp: $1, accel: Vector3(Double($0), 0, 0)) } }

    @Test func bunchedBurstIsSpreadBackFromItsEnd() {
        var r = TimestampRepair(period: Self.p, expectedBurst: 100)
        // A burst of 100 samples stamped on arrival within 50 µs, ending at 2 s.
        let burst = (0..<100).map { Int64(2_000_000_000 - 50_000 + $0 * 500) }
        let out = r.push(Self.samples(burst))
        #expect(out.count == 100)
        #expect(out.last!.timestamp == burst.last!)
        #expect(out.first!.timestamp == burst.last! - 99 * Self.p)
        #expect(zip(out, out.dropFirst()).allSatisfy { $1.timestamp - $0.timestamp == Self.p })
        #expect(out.map(\.accel.x) == (0..<100).map(Double.init)) // order and values kept
        #expect(r.repairedRuns == 1 && r.repairedSamples == 99) // the anchor keeps its stamp
    }

    @Test func evenlySpacedHubTimestampsPassUnchanged() {
        var r = TimestampRepair(period: Self.p, expectedBurst: 100)
        let ts = (0..<250).map { Int64($0) * Self.p }
        var out = r.push(Self.samples(Array(ts[0..<120])))
        out += r.push(Self.samples(Array(ts[120...])))
        out += r.finish()
        #expect(out.map(\.timestamp) == ts)
        #expect(r.repairedSamples == 0)
    }

    @Test func burstSplitAcrossTwoDrainsIsRepairedAsOne() {
        var r = TimestampRepair(period: Self.p, expectedBurst: 100)
        let end: Int64 = 5_000_000_000
        let burst = (0..<100).map { end - 99_000 + Int64($0) * 1000 }
        let first = r.push(Self.samples(Array(burst[0..<30])))
        #expect(first.isEmpty) // held: the burst may continue
        let rest = r.push(Self.samples(Array(burst[30...])))
        #expect(rest.count == 100)
        #expect(rest.first!.timestamp == end - 99 * Self.p && rest.last!.timestamp == end)
    }

    @Test func successiveBurstsStayIncreasingAndShortBurstReleasedByNextOne() {
        var r = TimestampRepair(period: Self.p, expectedBurst: 100)
        var out: [Sample] = []
        for k in 1...3 {
            let end = Int64(k) * 1_000_000_000
            out += r.push(Self.samples((0..<100).map { end - 100 + Int64($0) }))
        }
        // A short final burst (FIFO flushed at stop) is released only by finish().
        out += r.push(Self.samples((0..<40).map { 3_400_000_000 + Int64($0) }))
        #expect(out.count == 300)
        out += r.finish()
        #expect(out.count == 340)
        #expect(zip(out, out.dropFirst()).allSatisfy { $1.timestamp > $0.timestamp })
        #expect(out[299].timestamp == 3_000_000_000 - 1)
        #expect(out.last!.timestamp == 3_400_000_039)
    }

    @Test func burstOneLongerThanExpectedStaysWhole() {
        var r = TimestampRepair(period: Self.p, expectedBurst: 100)
        var out: [Sample] = []
        for k in 1...3 {
            let end = Int64(k) * 1_010_000_000
            out += r.push(Self.samples((0..<101).map { end - 101_000 + Int64($0) * 1000 }))
        }
        #expect(out.count == 303)
        #expect(r.compressedRuns == 0)
        let dts = zip(out, out.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(dts.allSatisfy { $0 == Self.p }) // ends 1.01 s apart: the joins are one period too
        #expect(dts.allSatisfy { $0 > Self.p / 2 })
    }

    /// Seen on the emulated hub: the reader preempts the hub after the burst's first sample.
    @Test(arguments: [false, true])
    func burstInterruptedAfterFirstSampleIsOneRun(splitDrains: Bool) {
        var r = TimestampRepair(period: Self.p, expectedBurst: 100)
        var out: [Sample] = []
        for k in 1...3 {
            let end = Int64(k) * 1_000_000_000
            let burst = [end - 8_300_000] + (0..<99).map { end - 580_000 + Int64($0) * 5_900 }
            if splitDrains {
                out += r.push(Self.samples(Array(burst[0..<1])))
                out += r.push(Self.samples(Array(burst[1...])))
            } else {
                out += r.push(Self.samples(burst))
            }
        }
        #expect(out.count == 300)
        #expect(r.compressedRuns == 0)
        let dts = zip(out, out.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(dts.allSatisfy { abs($0 - Self.p) < 1_000_000 })
    }

    @Test func hubSpacedDrainsAreNotHeld() {
        var r = TimestampRepair(period: Self.p, expectedBurst: 100)
        let first = r.push(Self.samples((0..<100).map { Int64($0) * Self.p }))
        #expect(first.count == 100)
        let second = r.push(Self.samples((100..<150).map { Int64($0) * Self.p }))
        #expect(second.count == 50) // a partial hub-stamped drain is released at once
    }

    @Test func overlappingBurstIsCompressedNotReordered() {
        var r = TimestampRepair(period: Self.p, expectedBurst: 100)
        var out = r.push(Self.samples((0..<100).map { 1_000_000_000 + Int64($0) }))
        // The next burst arrives only 0.5 s later but claims 100 samples (1 s): compress.
        out += r.push(Self.samples((0..<100).map { 1_500_000_000 + Int64($0) }))
        #expect(r.compressedRuns == 1)
        #expect(zip(out, out.dropFirst()).allSatisfy { $1.timestamp > $0.timestamp })
        #expect(out.last!.timestamp == 1_500_000_099)
    }

    @Test func withoutExpectedBurstNothingIsHeld() {
        var r = TimestampRepair(period: Self.p)
        let out = r.push(Self.samples([0, 100, 200]))
        #expect(out.map(\.timestamp) == [200 - 2 * Self.p, 200 - Self.p, 200])
        #expect(r.finish().isEmpty)
    }
}

struct GapDetectorTests {
    @Test(arguments: [
        // timestamps (in periods of 10 ms), expected lost, expected gaps
        ([0, 1, 2, 3, 4] as [Int64], 0, 0),
        ([0, 1, 2, 5, 6], 2, 1),
        ([0, 1, 1, 2], 0, 0),
        ([0, 1, 3, 4, 14], 10, 2),
    ])
    func countsLostSamples(_ periods: [Int64], _ lost: Int, _ gaps: Int) {
        var g = GapDetector(period: 10_000_000)
        for t in periods { _ = g.push(t * 10_000_000) }
        #expect(g.lostSamples == lost)
        #expect(g.gapCount == gaps)
    }

    @Test func jitterBelowFactorIsNotAGap() {
        var g = GapDetector(period: 10_000_000)
        for t: Int64 in [0, 14_000_000, 24_000_000, 31_000_000] { #expect(g.push(t) == nil) }
        let gap = g.push(61_000_000)
        #expect(gap == GapDetector.Gap(after: 31_000_000, before: 61_000_000, lostSamples: 2))
        _ = g.push(60_000_000)
        #expect(g.nonIncreasing == 1)
    }
}

struct SampleMergerTests {
    static func a(_ t: Int64) -> Sample { Sample(timestamp: t, accel: Vector3(Double(t), 0, 0)) }
    static func g(_ t: Int64, _ v: Double) -> Sample { Sample(timestamp: t, accel: .zero, gyro: Vector3(v, -v, 0)) }

    @Test func interpolatesGyroAtAccelTimes() {
        var m = SampleMerger()
        #expect(m.pushAccel([Self.a(10), Self.a(20), Self.a(30)]).isEmpty) // no gyro yet
        let out = m.pushGyro([Self.g(5, 0), Self.g(25, 2)])
        #expect(out.map(\.timestamp) == [10, 20])
        #expect(abs(out[0].gyro.x - 0.5) < 1e-12 && abs(out[1].gyro.x - 1.5) < 1e-12)
        #expect(out[0].accel.x == 10)
        #expect(m.pendingCount == 1)
        let tail = m.finish()
        #expect(tail.map(\.timestamp) == [30])
        #expect(tail[0].gyro.x == 2) // held
    }

    @Test func exactTimesAndLeadingAccelBeforeFirstGyro() {
        var m = SampleMerger()
        _ = m.pushGyro([Self.g(10, 1), Self.g(20, 3)])
        let out = m.pushAccel([Self.a(0), Self.a(10), Self.a(20)])
        #expect(out.map(\.gyro.x) == [1, 1, 3])
        #expect(m.finish().isEmpty)
    }

    @Test func orderIndependentOfDeliverySplit() {
        let accel = (0..<50).map { Self.a(Int64($0) * 10) }
        let gyro = (0..<50).map { Self.g(Int64($0) * 10 + 3, Double($0)) }
        var m1 = SampleMerger()
        var all = m1.pushAccel(accel) + m1.pushGyro(gyro)
        all += m1.finish()
        var m2 = SampleMerger()
        var split: [Sample] = []
        for i in stride(from: 0, to: 50, by: 7) {
            split += m2.pushGyro(Array(gyro[i..<min(50, i + 7)]))
            split += m2.pushAccel(Array(accel[i..<min(50, i + 7)]))
        }
        split += m2.finish()
        #expect(all == split)
        #expect(all.count == 50)
    }
}

struct GapFactorTests {
    @Test func burstJoinFactorToleratesAnchorJitterButNotRealLosses() {
        var g = GapDetector(period: 10_000_000)
        g.factor = GapDetector.burstJoinFactor
        _ = g.push(0)
        #expect(g.push(24_900_000) == nil)             // 2.49 periods: anchoring jitter
        #expect(g.push(54_900_000)?.lostSamples == 2)  // 3 periods: 2 samples lost
    }
}
