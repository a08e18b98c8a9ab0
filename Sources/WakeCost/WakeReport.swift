import MotionCore

/// The battery/wake-up comparison report: a sweep of predictions for one board, the replays of a
/// recording when one was given, the recommendation and the headline. Renders as a terminal
/// report (``text()``), JSON (``json(extra:)``), CSV (``csv()``) and a self-contained HTML page
/// (``html(title:notes:sections:)``). Pure string building: the caller writes the result.
public struct WakeReport: Sendable {
    /// The board costed.
    public var board: BoardProfile
    /// One prediction per configuration, rates outer, latencies inner.
    public var predictions: [WakeCostPrediction]
    /// The chips whose FIFOs are judged.
    public var chips: [FIFOChip]
    /// Replays of the recording at the swept configurations (empty without a recording).
    public var replays: [ConfigurationReplay]
    /// Real captures to draw beside the model.
    public var measured: [MeasuredPoint]
    /// The recommended setting and why.
    public var recommendation: Recommendation
    /// Per-sample versus the recommended setting; nil when nothing is recommended.
    public var headline: Headline?

    /// Creates a report, judging every prediction against `constraints`.
    public init(board: BoardProfile, predictions: [WakeCostPrediction], chips: [FIFOChip] = FIFOChip.builtIn,
                replays: [ConfigurationReplay] = [], measured: [MeasuredPoint] = [],
                constraints: RecommendationConstraints = RecommendationConstraints()) {
        self.board = board
        self.predictions = predictions
        self.chips = chips
        self.replays = replays
        self.measured = measured
        recommendation = Recommendation.recommend(predictions: predictions, replays: replays, constraints: constraints)
        headline = recommendation.chosen.map { Headline(board: board, batched: $0.prediction, predictions: predictions, replays: replays, chips: chips) }
    }

    /// The JSON `schema` version of ``json(extra:)`` (2: headline, recommendation, chips and
    /// visibility added; 1 was the unversioned object before).
    public static let schemaVersion = 2

    /// The enabled sensors of the sweep.
    public var sensors: SensorSet { predictions.first?.configuration.sensors ?? .accel }
    /// The buffering of the sweep.
    public var buffering: Buffering { predictions.first?.configuration.buffering ?? .hardware }
    /// The swept rates, in order.
    public var rates: [Double] { Self.uniqueInOrder(predictions.map(\.configuration.rateHz)) }
    /// The swept latencies, in order.
    public var latencies: [Double] { Self.uniqueInOrder(predictions.map(\.configuration.latencyS)) }

    /// `xs` without repeats, ascending.
    public static func uniqueSorted(_ xs: [Double]) -> [Double] { Array(Set(xs)).sorted() }

    static func uniqueInOrder(_ xs: [Double]) -> [Double] {
        var seen = Set<Double>()
        return xs.filter { seen.insert($0).inserted }
    }

    /// The per-sample prediction at `p`'s rate, when the sweep has one.
    func perSample(at rate: Double) -> WakeCostPrediction? {
        predictions.first { $0.configuration.rateHz == rate && $0.configuration.latencyS == 0 }
    }

    /// Whether `p` is the recommended setting.
    func isRecommended(_ p: WakeCostPrediction) -> Bool {
        recommendation.chosen?.prediction.configuration == p.configuration
    }

    /// The FIFO cell of the compact table: `ok`, `N tight` (fits but leaves less than the margin
    /// free) or `N over` (overflows).
    func fifoCell(_ p: WakeCostPrediction) -> String {
        let over = p.fifo.filter { !$0.fits }.count
        if over > 0 { return "\(over) over" }
        let tight = p.fifo.filter { !$0.fits(margin: recommendation.constraints.fifoMargin) }.count
        return tight > 0 ? "\(tight) tight" : "ok"
    }

    /// The compact table (at most 100 columns): one row per configuration, the recommended row
    /// marked `*`; wake-ups per hour at the three levels, CPU, energy above idle, battery life,
    /// its gain over per-sample delivery at the same rate, the model's worst delay, the FIFO.
    public func table() -> String {
        var rows: [[String]] = []
        for p in predictions {
            let gain = perSample(at: p.configuration.rateHz).map { NumberFormat.fixed((p.batteryLifeH / $0.batteryLifeH - 1) * 100, 2) } ?? "-"
            rows.append([
                isRecommended(p) ? "*" : "",
                NumberFormat.json(p.configuration.rateHz), NumberFormat.json(p.configuration.latencyS),
                NumberFormat.compact(Double(p.perHour.deviceDeliveries)), NumberFormat.compact(Double(p.perHour.schedulerWakeups)),
                NumberFormat.compact(Double(p.perHour.userspaceReturns)), NumberFormat.fixed(p.cpuActiveSPerHour, 3),
                NumberFormat.fixed(p.energyJPerHour, 3), NumberFormat.fixed(p.batteryLifeH, 2), gain,
                NumberFormat.seconds(p.worstLatencyS), fifoCell(p),
            ])
        }
        let header = [["", "rate", "latency", "device", "sched", "user", "CPU", "energy", "life", "gain", "delay", "FIFO"],
                      ["", "[Hz]", "[s]", "[/h]", "[/h]", "[/h]", "[s/h]", "[J/h]", "[h]", "[%]", "[s]", ""]]
        return TextTable.render(header: header, rows: rows, leftAligned: [0, 11])
    }

    /// The terminal report: a line on the board and sweep, the compact table and its legend, the
    /// headline and the recommendation, each wrapped to 100 columns.
    public func text() -> String {
        var out = TextTable.wrap("Board \(board.name): idle \(NumberFormat.fixed(board.idlePowerW, 3)) W, active \(NumberFormat.fixed(board.activePowerW, 3)) W, "
                                 + "battery \(NumberFormat.fixed(board.batteryWh, 2)) Wh usable; \(buffering.rawValue) buffering; sensors \(Self.sensorNames(sensors).joined(separator: "+")); "
                                 + "\(chips.count) chip\(chips.count == 1 ? "" : "s") judged.")
        out += table()
        out += TextTable.wrap("Wake-ups per hour: device deliveries, scheduler wake-ups, userspace returns. gain: battery life over per-sample "
                              + "delivery at the same rate. delay: the model's worst sample latency. FIFO: ok, N tight (fits with less than "
                              + "\(NumberFormat.fixed(recommendation.constraints.fifoMargin * 100, 0)) % free) or N over (overflows); per chip in --json/--csv. * recommended.")
        if !replays.isEmpty {
            out += "\nReplay of the recording (visibility = delivery time - event time, including the analysis's own hold)\n"
            out += replayTable()
        }
        out += "\nHeadline\n"
        if let h = headline {
            for s in h.sentences { out += TextTable.wrap(s, indent: "  ") }
        } else {
            out += "  No setting meets the constraints, so there is no batched setting to compare.\n"
        }
        out += "\nRecommendation\n"
        for s in recommendation.reasons { out += TextTable.wrap(s, indent: "  ") }
        return out
    }

    /// The replay as a compact table: per configuration the rate replayed, sample delays, steps,
    /// step visibility (mean, worst) and the worst activity visibility (n/a without a classifier).
    public func replayTable() -> String {
        let header = [["rate", "replayed", "latency", "sample delay", "", "steps", "step visible", "", "activity"],
                      ["[Hz]", "at [Hz]", "[s]", "worst [s]", "mean [s]", "", "mean [s]", "worst [s]", "worst [s]"]]
        let rows = replays.map { r in
            [NumberFormat.json(r.rateHz), NumberFormat.fixed(r.replayedRateHz, 1), NumberFormat.json(r.latencyS),
             NumberFormat.seconds(r.worstSampleDelayS), NumberFormat.seconds(r.meanSampleDelayS), String(r.steps.count),
             r.steps.meanS.map(NumberFormat.seconds) ?? "-", r.steps.maxS.map(NumberFormat.seconds) ?? "-",
             r.activity?.maxS.map(NumberFormat.seconds) ?? "n/a"]
        }
        return TextTable.render(header: header, rows: rows)
    }

    /// `["accel"]` or `["accel", "gyro"]`.
    static func sensorNames(_ s: SensorSet) -> [String] {
        (s.contains(.accel) ? ["accel"] : []) + (s.contains(.gyro) ? ["gyro"] : [])
    }

    /// CSV with a header; one row per configuration; per chip a `fits` and a `lost` column.
    public func csv() -> String {
        let chipNames = predictions.first?.fifo.map(\.chip) ?? []
        var header = ["rate_hz", "latency_s", "batch_samples", "buffering", "device_deliveries_per_hour", "scheduler_wakeups_per_hour",
                      "process_wakeups_per_hour", "cpu_active_s_per_hour", "energy_j_per_hour", "average_power_w",
                      "battery_percent_per_hour", "battery_life_h", "worst_latency_s", "recommended"]
        for c in chipNames { header += ["\(c)_fits", "\(c)_lost_samples_per_hour"] }
        var out = header.joined(separator: ",") + "\n"
        for p in predictions {
            let c = p.configuration
            var row = [NumberFormat.json(c.rateHz), NumberFormat.json(c.latencyS), String(c.batchSamples),
                       c.isPerSample ? "per-sample" : c.buffering.rawValue,
                       String(p.perHour.deviceDeliveries), String(p.perHour.schedulerWakeups), String(p.perHour.userspaceReturns),
                       NumberFormat.json(p.cpuActiveSPerHour), NumberFormat.json(p.energyJPerHour), NumberFormat.json(p.averagePowerW),
                       NumberFormat.json(p.batteryPercentPerHour), NumberFormat.json(p.batteryLifeH), NumberFormat.json(p.worstLatencyS),
                       String(isRecommended(p))]
            for f in p.fifo { row += [String(f.fits), NumberFormat.json(f.lostSamplesPerHour)] }
            out += row.joined(separator: ",") + "\n"
        }
        return out
    }
}
