import Foundation

/// The HTML report: a self-contained page (inline CSS and SVG, no scripts or external files)
/// with two charts against latency — battery life and device deliveries per hour — one line
/// per rate, the region where the first chip's FIFO overflows shaded, and the table.
extension WakeReport {
    /// Line colours, one per rate (cycled).
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]

    /// The page. `title` heads it; `notes` are extra paragraphs (plain text); each of `sections`
    /// is a heading and a table (first row the header), appended after the main table.
    public func html(title: String, notes: [String] = [], sections: [(String, [[String]])] = []) -> String {
        let rates = uniqueInOrder(predictions.map(\.configuration.rateHz))
        let latencies = uniqueInOrder(predictions.map(\.configuration.latencyS))
        var page = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(NumberFormat.xml(title))</title>
        <style>
        body{font-family:sans-serif;margin:24px;color:#222;background:#fff}
        table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}
        th{background:#f0f0f0}td.l{text-align:left}.note{color:#555;font-size:13px;max-width:60em}
        </style></head><body>
        <h1>\(NumberFormat.xml(title))</h1>
        <p class="note">Board: <b>\(NumberFormat.xml(board.name))</b> — \(NumberFormat.xml(board.description)).
        Idle \(NumberFormat.fixed(board.idlePowerW, 3)) W, active \(NumberFormat.fixed(board.activePowerW, 3)) W,
        battery \(NumberFormat.fixed(board.batteryWh, 1)) Wh usable.</p>

        """
        page += chart(id: "battery", title: "Battery life [h] (axis does not start at zero)", rates: rates, latencies: latencies, logScale: false) { $0.batteryLifeH }
        page += chart(id: "wakeups", title: "Device deliveries (wake-ups from idle) per hour, log scale", rates: rates, latencies: latencies, logScale: true) { Double(max(1, $0.perHour.deviceDeliveries)) }
        for n in notes { page += "<p class=\"note\">\(NumberFormat.xml(n))</p>\n" }
        page += "<table><tr>" + Self.tableHeaders.map { "<th>\(NumberFormat.xml($0))</th>" }.joined() + "</tr>\n"
        for p in predictions {
            let cells = [NumberFormat.json(p.configuration.rateHz), NumberFormat.json(p.configuration.latencyS),
                         String(p.perHour.deviceDeliveries), String(p.perHour.schedulerWakeups), String(p.perHour.userspaceReturns),
                         NumberFormat.fixed(p.cpuActiveSPerHour, 3), NumberFormat.fixed(p.energyJPerHour, 3), NumberFormat.fixed(p.averagePowerW, 4),
                         NumberFormat.fixed(p.batteryPercentPerHour, 3), NumberFormat.fixed(p.batteryLifeH, 2), NumberFormat.seconds(p.worstLatencyS)]
            page += "<tr>" + cells.map { "<td>\($0)</td>" }.joined() + "<td class=\"l\">\(NumberFormat.xml(Self.fifoCell(p)))</td></tr>\n"
        }
        page += "</table>\n"
        for (heading, rows) in sections {
            page += "<h2>\(NumberFormat.xml(heading))</h2>\n<table>"
            for (k, row) in rows.enumerated() {
                let cell = k == 0 ? "th" : "td"
                page += "<tr>" + row.map { "<\(cell)>\(NumberFormat.xml($0))</\(cell)>" }.joined() + "</tr>\n"
            }
            page += "</table>\n"
        }
        return page + "</body></html>\n"
    }

    private func uniqueInOrder(_ xs: [Double]) -> [Double] {
        var seen = Set<Double>()
        return xs.filter { seen.insert($0).inserted }
    }

    /// One SVG chart: x = latency (evenly spaced categories), y = `value`, a polyline per rate,
    /// overflowing points ringed, and the overflow region of the first chip shaded.
    func chart(id: String, title: String, rates: [Double], latencies: [Double], logScale: Bool, value: (WakeCostPrediction) -> Double) -> String {
        let w = 760.0, h = 340.0, left = 80.0, right = 150.0, top = 36.0, bottom = 48.0
        let plotW = w - left - right, plotH = h - top - bottom
        let values = predictions.map(value)
        var lo = values.min() ?? 0, hi = values.max() ?? 1
        if logScale { lo = log10(max(lo, 1)); hi = log10(max(hi, 1)) }
        if hi - lo < 1e-12 { lo -= 1; hi += 1 }
        let pad = (hi - lo) * 0.08
        lo -= pad; hi += pad
        if logScale { lo = floor(lo); hi = ceil(hi) }
        func x(_ i: Int) -> Double { left + (latencies.count == 1 ? plotW / 2 : plotW * Double(i) / Double(latencies.count - 1)) }
        func y(_ v: Double) -> Double {
            let t = logScale ? log10(max(v, 1)) : v
            return top + plotH * (1 - (t - lo) / (hi - lo))
        }
        var svg = "<svg id=\"\(id)\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\" role=\"img\" aria-label=\"\(NumberFormat.xml(title))\">\n"
        svg += "<rect x=\"0\" y=\"0\" width=\"\(Int(w))\" height=\"\(Int(h))\" fill=\"#ffffff\"/>\n"
        svg += "<text x=\"\(Int(left))\" y=\"22\" font-size=\"15\" font-weight=\"bold\">\(NumberFormat.xml(title))</text>\n"
        // Overflow region: from the first latency at which the first chip overflows for the highest rate.
        if let chip = predictions.first?.fifo.first?.chip, let maxRate = rates.max(),
           let first = latencies.firstIndex(where: { l in predictions.contains { $0.configuration.rateHz == maxRate && $0.configuration.latencyS == l && $0.fifo.first?.fits == false } }) {
            let x0 = first == 0 ? left : (x(first - 1) + x(first)) / 2
            let overRates = rates.filter { r in predictions.contains { $0.configuration.rateHz == r && $0.fifo.first?.fits == false } }
            svg += "<rect class=\"overflow\" x=\"\(f(x0))\" y=\"\(f(top))\" width=\"\(f(left + plotW - x0 + 10))\" height=\"\(f(plotH))\" fill=\"#f4b6b6\" fill-opacity=\"0.45\"/>\n"
            svg += "<text x=\"\(f(left + plotW + 10))\" y=\"\(f(top - 5))\" font-size=\"11\" text-anchor=\"end\" fill=\"#a00\">shaded: \(NumberFormat.xml(chip)) FIFO overflows (\(overRates.map { NumberFormat.json($0) + " Hz" }.joined(separator: ", ")))</text>\n"
        }
        // Axes and grid.
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(top + plotH))\" x2=\"\(f(left + plotW + 10))\" y2=\"\(f(top + plotH))\" stroke=\"#333\"/>\n"
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(top + plotH))\" stroke=\"#333\"/>\n"
        let ticks: [Double] = logScale ? stride(from: lo, through: hi, by: 1).map { pow(10, $0) } : (0...4).map { lo + (hi - lo) * Double($0) / 4 }
        for t in ticks {
            let ty = y(t)
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(ty))\" x2=\"\(f(left + plotW + 10))\" y2=\"\(f(ty))\" stroke=\"#ddd\"/>\n"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(ty + 4))\" font-size=\"11\" text-anchor=\"end\">\(logScale ? NumberFormat.compact(t) : NumberFormat.fixed(t, 2))</text>\n"
        }
        for (i, l) in latencies.enumerated() {
            svg += "<text x=\"\(f(x(i)))\" y=\"\(f(top + plotH + 16))\" font-size=\"11\" text-anchor=\"middle\">\(NumberFormat.json(l))</text>\n"
        }
        svg += "<text x=\"\(f(left + plotW / 2))\" y=\"\(f(h - 8))\" font-size=\"12\" text-anchor=\"middle\">batch latency [s] (0 = per-sample)</text>\n"
        // One line per rate.
        for (k, r) in rates.enumerated() {
            let colour = Self.palette[k % Self.palette.count]
            var points: [String] = []
            var marks = ""
            for (i, l) in latencies.enumerated() {
                guard let p = predictions.first(where: { $0.configuration.rateHz == r && $0.configuration.latencyS == l }) else { continue }
                let px = x(i), py = y(value(p))
                points.append("\(f(px)),\(f(py))")
                marks += "<circle cx=\"\(f(px))\" cy=\"\(f(py))\" r=\"3.5\" fill=\"\(colour)\"/>\n"
                if p.fifo.first?.fits == false { marks += "<circle class=\"lost\" cx=\"\(f(px))\" cy=\"\(f(py))\" r=\"7\" fill=\"none\" stroke=\"#c00\" stroke-width=\"1.5\"/>\n" }
            }
            svg += "<polyline class=\"series\" data-rate=\"\(NumberFormat.json(r))\" points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2.5\"/>\n" + marks
            let ly = top + 10 + Double(k) * 18
            svg += "<line x1=\"\(f(w - right + 20))\" y1=\"\(f(ly))\" x2=\"\(f(w - right + 44))\" y2=\"\(f(ly))\" stroke=\"\(colour)\" stroke-width=\"3\"/>"
            svg += "<text x=\"\(f(w - right + 50))\" y=\"\(f(ly + 4))\" font-size=\"12\">\(NumberFormat.json(r)) Hz</text>\n"
        }
        return svg + "</svg>\n"
    }

    private func f(_ v: Double) -> String { NumberFormat.fixed(v, 1) }
}
