import Testing
import MotionCore
@testable import WakeCost

/// Samples every `periodNs` from t = 0.
func uniformSamples(count: Int, periodNs: Int64) -> [Sample] {
    (0..<count).map { Sample(timestamp: Int64($0) * periodNs, accel: Vector3(0, 0, 9.81)) }
}

/// Batches MotionCore's Batcher makes of `samples`.
func batcherBatches(_ samples: [Sample], _ policy: DeliveryPolicy) -> [SampleBatch] {
    var b = Batcher(policy: policy)
    var out: [SampleBatch] = []
    b.push(contentsOf: samples, into: &out)
    if let last = b.finish() { out.append(last) }
    return out
}

// Law: in batched mode userspace returns = ceil(samples / batch), for both bufferings.
@Test(arguments: [(1000, 10), (1001, 10), (999, 10), (7, 100), (1, 5), (360_000, 100), (12345, 7)], Buffering.allCases)
func batchedReturnsAreCeilOfSamplesOverBatch(samplesAndBatch: (Int, Int), buffering: Buffering) {
    let (n, b) = samplesAndBatch
    let c = WakeConfiguration(rateHz: 100, policy: .samples(b), buffering: buffering)
    let counts = WakeCounts.predicted(samples: n, configuration: c)
    #expect(counts.userspaceReturns == (n + b - 1) / b)
    #expect(counts.userspaceReturns * b >= n && (counts.userspaceReturns - 1) * b < n)
}

// Law: per-sample mode wakes once per sample at every level, whatever the buffering.
@Test(arguments: [1, 2, 25, 360_000], Buffering.allCases)
func perSampleModeWakesOncePerSample(n: Int, buffering: Buffering) {
    for policy in [DeliveryPolicy.samples(1), .latency(nanoseconds: 0)] {
        let counts = WakeCounts.predicted(samples: n, configuration: WakeConfiguration(rateHz: 50, policy: policy, buffering: buffering))
        #expect(counts == WakeCounts(samples: n, deviceDeliveries: n, schedulerWakeups: n, userspaceReturns: n))
    }
}

// The measured kernel behaviour: a software watermark cuts returns but not device deliveries or
// scheduler wake-ups; a hardware FIFO drained without blocking cuts all three alike.
@Test(arguments: [10, 100, 1000])
func softwareWatermarkCutsOnlyReturnsHardwareFIFOCutsAll(batch: Int) {
    let n = 10_000
    let sw = WakeCounts.predicted(samples: n, configuration: WakeConfiguration(rateHz: 100, policy: .samples(batch), buffering: .software))
    #expect(sw.deviceDeliveries == n && sw.schedulerWakeups == n && sw.userspaceReturns == n / batch)
    #expect(sw.spuriousWakeups == n - n / batch)
    let hw = WakeCounts.predicted(samples: n, configuration: WakeConfiguration(rateHz: 100, policy: .samples(batch), buffering: .hardware))
    #expect(hw.deviceDeliveries == n / batch && hw.schedulerWakeups == n / batch && hw.userspaceReturns == n / batch)
    // Timed draining: every sample still interrupts, but the reader wakes once per batch.
    let timed = WakeCounts.predicted(samples: n, configuration: WakeConfiguration(rateHz: 100, policy: .samples(batch), buffering: .timed))
    #expect(timed.deviceDeliveries == n && timed.schedulerWakeups == n / batch && timed.userspaceReturns == n / batch)
    #expect(timed.spuriousWakeups == 0)
    #expect(timed.cpuActiveSeconds(on: .rpi4B) < sw.cpuActiveSeconds(on: .rpi4B))
    #expect(timed.cpuActiveSeconds(on: .rpi4B) > hw.cpuActiveSeconds(on: .rpi4B))
}

// The model's batch size for a latency equals what MotionCore's Batcher does on a steady stream:
// its number of deliveries is ceil(samples / batchSamples).
@Test(arguments: [(25.0, 0.1), (50.0, 0.1), (100.0, 0.1), (100.0, 1.0), (200.0, 5.0), (25.0, 10.0), (40.0, 0.3), (8.0, 0.25), (100.0, 0.005)])
func latencyBatchSizeMatchesBatcher(rate: Double, latency: Double) {
    let period = Int64((1e9 / rate).rounded())
    let n = 3000
    let c = WakeConfiguration(rateHz: rate, latencyS: latency, buffering: .hardware)
    let batches = batcherBatches(uniformSamples(count: n, periodNs: period), c.policy)
    #expect(batches.dropLast().allSatisfy { $0.count == c.batchSamples })
    #expect(batches.count == WakeCounts.predicted(samples: n, configuration: c).userspaceReturns)
}

@Test func cpuTimeAddsEachLevelAtItsOwnCost() {
    let board = BoardProfile(name: "t", idlePowerW: 1, activePowerW: 2, deviceDeliveryS: 1e-3, schedulerWakeupS: 1e-4,
                             userspaceReturnS: 1e-2, perSampleS: 1e-6, batteryMAh: 1000, batteryV: 3.7)
    let counts = WakeCounts(samples: 1000, deviceDeliveries: 1000, schedulerWakeups: 1000, userspaceReturns: 10)
    #expect(abs(counts.cpuActiveSeconds(on: board) - (1000 * 1e-3 + 990 * 1e-4 + 10 * 1e-2 + 1000 * 1e-6)) < 1e-12)
    #expect(abs(counts.processCPUSeconds(on: board) - (990 * 1e-4 + 10 * 1e-2 + 1000 * 1e-6)) < 1e-12)
}
