import Testing
import MotionCore
@testable import WakeCost

// Law: energy above idle falls and battery life rises (never the reverse) as latency grows,
// up to the FIFO limit, on every built-in board, at every rate, for both bufferings.
@Test(arguments: BoardProfile.builtIn.map(\.name), [12.5, 25.0, 50.0, 100.0, 200.0, 400.0])
func energyAndBatteryAreMonotonicInLatencyUntilTheFIFOLimit(boardName: String, rate: Double) throws {
    let board = try #require(BoardProfile.builtIn(named: boardName))
    let latencies = [0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 3.4, 5, 6.8, 10, 30, 60]
    for buffering in Buffering.allCases {
        let chip = FIFOChip.lsm6ds3
        let predictions = latencies.map { WakeCostModel.predict(WakeConfiguration(rateHz: rate, latencyS: $0, buffering: buffering), board: board, chips: [chip]) }
        let fitting = predictions.prefix { $0.fifo[0].fits }
        #expect(fitting.count >= 2)
        for (a, b) in zip(fitting, fitting.dropFirst()) {
            #expect(b.energyJPerHour <= a.energyJPerHour, "energy rose from \(a.configuration.latencyS) s to \(b.configuration.latencyS) s")
            #expect(b.batteryLifeH >= a.batteryLifeH)
            #expect(b.perHour.userspaceReturns <= a.perHour.userspaceReturns)
            if b.configuration.batchSamples > a.configuration.batchSamples {
                #expect(b.energyJPerHour < a.energyJPerHour, "a bigger batch must save energy")
            }
        }
    }
}

@Test(arguments: BoardProfile.builtIn)
func predictionFiguresAreConsistent(board: BoardProfile) {
    let p = WakeCostModel.predict(WakeConfiguration(rateHz: 100, latencyS: 1), board: board)
    #expect(p.perHour.samples == 360_000)
    #expect(abs(p.energyJPerHour - p.cpuActiveSPerHour * (board.activePowerW - board.idlePowerW)) < 1e-9)
    #expect(abs(p.averagePowerW - (board.idlePowerW + p.energyJPerHour / 3600)) < 1e-12)
    #expect(abs(p.batteryLifeH * p.averagePowerW - board.batteryWh) < 1e-9)
    #expect(abs(p.batteryPercentPerHour * p.batteryLifeH - 100) < 1e-9)
    #expect(p.worstLatencyS >= 1 && p.worstLatencyS < 1.01)
    #expect(p.energyJPerHour.isFinite && p.batteryLifeH.isFinite && p.batteryLifeH > 0)
}

@Test func perSampleWorstLatencyIsOnlyTheHandling() {
    let b = BoardProfile.rpi4B
    let p = WakeCostModel.predict(WakeConfiguration(rateHz: 100, latencyS: 0), board: b)
    #expect(abs(p.worstLatencyS - (b.deviceDeliveryS + b.userspaceReturnS + b.perSampleS)) < 1e-15)
    // A software watermark of n samples makes the first sample wait (n - 1) periods.
    let s = WakeCostModel.predict(WakeConfiguration(rateHz: 100, policy: .samples(10), buffering: .software), board: b)
    #expect(abs(s.worstLatencyS - (0.09 + b.deviceDeliveryS + b.userspaceReturnS + 10 * b.perSampleS)) < 1e-12)
    // The timed reader wakes half a period after the tenth sample, up to 1 ms late.
    let t = WakeCostModel.predict(WakeConfiguration(rateHz: 100, policy: .samples(10), buffering: .timed), board: b)
    #expect(abs(t.worstLatencyS - (0.095 + 0.001 + b.deviceDeliveryS + b.userspaceReturnS + 10 * b.perSampleS)) < 1e-12)
    #expect(t.perHour.schedulerWakeups == 36_000 && s.perHour.schedulerWakeups == 360_000)
}

@Test func sweepIsRatesOuterLatenciesInner() {
    let s = WakeCostModel.sweep(rates: [25, 50], latencies: [0, 1, 5], buffering: .hardware, sensors: .accel, board: .rpi5)
    #expect(s.map(\.configuration.rateHz) == [25, 25, 25, 50, 50, 50])
    #expect(s.map(\.configuration.latencyS) == [0, 1, 5, 0, 1, 5])
}
