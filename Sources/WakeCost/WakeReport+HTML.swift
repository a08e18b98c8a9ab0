import Foundation

/// The HTML report: one self-contained page (inline CSS and SVG, no script, no external file,
/// readable when printed in grey). Headline and recommendation first, then the charts against a
/// log latency axis with per-sample delivery drawn apart — battery life (zero-based axis), energy
/// above idle (log), scheduler wake-ups (log, measured captures overlaid), one overflow band per
/// chip and rate, and with a recording the step/activity visibility trade-off — each point with a
/// tooltip and the recommended point marked; then the tables.
extension WakeReport {
    /// Line colours, one per rate (cycled).
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]
    /// Dash patterns, one per rate (cycled), so that lines stay apart in grey print.
    static let dashes = ["", "7 3", "2 2", "9 3 2 3", "1 3", "12 4", "4 2 1 2"]

    /// The reports' style sheet (also the fleet report's, `collect report --html`).
    public static let stylesheet = """
        body{font-family:sans-serif;margin:24px;color:#222;background:#fff;max-width:1100px}
        table{border-collapse:collapse;font-size:12px;margin:6px 0 14px}td,th{border:1px solid #bbb;padding:3px 6px;text-align:right}
        th{background:#eee}td.l,th.l{text-align:left}.note{color:#444;font-size:13px;max-width:62em}
        nav a{margin-right:12px;font-size:13px}tr.chosen td{font-weight:bold;background:#fff6d5}
        .headline p{font-size:14px;max-width:62em}svg.chart{display:block;margin:10px 0 18px}
        @media print{nav{display:none}body{margin:0}svg.chart,table{break-inside:avoid}tr.chosen td{background:none}}
        """

    /// The page. `title` heads it; `notes` are extra paragraphs (plain text) after the charts;
    /// each of `sections` is a heading and a table (first row the header), appended at the end.
    public func html(title: String, notes: [String] = [], sections: [(String, [[String]])] = []) -> String {
        var toc: [(String, String)] = [("headline", "Headline"), ("recommendation", "Recommendation"), ("chart-battery", "Battery life"),
                                       ("chart-energy", "Energy above idle"), ("chart-wakeups", "Scheduler wake-ups"), ("chart-fifo", "FIFO overflow")]
        if !replays.isEmpty { toc.append(("chart-visibility", "Visibility delay")) }
        toc += [("table", "All settings")]
        if !replays.isEmpty { toc.append(("replay", "Replay")) }
        toc += [("chips", "Chips"), ("model", "Model")]
        var page = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(NumberFormat.xml(title))</title>
        <style>
        \(Self.stylesheet)
        </style></head><body>
        <h1>\(NumberFormat.xml(title))</h1>
        <nav>\(toc.map { "<a href=\"#\($0.0)\">\(NumberFormat.xml($0.1))</a>" }.joined())</nav>
        <p class="note">Board: <b>\(NumberFormat.xml(board.name))</b> — \(NumberFormat.xml(board.description)).
        Idle \(NumberFormat.fixed(board.idlePowerW, 3)) W, active \(NumberFormat.fixed(board.activePowerW, 3)) W,
        battery \(NumberFormat.fixed(board.batteryWh, 2)) Wh usable. Buffering: \(buffering.rawValue); sensors: \(Self.sensorNames(sensors).joined(separator: "+")).</p>

        """
        page += headlineHTML()
        page += "<section id=\"recommendation\"><h2>Recommendation</h2><ul>"
            + recommendation.reasons.map { "<li>\(NumberFormat.xml($0))</li>" }.joined() + "</ul></section>\n"
        page += lineChart(id: "chart-battery", title: "Battery life [h] (axis from zero)", yLabel: "battery life [h]", scale: .linearZero) { $0.batteryLifeH }
        page += lineChart(id: "chart-energy", title: "Energy above idle [J/h], log scale", yLabel: "energy above idle [J/h]", scale: .log) { $0.energyJPerHour }
        page += lineChart(id: "chart-wakeups", title: "Scheduler wake-ups per hour, log scale" + (measured.isEmpty ? "" : " (measured captures: diamonds)"),
                          yLabel: "scheduler wake-ups [/h]", scale: .log) { Double($0.perHour.schedulerWakeups) }
        page += fifoChart()
        if !replays.isEmpty { page += visibilityChart() }
        for n in notes { page += "<p class=\"note\">\(NumberFormat.xml(n))</p>\n" }
        page += settingsTableHTML()
        if !replays.isEmpty { page += replayTableHTML() }
        for (heading, rows) in sections {
            page += "<h2>\(NumberFormat.xml(heading))</h2>\n<table>"
            for (k, row) in rows.enumerated() {
                let cell = k == 0 ? "th" : "td"
                page += "<tr>" + row.map { "<\(cell)>\(NumberFormat.xml($0))</\(cell)>" }.joined() + "</tr>\n"
            }
            page += "</table>\n"
        }
        page += chipsTableHTML()
        page += """
        <section id="model"><h2>Model</h2><p class="note">Three levels of wake-up per hour: device deliveries (interrupts or bursts that
        take the CPU out of idle), scheduler wake-ups of the reading task, returns to userspace. CPU-active time is their sum
        weighted by the board's per-event costs plus the per-sample cost; energy above idle = CPU-active time × (active − idle
        power); battery life = usable battery energy / average power. A FIFO overflows when rate × latency exceeds its capacity
        in scans. Every parameter, its source and which figures are estimates: docs/wake-cost.md in the MotionBatch sources.</p></section>
        </body></html>

        """
        return page
    }

    /// The headline block: the two settings side by side (each number carries its JSON key in
    /// `data-key`) and the sentences.
    func headlineHTML() -> String {
        guard let h = headline else {
            return "<section id=\"headline\" class=\"headline\"><h2>Headline</h2><p>No setting meets the constraints (see the recommendation).</p></section>\n"
        }
        func cell(_ side: String, _ key: String, _ v: Double?, _ decimals: Int) -> String {
            guard let v else { return "<td data-key=\"\(side).\(key)\">n/a</td>" }
            return "<td data-key=\"\(side).\(key)\" data-decimals=\"\(decimals)\">\(NumberFormat.fixed(v, decimals))</td>"
        }
        let rows: [(String, String, (WakeCostPrediction, ConfigurationReplay?) -> Double?, Int)] = [
            ("latency [s]", "latency_s", { p, _ in p.configuration.latencyS }, 3),
            ("device deliveries [/h]", "device_deliveries_per_hour", { p, _ in Double(p.perHour.deviceDeliveries) }, 0),
            ("scheduler wake-ups [/h]", "scheduler_wakeups_per_hour", { p, _ in Double(p.perHour.schedulerWakeups) }, 0),
            ("userspace returns [/h]", "process_wakeups_per_hour", { p, _ in Double(p.perHour.userspaceReturns) }, 0),
            ("CPU [s/h]", "cpu_active_s_per_hour", { p, _ in p.cpuActiveSPerHour }, 3),
            ("energy above idle [J/h]", "energy_j_per_hour", { p, _ in p.energyJPerHour }, 3),
            ("average power [W]", "average_power_w", { p, _ in p.averagePowerW }, 4),
            ("battery life [h]", "battery_life_h", { p, _ in p.batteryLifeH }, 2),
            ("worst sample latency, model [s]", "worst_latency_s", { p, _ in p.worstLatencyS }, 4),
            ("worst sample delay, replay [s]", "worst_sample_delay_s", { _, r in r?.worstSampleDelayS }, 3),
            ("worst step visibility, replay [s]", "step_visibility_s.max", { _, r in r?.steps.maxS }, 3),
            ("worst activity visibility, replay [s]", "activity_visibility_s.max", { _, r in r?.activity?.maxS }, 3),
        ]
        var s = "<section id=\"headline\" class=\"headline\"><h2>Headline: per-sample versus batched at \(NumberFormat.json(h.batched.configuration.rateHz)) Hz</h2>\n"
        s += "<table><tr><th class=\"l\">quantity</th><th>per-sample</th><th>batched (recommended)</th></tr>\n"
        for (label, key, value, decimals) in rows {
            s += "<tr><td class=\"l\">\(NumberFormat.xml(label))</td>" + cell("per_sample", key, value(h.perSample, h.perSampleReplay), decimals)
                + cell("batched", key, value(h.batched, h.batchedReplay), decimals) + "</tr>\n"
        }
        s += "<tr><td class=\"l\">battery gained</td><td colspan=\"2\"><span data-key=\"battery_gain_h\" data-decimals=\"2\">\(NumberFormat.fixed(h.batteryGainH, 2))</span> h, "
            + "<span data-key=\"battery_gain_percent\" data-decimals=\"2\">\(NumberFormat.fixed(h.batteryGainPercent, 2))</span> %; energy above idle "
            + "<span data-key=\"energy_saved_percent\" data-decimals=\"1\">\(NumberFormat.fixed(h.energySavedPercent, 1))</span> % less</td></tr>\n</table>\n"
        for sentence in h.sentences { s += "<p>\(NumberFormat.xml(sentence))</p>\n" }
        return s + "</section>\n"
    }

    /// A chart of `value` against latency, one polyline per rate over the positive latencies and
    /// the per-sample point apart; tooltips; red rings where a chip overflows; the recommended
    /// point; with `chart-wakeups`, the measured captures.
    func lineChart(id: String, title: String, yLabel: String, scale: ValueAxis.Scale, value: (WakeCostPrediction) -> Double) -> String {
        var chart = SVGChart(id: id, title: title)
        let x = chart.latencyAxis(latencies)
        var values = predictions.map(value)
        if id == "chart-wakeups" { values += measured.map(\.schedulerWakeupsPerHour) }
        let y = chart.valueAxis(scale, values: values)
        chart.drawX(x)
        chart.drawY(y, label: yLabel)
        for (k, r) in rates.enumerated() {
            let colour = Self.palette[k % Self.palette.count]
            let series = predictions.filter { $0.configuration.rateHz == r }
            addSeries(&chart, k: k, rate: r, points: series.filter { $0.configuration.latencyS > 0 }.map { (x.x($0.configuration.latencyS), y.y(value($0))) })
            for p in series {
                let px = x.x(p.configuration.latencyS), py = y.y(value(p))
                let tip = "\(NumberFormat.json(r)) Hz, latency \(NumberFormat.json(p.configuration.latencyS)) s: \(NumberFormat.compact(value(p))) \(yLabel)"
                    + (p.fifo.contains { !$0.fits } ? "; FIFO overflows: " + p.fifo.filter { !$0.fits }.map(\.chip).joined(separator: ", ") : "")
                chart.add("<circle class=\"point\" data-rate=\"\(NumberFormat.json(r))\" data-latency=\"\(NumberFormat.json(p.configuration.latencyS))\" data-value=\"\(NumberFormat.json(value(p)))\" "
                          + "cx=\"\(chart.f(px))\" cy=\"\(chart.f(py))\" r=\"3.6\" fill=\"\(colour)\"><title>\(NumberFormat.xml(tip))</title></circle>\n")
                if p.fifo.contains(where: { !$0.fits }) { chart.add(Self.overflowMark(chart, px, py)) }
            }
            addLegend(&chart, k: k, rate: r)
        }
        let legendBottom = chart.plotTop + 8 + Double(rates.count) * 18
        chart.add(Self.overflowMark(chart, chart.plotRight + 30, legendBottom + 6, legend: true)
                  + "<text class=\"overflow-legend\" x=\"\(chart.f(chart.plotRight + 50))\" y=\"\(chart.f(legendBottom + 10))\" font-size=\"11\">FIFO overflows</text>"
                  + "<text class=\"overflow-legend\" x=\"\(chart.f(chart.plotRight + 50))\" y=\"\(chart.f(legendBottom + 23))\" font-size=\"10\">\(NumberFormat.xml(overflowChipsText))</text>\n")
        if id == "chart-wakeups" {
            for m in measured {
                let px = x.x(m.configuration.latencyS), py = y.y(m.schedulerWakeupsPerHour)
                chart.add("<path class=\"measured\" data-latency=\"\(NumberFormat.json(m.configuration.latencyS))\" data-value=\"\(NumberFormat.json(m.schedulerWakeupsPerHour))\" "
                          + "d=\"M\(chart.f(px)),\(chart.f(py - 7)) L\(chart.f(px + 7)),\(chart.f(py)) L\(chart.f(px)),\(chart.f(py + 7)) L\(chart.f(px - 7)),\(chart.f(py)) Z\" fill=\"#000\" fill-opacity=\"0.75\">"
                          + "<title>\(NumberFormat.xml("measured \(m.label): \(NumberFormat.json(m.configuration.rateHz)) Hz, \(NumberFormat.json(m.configuration.latencyS)) s, \(NumberFormat.compact(m.schedulerWakeupsPerHour)) scheduler wake-ups/h"))</title></path>\n")
            }
        }
        if let c = recommendation.chosen?.prediction {
            chart.add(recommendedMark(chart, x.x(c.configuration.latencyS), y.y(value(c)), latency: c.configuration.latencyS, value: value(c)))
        }
        return chart.svg(description: "\(yLabel) against batch latency, one line per sampling rate.")
    }

    /// The mark of a setting at which a FIFO overflows: a black cross, a shape and colour no series
    /// and no recommended ring uses.
    static func overflowMark(_ chart: SVGChart, _ px: Double, _ py: Double, legend: Bool = false) -> String {
        "<path class=\"\(legend ? "lost-legend" : "lost")\" d=\"M\(chart.f(px - 5)),\(chart.f(py - 5)) L\(chart.f(px + 5)),\(chart.f(py + 5)) M\(chart.f(px - 5)),\(chart.f(py + 5)) L\(chart.f(px + 5)),\(chart.f(py - 5))\" "
            + "stroke=\"\(overflowColour)\" stroke-width=\"1.8\" fill=\"none\"/>\n"
    }

    /// The colour of the overflow mark (not in ``palette``).
    static let overflowColour = "#000"

    /// On which chips the overflow mark is judged: the chips' names, or their count when many.
    var overflowChipsText: String {
        let names = chips.map(\.name)
        return names.count <= 3 ? "on " + names.joined(separator: ", ") : "on any of the \(names.count) chips judged"
    }

    /// The polyline of the `k`-th rate through `points` (px), in its colour and dash pattern.
    func addSeries(_ chart: inout SVGChart, k: Int, rate: Double, points: [(Double, Double)]) {
        let dash = Self.dashes[k % Self.dashes.count]
        chart.add("<polyline class=\"series\" data-rate=\"\(NumberFormat.json(rate))\" points=\"\(points.map { "\(chart.f($0.0)),\(chart.f($0.1))" }.joined(separator: " "))\" "
                  + "fill=\"none\" stroke=\"\(Self.palette[k % Self.palette.count])\" stroke-width=\"2.2\"" + (dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"") + "/>\n")
    }

    /// The legend entry of the `k`-th rate, right of the plot.
    func addLegend(_ chart: inout SVGChart, k: Int, rate: Double) {
        let dash = Self.dashes[k % Self.dashes.count], ly = chart.plotTop + 8 + Double(k) * 18
        chart.add("<line x1=\"\(chart.f(chart.plotRight + 16))\" y1=\"\(chart.f(ly))\" x2=\"\(chart.f(chart.plotRight + 44))\" y2=\"\(chart.f(ly))\" stroke=\"\(Self.palette[k % Self.palette.count])\" stroke-width=\"3\""
                  + (dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"") + "/><text x=\"\(chart.f(chart.plotRight + 50))\" y=\"\(chart.f(ly + 4))\" font-size=\"12\">\(NumberFormat.json(rate)) Hz</text>\n")
    }

    /// The recommended point: a ring and a label, `data-latency` / `data-value` as plotted.
    func recommendedMark(_ chart: SVGChart, _ px: Double, _ py: Double, latency: Double, value: Double) -> String {
        "<circle class=\"recommended\" data-latency=\"\(NumberFormat.json(latency))\" data-value=\"\(NumberFormat.json(value))\" cx=\"\(chart.f(px))\" cy=\"\(chart.f(py))\" r=\"10\" "
            + "fill=\"none\" stroke=\"#000\" stroke-width=\"2.4\"><title>recommended</title></circle>"
            + "<text x=\"\(chart.f(px + 12))\" y=\"\(chart.f(py - 12))\" font-size=\"12\" font-weight=\"bold\" stroke=\"#fff\" stroke-width=\"4\" paint-order=\"stroke\">recommended</text>\n"
    }

    /// One row per chip; in it, per rate, the band of latencies at which the FIFO overflows
    /// (from capacity / rate) and, lighter, the margin before it.
    func fifoChart() -> String {
        let rowHeight = 6.0 * Double(max(1, rates.count)) + 8
        var chart = SVGChart(id: "chart-fifo", title: "FIFO overflow: a band per chip and rate (pale: inside the margin)",
                             plotHeight: max(60, rowHeight * Double(chips.count)))
        let x = chart.latencyAxis(latencies)
        chart.drawX(x)
        let margin = recommendation.constraints.fifoMargin
        guard buffering == .hardware else {
            chart.add("<text x=\"\(chart.f(chart.plotLeft + 10))\" y=\"\(chart.f(chart.plotTop + 30))\" font-size=\"13\">\(buffering.rawValue) buffering does not use the chips' FIFOs.</text>\n")
            return chart.svg(description: "No FIFO is used with \(buffering.rawValue) buffering.")
        }
        for (i, chip) in chips.enumerated() {
            let top = chart.plotTop + Double(i) * rowHeight
            chart.add("<text x=\"\(chart.f(chart.plotLeft - 6))\" y=\"\(chart.f(top + rowHeight / 2 + 4))\" font-size=\"11\" text-anchor=\"end\">\(NumberFormat.xml(chip.name))</text>\n")
            chart.add("<line x1=\"\(chart.f(chart.plotLeft))\" y1=\"\(chart.f(top + rowHeight))\" x2=\"\(chart.f(chart.plotRight))\" y2=\"\(chart.f(top + rowHeight))\" stroke=\"#eee\"/>\n")
            for (k, r) in rates.enumerated() {
                let full = Double(chip.capacity(sensors)) / r
                let y0 = top + 4 + Double(k) * 6
                let colour = Self.palette[k % Self.palette.count]
                let tip = "\(chip.name) at \(NumberFormat.json(r)) Hz: \(chip.capacity(sensors)) scans, full after \(NumberFormat.seconds(full)) s"
                if full * (1 - margin) < x.hi {
                    let a = x.x(max(full * (1 - margin), x.lo)), b = x.x(min(max(full, x.lo), x.hi))
                    if b > a { chart.add("<rect class=\"margin-band\" data-chip=\"\(NumberFormat.xml(chip.name))\" data-rate=\"\(NumberFormat.json(r))\" x=\"\(chart.f(a))\" y=\"\(chart.f(y0))\" width=\"\(chart.f(b - a))\" height=\"5\" fill=\"\(colour)\" fill-opacity=\"0.25\"/>\n") }
                }
                if full < x.hi {
                    let a = x.x(max(full, x.lo))
                    chart.add("<rect class=\"overflow-band\" data-chip=\"\(NumberFormat.xml(chip.name))\" data-rate=\"\(NumberFormat.json(r))\" data-full-after=\"\(NumberFormat.json(full))\" data-clamped=\"\(full < x.lo)\" "
                              + "x=\"\(chart.f(a))\" y=\"\(chart.f(y0))\" width=\"\(chart.f(x.right - a))\" height=\"5\" fill=\"\(colour)\" fill-opacity=\"0.85\"><title>\(NumberFormat.xml(tip)); overflows beyond</title></rect>\n")
                }
            }
        }
        for (k, r) in rates.enumerated() {
            let ly = chart.plotTop + 8 + Double(k) * 18
            chart.add("<rect x=\"\(chart.f(chart.plotRight + 16))\" y=\"\(chart.f(ly - 3))\" width=\"28\" height=\"6\" fill=\"\(Self.palette[k % Self.palette.count])\" fill-opacity=\"0.85\"/>"
                      + "<text x=\"\(chart.f(chart.plotRight + 50))\" y=\"\(chart.f(ly + 4))\" font-size=\"12\">\(NumberFormat.json(r)) Hz</text>\n")
        }
        if let c = recommendation.chosen?.prediction, c.configuration.latencyS > 0 {
            let px = x.x(c.configuration.latencyS)
            chart.add("<line class=\"recommended-latency\" data-latency=\"\(NumberFormat.json(c.configuration.latencyS))\" x1=\"\(chart.f(px))\" y1=\"\(chart.f(chart.plotTop))\" x2=\"\(chart.f(px))\" y2=\"\(chart.f(chart.plotBottom))\" stroke=\"#000\" stroke-width=\"1.6\" stroke-dasharray=\"5 3\"/>"
                      + "<text x=\"\(chart.f(px + 4))\" y=\"\(chart.f(chart.plotTop - 4))\" font-size=\"11\">recommended</text>\n")
        }
        return chart.svg(description: "For each chip and rate, the latencies beyond capacity / rate, where the FIFO overflows.")
    }

    /// With a recording: the delay the recommendation limits (``ConfigurationReplay/limitingDelay``:
    /// the worst visibility of a step or an activity change, or without either of a sample)
    /// against latency, per rate; `--max-delay` as a dashed line; the recommended point.
    func visibilityChart() -> String {
        let hasSteps = replays.contains { $0.steps.maxS != nil }
        let hasActivity = replays.contains { $0.activity?.maxS != nil }
        func value(_ r: ConfigurationReplay) -> Double { r.limitingDelay.seconds }
        let what = hasActivity ? "worst visibility (step or activity change)"
            : hasSteps ? "worst step visibility" : "worst sample delay (no steps in the recording)"
        var chart = SVGChart(id: "chart-visibility", title: "Delay trade-off: \(what) [s] (axis from zero)")
        let x = chart.latencyAxis(latencies)
        let limit = recommendation.constraints.maxDelayS
        let y = chart.valueAxis(.linearZero, values: replays.map(value) + (limit.map { [$0] } ?? []))
        chart.drawX(x)
        chart.drawY(y, label: "\(what) [s]")
        for (k, r) in rates.enumerated() {
            let colour = Self.palette[k % Self.palette.count]
            let series = replays.filter { $0.rateHz == r }
            addSeries(&chart, k: k, rate: r, points: series.filter { $0.latencyS > 0 }.map { (x.x($0.latencyS), y.y(value($0))) })
            for p in series {
                let tip = "\(NumberFormat.json(r)) Hz (replayed at \(NumberFormat.fixed(p.replayedRateHz, 1)) Hz), latency \(NumberFormat.json(p.latencyS)) s: \(what) \(NumberFormat.seconds(value(p))) s"
                    + (p.steps.meanS.map { ", mean step visibility \(NumberFormat.seconds($0)) s" } ?? "")
                chart.add("<circle class=\"point\" data-rate=\"\(NumberFormat.json(r))\" data-latency=\"\(NumberFormat.json(p.latencyS))\" data-value=\"\(NumberFormat.json(value(p)))\" "
                          + "cx=\"\(chart.f(x.x(p.latencyS)))\" cy=\"\(chart.f(y.y(value(p))))\" r=\"3.6\" fill=\"\(colour)\"><title>\(NumberFormat.xml(tip))</title></circle>\n")
            }
            // A legend entry only for a rate with a line (a rate without a replay has none).
            if !series.isEmpty { addLegend(&chart, k: k, rate: r) }
        }
        if let limit {
            let py = y.y(limit)
            chart.add("<line class=\"max-delay\" data-value=\"\(NumberFormat.json(limit))\" x1=\"\(chart.f(chart.plotLeft))\" y1=\"\(chart.f(py))\" x2=\"\(chart.f(chart.plotRight))\" y2=\"\(chart.f(py))\" stroke=\"#000\" stroke-dasharray=\"6 4\"/>"
                      + "<text x=\"\(chart.f(chart.plotRight - 4))\" y=\"\(chart.f(py - 5))\" font-size=\"11\" text-anchor=\"end\">--max-delay \(NumberFormat.json(limit)) s</text>\n")
        }
        let activityNote = replays.contains { $0.activity != nil } ? "" : "Activity visibility: not measured (no activity change in the recording)."
        if !activityNote.isEmpty {
            chart.add("<text x=\"\(chart.f(chart.plotLeft + 8))\" y=\"\(chart.f(chart.plotTop + 14))\" font-size=\"11\" fill=\"#555\">\(activityNote)</text>\n")
        }
        if let c = recommendation.chosen, let r = c.replay {
            chart.add(recommendedMark(chart, x.x(r.latencyS), y.y(value(r)), latency: r.latencyS, value: value(r)))
        }
        return chart.svg(description: "\(what) against batch latency per rate, from the replay of the recording. \(activityNote)")
    }

    /// The table of every configuration (the recommended row highlighted).
    func settingsTableHTML() -> String {
        let headers = ["rate [Hz]", "latency [s]", "deliveries [/h]", "sched wake-ups [/h]", "returns [/h]", "CPU [s/h]", "energy [J/h]",
                       "power [W]", "battery [%/h]", "life [h]", "worst latency [s]", "FIFO"]
        var s = "<section id=\"table\"><h2>All settings</h2><table><tr>" + headers.map { "<th>\(NumberFormat.xml($0))</th>" }.joined() + "</tr>\n"
        for p in predictions {
            let over = p.fifo.filter { !$0.fits }
            let fifo = over.isEmpty ? fifoCell(p) : "overflow: " + over.map { "\($0.chip) full after \(NumberFormat.seconds($0.fullAfterS)) s" }.joined(separator: "; ")
            let cells = [NumberFormat.json(p.configuration.rateHz), NumberFormat.json(p.configuration.latencyS),
                         String(p.perHour.deviceDeliveries), String(p.perHour.schedulerWakeups), String(p.perHour.userspaceReturns),
                         NumberFormat.fixed(p.cpuActiveSPerHour, 3), NumberFormat.fixed(p.energyJPerHour, 3), NumberFormat.fixed(p.averagePowerW, 4),
                         NumberFormat.fixed(p.batteryPercentPerHour, 3), NumberFormat.fixed(p.batteryLifeH, 2), NumberFormat.seconds(p.worstLatencyS)]
            s += "<tr\(isRecommended(p) ? " class=\"chosen\"" : "")>" + cells.map { "<td>\($0)</td>" }.joined() + "<td class=\"l\">\(NumberFormat.xml(fifo))</td></tr>\n"
        }
        return s + "</table></section>\n"
    }

    /// The replay table: delays and visibility per configuration.
    func replayTableHTML() -> String {
        var s = "<section id=\"replay\"><h2>Replay of the recording</h2><table><tr><th>rate [Hz]</th><th>replayed at [Hz]</th><th>latency [s]</th>"
            + "<th>worst sample delay [s]</th><th>mean sample delay [s]</th><th>steps</th><th>mean step visibility [s]</th>"
            + "<th>worst step visibility [s]</th><th>worst activity visibility [s]</th></tr>\n"
        for r in replays {
            let cells = [NumberFormat.json(r.rateHz), NumberFormat.fixed(r.replayedRateHz, 1), NumberFormat.json(r.latencyS),
                         NumberFormat.seconds(r.worstSampleDelayS), NumberFormat.seconds(r.meanSampleDelayS), String(r.steps.count),
                         r.steps.meanS.map(NumberFormat.seconds) ?? "-", r.steps.maxS.map(NumberFormat.seconds) ?? "-",
                         r.activity?.maxS.map(NumberFormat.seconds) ?? "n/a"]
            s += "<tr>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>\n"
        }
        return s + "</table><p class=\"note\">Visibility = delivery time of the batch that produced the event − the event's time, "
            + "including the analysis's own confirmation hold (n/a: no activity change in the recording at that setting).</p></section>\n"
    }

    /// The chips judged: sizes, frames, capacity, Linux driver and source.
    func chipsTableHTML() -> String {
        var s = "<section id=\"chips\"><h2>Chips</h2><table><tr><th class=\"l\">chip</th><th>FIFO [B]</th><th>frame accel [B]</th><th>frame accel+gyro [B]</th>"
            + "<th>capacity [scans]</th><th class=\"l\">frame</th><th class=\"l\">Linux driver</th><th class=\"l\">source</th></tr>\n"
        for c in chips {
            s += "<tr><td class=\"l\">\(NumberFormat.xml(c.name))\(c.isAssumed ? " (assumed)" : "")</td><td>\(c.fifoBytes)</td><td>\(c.accelFrameBytes)</td>"
                + "<td>\(c.accelGyroFrameBytes.map(String.init) ?? "-")</td><td>\(c.capacity(sensors))</td><td class=\"l\">\(NumberFormat.xml(c.frameLayout))</td>"
                + "<td class=\"l\">\(NumberFormat.xml(c.linuxDriver))</td><td class=\"l\">\(NumberFormat.xml(c.source))</td></tr>\n"
        }
        return s + "</table></section>\n"
    }
}
