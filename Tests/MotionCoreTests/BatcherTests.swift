import Testing
@testable import MotionCore

/// Samples at a fixed period starting at t = 0.
func regularSamples(count: Int, periodNs: Int64) -> [Sample] {
    (0..<count).map { i in Sample(timestamp: Int64(i) * periodNs, accel: Vector3(Double(i), 0, 9.81)) }
}

func batches(_ samples: [Sample], _ policy: DeliveryPolicy) -> [SampleBatch] {
    var b = Batcher(policy: policy)
    var out: [SampleBatch] = []
    b.push(contentsOf: samples, into: &out)
    if let last = b.finish() { out.append(last) }
    return out
}

@Test(arguments: [(1, 10, 10), (3, 10, 4), (10, 10, 1), (100, 10, 1), (7, 100, 15)])
func countBatchesAreCeilOfSamplesOverBatch(batch: Int, samples: Int, expected: Int) {
    let out = batches(regularSamples(count: samples, periodNs: 10_000_000), .samples(batch))
    #expect(out.count == expected)
    #expect(out.flatMap(\.samples) == regularSamples(count: samples, periodNs: 10_000_000))
    #expect(out.dropLast().allSatisfy { $0.count == batch })
}

@Test func latencyBatchesGroupByWaitingTimeAndDeliverWhenLatencyExpires() {
    // 100 Hz for 2.5 s, latency 1 s: batches of 100, 100, 50; delivered at 1 s, 2 s, 3 s.
    let out = batches(regularSamples(count: 250, periodNs: 10_000_000), .latency(seconds: 1))
    #expect(out.map(\.count) == [100, 100, 50])
    #expect(out.map(\.deliveredAt) == [1_000_000_000, 2_000_000_000, 3_000_000_000])
}

@Test func zeroLatencyIsPerSample() {
    let s = regularSamples(count: 5, periodNs: 1_000)
    let out = batches(s, .latency(nanoseconds: 0))
    #expect(out.count == 5)
    #expect(out.map(\.deliveredAt) == s.map(\.timestamp))
}

@Test func latencyBatchAfterAGapStartsAtTheNextSample() {
    var s = regularSamples(count: 10, periodNs: 10_000_000)
    s += regularSamples(count: 10, periodNs: 10_000_000).map {
        Sample(timestamp: $0.timestamp + 5_000_000_000, accel: $0.accel)
    }
    let out = batches(s, .latency(seconds: 0.5))
    #expect(out.map(\.count) == [10, 10])
    #expect(out.map(\.deliveredAt) == [500_000_000, 5_500_000_000])
}

/// Time arithmetic saturates: timestamps at the ends of the accepted range and latencies up to
/// Int64.max deliver without trapping (issue 13: overflow in Batcher at 9223372036854775000).
@Test(arguments: [Int64.max, InputLimits.timestampLimit, 1_000_000_000_000_000_000])
func latencyArithmeticSaturates(latency: Int64) {
    let limit = InputLimits.timestampLimit
    let s = [Sample(timestamp: -limit, accel: .zero), Sample(timestamp: 0, accel: .zero), Sample(timestamp: limit, accel: .zero)]
    let out = batches(s, .latency(nanoseconds: latency))
    #expect(out.flatMap(\.samples) == s)
    #expect(out.allSatisfy { b in b.samples.allSatisfy { $0.timestamp <= b.deliveredAt } })
    #expect((-limit).saturatingAdding(latency) == (latency == .max ? Int64.max - limit : -limit + latency))
    #expect(Int64.max.saturatingAdding(1) == .max && Int64.min.saturatingAdding(-1) == .min)
    #expect(Int64.min.saturatingSubtracting(1) == .min && Int64.max.saturatingSubtracting(-1) == .max)
    #expect(Int64.max.saturatingSubtracting(Int64.min) == .max)
}
