import Foundation
import Testing
import MotionCore
@testable import WakeCost

/// Reports an event at every sample whose x acceleration crosses 0 upwards (a stand-in for a
/// step detector whose result must not depend on batching).
struct UpCrossingAnalyzer: ReplayAnalyzer {
    var previous: Double?
    var count = 0
    var name: String { "crossings" }
    mutating func consume(_ batch: SampleBatch) -> [Int64] {
        var events: [Int64] = []
        for s in batch.samples {
            if let p = previous, p < 0, s.accel.x >= 0 { events.append(s.timestamp); count += 1 }
            previous = s.accel.x
        }
        return events
    }
    mutating func finish() -> [Int64] { [] }
    var summary: [(String, String)] { [("count", String(count))] }
}

/// 100 Hz, 1 Hz sine on x with timestamp jitter, 60 s.
func sineStream() -> [Sample] {
    (0..<6000).map { i in
        let t = Int64(i) * 10_000_000 + Int64((i * 7919) % 5) * 100_000
        return Sample(timestamp: t, accel: Vector3(sin(2 * Double.pi * Double(t) / 1e9), 0, 9.81))
    }
}

@Test(arguments: [0.0, 0.1, 1, 5, 10])
func replayDelaysFollowTheLatency(latency: Double) throws {
    let samples = uniformSamples(count: 1000, periodNs: 10_000_000)
    let r = try RecordingReplay.run(samples, latencyS: latency, makeAnalyzers: { [StreamStatisticsAnalyzer()] })
    #expect(r.samples == 1000)
    #expect(r.deliveries == WakeCounts.predicted(samples: 1000, configuration: WakeConfiguration(rateHz: 100, latencyS: latency)).userspaceReturns)
    // The first sample of a batch waits the whole latency; on average a sample waits about half of it.
    #expect(abs(r.worstDelayS - latency) < 1e-9)
    if latency >= 1 { #expect(abs(r.meanDelayS - (latency / 2 + 0.005)) < 0.01) }
    if latency == 0 { #expect(r.meanDelayS == 0) }
}

@Test func analysisIsIdenticalAcrossLatenciesAndEventsBecomeVisibleWithinTheLatency() throws {
    let samples = sineStream()
    let latencies = [0.0, 0.1, 1, 5, 10]
    let results = try latencies.map { l in try RecordingReplay.run(samples, latencyS: l, makeAnalyzers: { [StreamStatisticsAnalyzer(), UpCrossingAnalyzer()] }) }
    #expect(RecordingReplay.analysesIdentical(results))
    #expect(results[0].analysis.contains("crossings.count=59") || results[0].analysis.contains("crossings.count=60"))
    #expect(results[0].analysis.contains("stream.samples=6000"))
    for r in results {
        #expect(r.eventCount == results[0].eventCount)
        #expect(r.eventDelaysS.allSatisfy { $0 >= 0 && $0 <= r.latencyS + 1e-9 })
    }
    #expect(results.last!.eventDelaysS.max()! > 5, "with 10 s batches some crossing waits more than 5 s")
    // Different analysis results are detected.
    var changed = results
    changed[2].analysis = ["crossings.count=1"]
    #expect(!RecordingReplay.analysesIdentical(changed))
}

@Test(arguments: [(100.0, 25.0, 250), (100.0, 50.0, 500), (100.0, 100.0, 1000), (100.0, 400.0, 1000), (200.0, 30.0, 300)])
func decimationKeepsOneSamplePerSlot(native: Double, rate: Double, expected: Int) {
    let period = Int64((1e9 / native).rounded())
    let samples = uniformSamples(count: Int(native * 10), periodNs: period)
    let d = RecordingReplay.decimate(samples, toRateHz: rate)
    #expect(abs(d.count - expected) <= 1)
    #expect(zip(d, d.dropFirst()).allSatisfy { $1.timestamp > $0.timestamp })
    if rate < native { #expect(abs(RecordingReplay.meanRateHz(d) - rate) < rate * 0.02) }
}

@Test func identicalIsJudgedWithinEachRate() {
    let a = ReplayResult(rateHz: 25, latencyS: 0, deliveries: 1, samples: 1, worstDelayS: 0, meanDelayS: 0, analysis: ["steps.count=10"], eventDelaysS: [])
    var b = a; b.latencyS = 1
    var c = a; c.rateHz = 50; c.analysis = ["steps.count=11"]
    #expect(RecordingReplay.analysesIdentical([a, b, c]))
    var d = c; d.latencyS = 5; d.analysis = ["steps.count=12"]
    #expect(!RecordingReplay.analysesIdentical([a, b, c, d]))
}
