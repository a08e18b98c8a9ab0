import Testing
@testable import MotionCore

/// Deliveries of a replayed stream and what they cost: count, largest, sample delays.
struct DeliveryReplayTests {
    static func replay(_ samples: [Sample], _ policy: DeliveryPolicy) -> (DeliveryReplay, [SampleBatch]) {
        var r = DeliveryReplay(policy: policy)
        var out: [SampleBatch] = []
        for s in samples { if let b = r.push(s) { out.append(b) } }
        if let b = r.finish() { out.append(b) }
        return (r, out)
    }

    @Test(arguments: [0.0, 0.1, 1, 5, 10])
    func delaysFollowTheLatency(latency: Double) {
        let (r, batches) = Self.replay(regularSamples(count: 1000, periodNs: 10_000_000), .latency(seconds: latency))
        #expect(r.samples == 1000 && r.deliveries == batches.count)
        #expect(r.largestDelivery == batches.map(\.count).max())
        // The first sample of a batch waits the whole latency; on average a sample waits about half of it.
        #expect(abs(r.worstDelayS - latency) < 1e-9)
        if latency >= 1 { #expect(abs(r.meanDelayS - (latency / 2 + 0.005)) < 0.01) }
        if latency == 0 { #expect(r.meanDelayS == 0 && r.deliveries == 1000) }
    }

    @Test func batchesAreTheBatchersAndCountsAreCounted() {
        let samples = regularSamples(count: 250, periodNs: 10_000_000)
        let (r, out) = Self.replay(samples, .samples(100))
        #expect(out == batches(samples, .samples(100)))
        #expect(r.deliveries == 3 && r.largestDelivery == 100)
        // A count batch is delivered at its last sample: the first sample of each full batch waits 99 periods.
        #expect(r.worstDelayNs == 99 * 10_000_000)
    }
}
