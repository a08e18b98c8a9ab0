import Testing
import MotionCore
@testable import WakeCost

private let requirements = [AnalysisRequirement(analysis: "a", minimumRateHz: 12.5, basis: "test"),
                            AnalysisRequirement(analysis: "b", minimumRateHz: 20, basis: "test")]

private func sweep(_ board: BoardProfile = .rpi4B, rates: [Double] = [10, 12.5, 25, 50, 100], latencies: [Double] = [0, 0.1, 0.5, 1, 2, 5, 10],
                   chips: [FIFOChip] = FIFOChip.builtIn, buffering: Buffering = .hardware) -> [WakeCostPrediction] {
    WakeCostModel.sweep(rates: rates, latencies: latencies, buffering: buffering, sensors: .accel, board: board, chips: chips)
}

// Law: the choice meets every constraint, checked here from the raw figures, and no setting
// that meets them all is cheaper — on every board, for several delay limits and margins.
@Test(arguments: BoardProfile.builtIn, [nil, 0.6, 3.0] as [Double?])
func chosenIsTheCheapestSettingThatMeetsEveryConstraint(board: BoardProfile, maxDelay: Double?) throws {
    for margin in [0.0, 0.2, 0.5] {
        let predictions = sweep(board)
        let c = RecommendationConstraints(maxDelayS: maxDelay, fifoMargin: margin, requirements: requirements)
        let r = Recommendation.recommend(predictions: predictions, constraints: c)
        func meets(_ p: WakeCostPrediction) -> Bool {
            let fifoOK = p.configuration.isPerSample || p.fifo.allSatisfy { p.configuration.rateHz * p.configuration.latencyS <= Double($0.capacitySamples) * (1 - margin) + 1e-9 }
            return p.configuration.rateHz >= 20 && fifoOK && (maxDelay.map { p.worstLatencyS <= $0 } ?? true)
        }
        let chosen = try #require(r.chosen?.prediction)
        #expect(meets(chosen))
        for p in predictions where meets(p) { #expect(p.energyJPerHour >= chosen.energyJPerHour) }
        #expect(r.candidates.filter(\.isAcceptable).count == predictions.filter(meets).count)
    }
}

@Test func eachConstraintExcludesWhatItShould() throws {
    // Minimum rate: the 10 Hz and 12.5 Hz rows are cheaper but below analysis b's 20 Hz.
    let r = Recommendation.recommend(predictions: sweep(chips: [.lsm6ds3]), constraints: RecommendationConstraints(requirements: requirements))
    let chosen = try #require(r.chosen)
    #expect(chosen.prediction.configuration.rateHz == 25 && chosen.prediction.configuration.latencyS == 10)
    #expect(r.binding.contains { $0.kind == .minimumRate(analysis: "b") })
    #expect(r.candidates.first { $0.prediction.configuration.rateHz == 10 }!.violations.contains { $0.kind == .minimumRate(analysis: "a") })
    // FIFO: with ADXL345 (32 scans) at 25 Hz, 1 s fills 78 % (fits the 20 % margin), 2 s overflows.
    let f = Recommendation.recommend(predictions: sweep(chips: [.adxl345]), constraints: RecommendationConstraints(requirements: requirements))
    #expect(f.chosen?.prediction.configuration.rateHz == 25 && f.chosen?.prediction.configuration.latencyS == 1)
    #expect(f.binding.first?.kind == .fifo(chip: "ADXL345"))
    #expect(abs((f.fifoLimit?.latencyS ?? 0) - 32.0 * 0.8 / 25) < 1e-12 && f.fifoLimit?.chip == "ADXL345")
    // A margin of 0.5 halves what is allowed: 0.5 s (12.5 scans of 32) is the longest.
    let m = Recommendation.recommend(predictions: sweep(chips: [.adxl345]), constraints: RecommendationConstraints(fifoMargin: 0.5, requirements: requirements))
    #expect(m.chosen?.prediction.configuration.latencyS == 0.5)
    // Delay: no setting waits longer than --max-delay.
    let d = Recommendation.recommend(predictions: sweep(chips: [.lsm6ds3]), constraints: RecommendationConstraints(maxDelayS: 1.5, requirements: requirements))
    #expect(d.chosen?.prediction.configuration.latencyS == 1)
    #expect(d.binding.first?.kind == .maxDelay)
}

@Test func replayedVisibilityIsWhatMaxDelayLimits() throws {
    let predictions = sweep(rates: [25], latencies: [0, 1, 5], chips: [.lsm6ds3])
    // Steps become visible 2.4 s after they happen at latency 0, later with batching.
    let replays = [(0.0, 2.4), (1.0, 3.1), (5.0, 6.9)].map { l, worst in
        ConfigurationReplay(rateHz: 25, replayedRateHz: 25, latencyS: l, worstSampleDelayS: l, meanSampleDelayS: l / 2,
                            steps: VisibilityDelays(delaysS: [0.5, worst]))
    }
    let r = Recommendation.recommend(predictions: predictions, replays: replays, constraints: RecommendationConstraints(maxDelayS: 4))
    let chosen = try #require(r.chosen)
    #expect(chosen.prediction.configuration.latencyS == 1 && chosen.delayS == 3.1 && chosen.delayMeasure.contains("step visibility"))
    #expect(r.binding.first?.detail.contains("6.9") == true)
    // Without steps the replay's worst sample delay is limited.
    let quiet = replays.map { var q = $0; q.steps = VisibilityDelays(delaysS: []); return q }
    let s = Recommendation.recommend(predictions: predictions, replays: quiet, constraints: RecommendationConstraints(maxDelayS: 4))
    #expect(s.chosen?.prediction.configuration.latencyS == 1 && s.chosen?.delayMeasure.contains("sample delay") == true)
    // A limit below the analysis's own hold leaves nothing: no choice, a reason, no headline.
    let none = Recommendation.recommend(predictions: predictions, replays: replays, constraints: RecommendationConstraints(maxDelayS: 2))
    #expect(none.chosen == nil && none.reasons.first?.contains("No swept setting") == true && none.binding.first?.kind == .maxDelay)
    let report = WakeReport(board: .rpi4B, predictions: predictions, chips: [.lsm6ds3], replays: replays, constraints: RecommendationConstraints(maxDelayS: 2))
    #expect(report.headline == nil && report.json().contains("\"headline\": null"))
}

@Test func headlineComparesPerSampleWithTheChoiceAndSaysWhenIdlePowerDominates() throws {
    for (board, dominated) in [(BoardProfile.rpiZero2W, true), (.rpi4B, true), (.phone, false)] {
        let predictions = sweep(board, rates: [25, 100], latencies: [0, 1], chips: [.lsm6ds3])
        let r = Recommendation.recommend(predictions: predictions, constraints: RecommendationConstraints())
        let chosen = try #require(r.chosen?.prediction)
        let h = Headline(board: board, batched: chosen, predictions: predictions, chips: [.lsm6ds3])
        let perSample = try #require(predictions.first { $0.configuration.rateHz == chosen.configuration.rateHz && $0.configuration.latencyS == 0 })
        #expect(h.perSample == perSample)
        #expect(abs(h.batteryGainPercent - (chosen.batteryLifeH / perSample.batteryLifeH - 1) * 100) < 1e-9)
        #expect(abs(h.powerSavedW - (perSample.averagePowerW - chosen.averagePowerW)) < 1e-15)
        #expect(h.idleDominates == dominated, "\(board.name)")
        #expect(h.sentences.joined().contains("dwarfs") == dominated)
    }
    // Without latency 0 in the sweep the per-sample side is predicted with the same settings.
    let predictions = sweep(.phone, rates: [50], latencies: [1, 2], chips: [.lsm6ds3])
    let h = Headline(board: .phone, batched: predictions[1], predictions: predictions, chips: [.lsm6ds3])
    #expect(h.perSample == WakeCostModel.predict(WakeConfiguration(rateHz: 50, latencyS: 0), board: .phone, chips: [.lsm6ds3]))
    #expect(h.batteryGainPercent > 50)
}

@Test func textTableWrapsAndAligns() {
    let long = String(repeating: "word ", count: 60) + String(repeating: "x", count: 120)
    let wrapped = TextTable.wrap(long, indent: "  ").split(separator: "\n")
    #expect(wrapped.count > 3 && wrapped.dropLast().allSatisfy { $0.count <= 100 })
    #expect(wrapped.joined(separator: " ").split(separator: " ").count == 61)
    let t = TextTable.render(header: [["a", "bb"]], rows: [["1", "22"], ["333", "4"]]).split(separator: "\n")
    #expect(t == ["  a  bb", "-------", "  1  22", "333   4"])
}
