import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

@Suite struct DeliveryCoalescerTests {
    /// One-sample deliveries at 100 Hz, sample i at (i + 1) * 10 ms, delivered when it is taken.
    static func singles(_ n: Int) -> [SampleBatch] {
        (0..<n).map { i in
            let t = Int64(i + 1) * 10_000_000
            return SampleBatch(samples: [Sample(timestamp: t, accel: Vector3(Double(i), 0, 1))], deliveredAt: t)
        }
    }

    /// Feeds `batches`, returns the joined deliveries (the flush last).
    static func joined(_ batches: [SampleBatch], _ c: inout DeliveryCoalescer) -> [SampleBatch] {
        var out = batches.compactMap { c.add($0) }
        if let rest = c.flush() { out.append(rest) }
        return out
    }

    @Test func joinsUpToTheSampleLimitInOrderDeliveredAtTheLastPart() {
        var c = DeliveryCoalescer(maxSamples: 32, maxDelayNanoseconds: 10_000_000_000)
        let input = Self.singles(100)
        let out = Self.joined(input, &c)
        #expect(out.map(\.count) == [32, 32, 32, 4])
        #expect(out.flatMap(\.samples) == input.flatMap(\.samples))
        #expect(out.map(\.deliveredAt) == [32, 64, 96, 100].map { Int64($0) * 10_000_000 })
        #expect(c.heldSamples == 0)
        #expect(c.flush() == nil)
    }

    @Test func handsOnOnceTheFirstHeldSampleIsOldEnough() {
        var c = DeliveryCoalescer(maxSamples: 1000, maxDelayNanoseconds: 250_000_000)
        let out = Self.joined(Self.singles(60), &c)
        // Held from 10 ms; handed on at 260 ms (26 samples), then from 270 ms to 520 ms, then the rest.
        #expect(out.map(\.count) == [26, 26, 8])
        #expect(out.map(\.deliveredAt) == [260, 520, 600].map { Int64($0) * 1_000_000 })
    }

    @Test func largeDeliveriesPassAsTheyAreAndEmptyOnesAreDropped() {
        var c = DeliveryCoalescer(maxSamples: 4)
        let big = SampleBatch(samples: Self.singles(5).flatMap(\.samples), deliveredAt: 77)
        #expect(c.add(big) == big)
        #expect(c.add(SampleBatch(samples: [], deliveredAt: 80)) == nil)
        #expect(c.heldSamples == 0)
        // Held samples come first, also when a large delivery follows them.
        let one = Self.singles(1)[0]
        #expect(c.add(one) == nil)
        #expect(c.add(big) == SampleBatch(samples: one.samples + big.samples, deliveredAt: 77))
    }

    @Test func aLimitOfOneHandsOnEveryDelivery() {
        var c = DeliveryCoalescer(maxSamples: 1)
        let input = Self.singles(10)
        #expect(Self.joined(input, &c) == input)
    }

    /// The capture's use: the standard analyzers fed one sample per delivery through the coalescer
    /// find what they find fed directly, in far fewer deliveries (at 50 Hz the 250 ms limit joins
    /// 13 samples).
    @Test(arguments: ["hapt-user01-walking.csv", "hapt-user05-mixed.csv"])
    func standardAnalysisThroughTheCoalescerEqualsPerSampleDelivery(file: String) throws {
        let recording = try Recording.read(path: TestPaths.packageRoot.appendingPathComponent("Recordings/\(file)").path)
        var direct = try StandardAnalyzers.pipeline(for: recording.header)
        var joined = try StandardAnalyzers.pipeline(for: recording.header)
        var c = DeliveryCoalescer()
        for s in recording.samples {
            let batch = SampleBatch(samples: [s], deliveredAt: s.timestamp)
            try direct.0.consume(batch)
            if let j = c.add(batch) { try joined.0.consume(j) }
        }
        if let rest = c.flush() { try joined.0.consume(rest) }
        try direct.0.finish()
        try joined.0.finish()
        #expect(joined.0.results == direct.0.results)
        #expect(direct.0.analyzer(direct.1.steps).count > 0)
        #expect(joined.0.samplesConsumed == recording.samples.count)
        #expect(joined.0.deliveries * 12 < recording.samples.count)
    }
}
