import MotionCore

/// Renders a sweep of predictions as an aligned terminal table, JSON, CSV or a self-contained
/// HTML page with an SVG chart. Pure string building: the caller writes the result.
public struct WakeReport: Sendable {
    /// The board costed.
    public var board: BoardProfile
    /// One prediction per configuration, rates outer, latencies inner.
    public var predictions: [WakeCostPrediction]

    /// Creates a report.
    public init(board: BoardProfile, predictions: [WakeCostPrediction]) {
        self.board = board
        self.predictions = predictions
    }

    /// Column headers of the table, units in brackets.
    static let tableHeaders = [
        "rate [Hz]", "latency [s]", "deliveries [/h]", "sched wakeups [/h]", "returns [/h]",
        "CPU [s/h]", "energy [J/h]", "power [W]", "battery [%/h]", "life [h]", "worst latency [s]", "FIFO",
    ]

    /// The FIFO cell: `all fit`, else each overflowing chip with the time to fill and the samples lost per hour.
    static func fifoCell(_ p: WakeCostPrediction) -> String {
        let over = p.fifo.filter { !$0.fits }
        if over.isEmpty { return "all fit" }
        return "overflow: " + over.map { "\($0.chip) full after \(NumberFormat.seconds($0.overflowAfterS ?? 0))s, loses \(NumberFormat.compact($0.lostSamplesPerHour))/h" }.joined(separator: "; ")
    }

    /// An aligned table: numbers right-aligned, units in the headers, one row per configuration.
    public func table() -> String {
        var rows: [[String]] = [Self.tableHeaders]
        for p in predictions {
            rows.append([
                NumberFormat.json(p.configuration.rateHz), NumberFormat.json(p.configuration.latencyS),
                String(p.perHour.deviceDeliveries), String(p.perHour.schedulerWakeups), String(p.perHour.userspaceReturns),
                NumberFormat.fixed(p.cpuActiveSPerHour, 3), NumberFormat.fixed(p.energyJPerHour, 3),
                NumberFormat.fixed(p.averagePowerW, 4), NumberFormat.fixed(p.batteryPercentPerHour, 3),
                NumberFormat.fixed(p.batteryLifeH, 2), NumberFormat.seconds(p.worstLatencyS), Self.fifoCell(p),
            ])
        }
        let columns = Self.tableHeaders.count
        var widths = [Int](repeating: 0, count: columns)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        var out = ""
        for (k, r) in rows.enumerated() {
            var line = ""
            for (i, c) in r.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - c.count)
                if i == columns - 1 { line += c } else { line += (k == 0 ? c + pad : pad + c) + "  " }
            }
            out += line + "\n"
            if k == 0 { out += String(repeating: "-", count: line.count) + "\n" }
        }
        return out
    }

    /// The board's parameters as a JSON object.
    func boardJSON() -> String {
        var fields = ["\"name\": \(NumberFormat.string(board.name))", "\"description\": \(NumberFormat.string(board.description))"]
        for (k, v) in board.parameters { fields.append("\"\(k)\": \(NumberFormat.json(v))") }
        fields.append("\"wakeup_energy_j\": \(NumberFormat.json(board.wakeupEnergyJ))")
        fields.append("\"battery_wh\": \(NumberFormat.json(board.batteryWh))")
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// One configuration as a JSON object (keys documented in docs/wake-cost.md).
    static func configurationJSON(_ p: WakeCostPrediction) -> String {
        let c = p.configuration
        let fifo = p.fifo.map { f in
            "{\"chip\": \(NumberFormat.string(f.chip)), \"capacity_samples\": \(f.capacitySamples), \"bytes_per_sample\": \(f.bytesPerSample), \"fits\": \(f.fits), \"overflow_after_s\": \(f.overflowAfterS.map(NumberFormat.json) ?? "null"), \"lost_samples_per_hour\": \(NumberFormat.json(f.lostSamplesPerHour)), \"assumed\": \(f.isAssumed)}"
        }
        let fields: [String] = [
            "\"rate_hz\": \(NumberFormat.json(c.rateHz))",
            "\"latency_s\": \(NumberFormat.json(c.latencyS))",
            "\"batch_samples\": \(c.batchSamples)",
            "\"buffering\": \(NumberFormat.string(c.isPerSample ? "per-sample" : c.buffering.rawValue))",
            "\"samples_per_hour\": \(p.perHour.samples)",
            "\"device_deliveries_per_hour\": \(p.perHour.deviceDeliveries)",
            "\"scheduler_wakeups_per_hour\": \(p.perHour.schedulerWakeups)",
            "\"process_wakeups_per_hour\": \(p.perHour.userspaceReturns)",
            "\"cpu_active_s_per_hour\": \(NumberFormat.json(p.cpuActiveSPerHour))",
            "\"energy_j_per_hour\": \(NumberFormat.json(p.energyJPerHour))",
            "\"average_power_w\": \(NumberFormat.json(p.averagePowerW))",
            "\"battery_percent_per_hour\": \(NumberFormat.json(p.batteryPercentPerHour))",
            "\"battery_life_h\": \(NumberFormat.json(p.batteryLifeH))",
            "\"worst_latency_s\": \(NumberFormat.json(p.worstLatencyS))",
            "\"fifo\": [" + fifo.joined(separator: ", ") + "]",
        ]
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// `{"board": {...}, "sensors": [...], "configurations": [...]}` plus any `extra` top-level
    /// members (already-encoded JSON values keyed by name), one configuration per line.
    public func json(sensors: SensorSet, extra: [(String, String)] = []) -> String {
        var names: [String] = []
        if sensors.contains(.accel) { names.append("\"accel\"") }
        if sensors.contains(.gyro) { names.append("\"gyro\"") }
        var out = "{\n  \"board\": \(boardJSON()),\n  \"sensors\": [\(names.joined(separator: ", "))],\n  \"configurations\": [\n"
        out += predictions.map { "    " + Self.configurationJSON($0) }.joined(separator: ",\n")
        out += "\n  ]"
        for (k, v) in extra { out += ",\n  \(NumberFormat.string(k)): \(v)" }
        return out + "\n}\n"
    }

    /// CSV with a header; one row per configuration; per chip a `fits` and a `lost` column.
    public func csv() -> String {
        let chips = predictions.first?.fifo.map(\.chip) ?? []
        var header = ["rate_hz", "latency_s", "batch_samples", "buffering", "device_deliveries_per_hour", "scheduler_wakeups_per_hour",
                      "process_wakeups_per_hour", "cpu_active_s_per_hour", "energy_j_per_hour", "average_power_w",
                      "battery_percent_per_hour", "battery_life_h", "worst_latency_s"]
        for c in chips { header += ["\(c)_fits", "\(c)_lost_samples_per_hour"] }
        var out = header.joined(separator: ",") + "\n"
        for p in predictions {
            let c = p.configuration
            var row = [NumberFormat.json(c.rateHz), NumberFormat.json(c.latencyS), String(c.batchSamples),
                       c.isPerSample ? "per-sample" : c.buffering.rawValue,
                       String(p.perHour.deviceDeliveries), String(p.perHour.schedulerWakeups), String(p.perHour.userspaceReturns),
                       NumberFormat.json(p.cpuActiveSPerHour), NumberFormat.json(p.energyJPerHour), NumberFormat.json(p.averagePowerW),
                       NumberFormat.json(p.batteryPercentPerHour), NumberFormat.json(p.batteryLifeH), NumberFormat.json(p.worstLatencyS)]
            for f in p.fifo { row += [String(f.fits), NumberFormat.json(f.lostSamplesPerHour)] }
            out += row.joined(separator: ",") + "\n"
        }
        return out
    }
}
