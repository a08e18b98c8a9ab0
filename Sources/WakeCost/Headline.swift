/// The report's first answer: per-sample delivery versus the recommended batched setting, at the
/// recommended rate on the chosen board (and, with a recording, what the replay measured).
public struct Headline: Hashable, Sendable {
    /// The board costed.
    public var board: BoardProfile
    /// Per-sample delivery (latency 0) at the batched setting's rate, buffering and sensors.
    public var perSample: WakeCostPrediction
    /// The recommended batched setting.
    public var batched: WakeCostPrediction
    /// The replay of per-sample delivery, when a recording was replayed at latency 0.
    public var perSampleReplay: ConfigurationReplay?
    /// The replay of the batched setting, when a recording was replayed.
    public var batchedReplay: ConfigurationReplay?

    /// The saving in average power below which the board's idle draw is said to dwarf it: 5 % of
    /// the idle power.
    public static let idleDominanceFraction = 0.05

    /// Creates the headline for `batched` (normally the recommendation's choice). The per-sample
    /// side is taken from `predictions` when the sweep has latency 0 at that rate, else predicted
    /// with the same board, buffering, sensors and `chips`.
    public init(board: BoardProfile, batched: WakeCostPrediction, predictions: [WakeCostPrediction],
                replays: [ConfigurationReplay] = [], chips: [FIFOChip]) {
        let c = batched.configuration
        self.board = board
        self.batched = batched
        self.perSample = predictions.first { $0.configuration.rateHz == c.rateHz && $0.configuration.latencyS == 0 }
            ?? WakeCostModel.predict(WakeConfiguration(rateHz: c.rateHz, latencyS: 0, buffering: c.buffering, sensors: c.sensors), board: board, chips: chips)
        self.perSampleReplay = replays.first { $0.rateHz == c.rateHz && $0.latencyS == 0 }
        self.batchedReplay = replays.first { $0.rateHz == c.rateHz && $0.latencyS == c.latencyS }
    }

    /// Battery hours gained by batching.
    public var batteryGainH: Double { batched.batteryLifeH - perSample.batteryLifeH }
    /// Battery life gained by batching, percent of the per-sample life.
    public var batteryGainPercent: Double { (batched.batteryLifeH / perSample.batteryLifeH - 1) * 100 }
    /// Energy above idle saved, percent of the per-sample energy (0 when per-sample costs nothing).
    public var energySavedPercent: Double {
        perSample.energyJPerHour > 0 ? (1 - batched.energyJPerHour / perSample.energyJPerHour) * 100 : 0
    }
    /// Average power saved by batching (W).
    public var powerSavedW: Double { perSample.averagePowerW - batched.averagePowerW }
    /// Whether the board's idle draw dwarfs the saving: saved power below
    /// ``idleDominanceFraction`` of the idle power.
    public var idleDominates: Bool { powerSavedW < Self.idleDominanceFraction * board.idlePowerW }

    /// The headline in sentences (plain text, no markup).
    public var sentences: [String] {
        let a = perSample, b = batched, c = b.configuration
        func n(_ v: Int) -> String { String(v) }
        func f(_ v: Double, _ d: Int) -> String { NumberFormat.fixed(v, d) }
        var out: [String] = []
        out.append("On \(board.name) at \(NumberFormat.json(c.rateHz)) Hz, batching with latency \(NumberFormat.json(c.latencyS)) s instead of per-sample delivery "
                   + "cuts wake-ups per hour from \(n(a.perHour.deviceDeliveries)) to \(n(b.perHour.deviceDeliveries)) (device), "
                   + "\(n(a.perHour.schedulerWakeups)) to \(n(b.perHour.schedulerWakeups)) (scheduler) and "
                   + "\(n(a.perHour.userspaceReturns)) to \(n(b.perHour.userspaceReturns)) (userspace); "
                   + "CPU \(f(a.cpuActiveSPerHour, 3)) to \(f(b.cpuActiveSPerHour, 3)) s/h; "
                   + "energy above idle \(f(a.energyJPerHour, 3)) to \(f(b.energyJPerHour, 3)) J/h (\(f(energySavedPercent, 1)) % less).")
        out.append("Battery life: \(f(a.batteryLifeH, 2)) h to \(f(b.batteryLifeH, 2)) h (+\(f(batteryGainH, 2)) h, +\(f(batteryGainPercent, 2)) %).")
        if idleDominates {
            let ratio = powerSavedW > 0 ? " (\(NumberFormat.compact((board.idlePowerW / powerSavedW).rounded()))x)" : ""
            out.append("The board's idle draw of \(f(board.idlePowerW, 3)) W dwarfs the \(NumberFormat.seconds(powerSavedW)) W that batching saves\(ratio): "
                       + "on this board batching barely moves battery life. On a phone-class SoC that suspends between deliveries it does (try --board phone).")
        } else {
            out.append("The saving (\(NumberFormat.seconds(powerSavedW)) W) is \(f(powerSavedW / board.idlePowerW * 100, 0)) % of the board's idle draw "
                       + "(\(f(board.idlePowerW, 3)) W): on this board batching matters.")
        }
        var delay = "Delay batching adds: worst sample latency \(NumberFormat.seconds(a.worstLatencyS)) s to \(NumberFormat.seconds(b.worstLatencyS)) s (model)"
        if let r = batchedReplay {
            let before = perSampleReplay
            delay += "; replayed: worst sample delay \(before.map { NumberFormat.seconds($0.worstSampleDelayS) + " s to " } ?? "")\(NumberFormat.seconds(r.worstSampleDelayS)) s"
            if let s = r.steps.maxS {
                delay += ", worst step visible after \(before?.steps.maxS.map { NumberFormat.seconds($0) + " s to " } ?? "")\(NumberFormat.seconds(s)) s"
            } else {
                delay += ", no steps in the recording"
            }
            if let act = r.activity?.maxS {
                delay += ", worst activity change announced after \(before?.activity?.maxS.map { NumberFormat.seconds($0) + " s to " } ?? "")\(NumberFormat.seconds(act)) s"
            } else {
                delay += "; activity visibility not measured (no activity change in the recording)"
            }
        }
        out.append(delay + ".")
        return out
    }
}
