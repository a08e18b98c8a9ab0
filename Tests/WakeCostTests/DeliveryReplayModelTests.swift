import Testing
import MotionCore
@testable import WakeCost

// Law: a replay through MotionCore's DeliveryReplay makes the deliveries the model predicts.
@Test(arguments: [0.0, 0.1, 1, 5, 10])
func replayedDeliveriesAreThoseTheModelPredicts(latency: Double) {
    var r = DeliveryReplay(policy: .latency(seconds: latency))
    for s in uniformSamples(count: 1000, periodNs: 10_000_000) { _ = r.push(s) }
    _ = r.finish()
    #expect(r.samples == 1000)
    #expect(r.deliveries == WakeCounts.predicted(samples: 1000, configuration: WakeConfiguration(rateHz: 100, latencyS: latency)).userspaceReturns)
}
