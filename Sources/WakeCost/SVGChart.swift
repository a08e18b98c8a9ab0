import Foundation

/// The x axis of every report chart: batch latency on a log scale over the positive latencies,
/// with 0 (per-sample delivery) drawn apart at the left, past an axis break. Ticks carry their
/// value in `data-value`, so a reader of the SVG (the browser test) can check the scale.
struct LatencyAxis {
    /// Left edge of the plot and its width (px).
    let left: Double, width: Double
    /// The decades spanned by the positive latencies: [lo, hi], both powers of ten.
    let lo: Double, hi: Double
    /// Whether the sweep has latency 0 (the per-sample slot is drawn).
    let hasZero: Bool
    /// The swept positive latencies (each gets a labelled tick).
    let swept: [Double]
    /// Width of the per-sample slot and the gap of the break (px).
    static let zeroSlot = 72.0

    /// An axis for `latencies` (s) across `width` px from `left`.
    init(latencies: [Double], left: Double, width: Double) {
        self.left = left
        self.width = width
        hasZero = latencies.contains(0)
        let positive = latencies.filter { $0 > 0 && $0.isFinite }
        swept = Array(Set(positive)).sorted()
        var lo = pow(10, floor(log10(positive.min() ?? 0.1) + 1e-9))
        var hi = pow(10, ceil(log10(positive.max() ?? 10) - 1e-9))
        if hi <= lo { hi = lo * 10 }
        if !lo.isFinite || lo <= 0 { lo = 0.1 }
        self.lo = lo
        self.hi = hi
    }

    /// Left end of the log part (px).
    var logLeft: Double { left + (hasZero ? Self.zeroSlot : 0) }
    /// Right end of the plot (px).
    var right: Double { left + width }

    /// The x position of `latency`: the middle of the per-sample slot for 0, else the log scale
    /// (clamped to the axis ends).
    func x(_ latency: Double) -> Double {
        if latency <= 0 { return left + Self.zeroSlot * 0.4 }
        let t = (log10(min(max(latency, lo), hi)) - log10(lo)) / (log10(hi) - log10(lo))
        return logLeft + t * (right - logLeft)
    }

    /// Whether `latency` lies on the log part (not beyond its ends).
    func contains(_ latency: Double) -> Bool { latency >= lo * (1 - 1e-9) && latency <= hi * (1 + 1e-9) }

    /// Labelled ticks: 0 (when present), every decade and every swept latency.
    var ticks: [Double] {
        var decades: [Double] = []
        var d = lo
        while d <= hi * 1.0001 { decades.append(d); d *= 10 }
        let positive = (decades + swept.filter(contains)).sorted()
        var t: [Double] = hasZero ? [0] : []
        for v in positive where t.last.map({ abs($0 - v) > v * 1e-9 }) ?? true { t.append(v) }
        return t
    }

    /// Unlabelled minor ticks at 2× and 5× each decade, where no labelled tick is.
    var minorTicks: [Double] {
        var t: [Double] = []
        var d = lo
        while d < hi * 0.999 { t += [2 * d, 5 * d]; d *= 10 }
        let labelled = ticks
        return t.filter { m in !labelled.contains { abs($0 - m) <= m * 1e-9 } }
    }
}

/// A y axis: linear from zero, or log over whole decades.
struct ValueAxis {
    /// How values map to height.
    enum Scale: String { case linearZero = "linear-zero", log }
    let scale: Scale
    /// Top of the plot and its height (px).
    let top: Double, height: Double
    /// The value range shown: [0, hi] (linear) or [lo, hi] decades (log).
    let lo: Double, hi: Double

    /// An axis spanning `values` (non-finite values ignored).
    init(scale: Scale, values: [Double], top: Double, height: Double) {
        self.top = top
        self.height = height
        let finite = values.filter(\.isFinite)
        switch scale {
        case .linearZero:
            self.scale = .linearZero
            lo = 0
            hi = ValueAxis.niceCeil(max(finite.max() ?? 1, 1e-12))
        case .log:
            let positive = finite.filter { $0 > 0 }
            if positive.isEmpty {
                self.scale = .linearZero
                lo = 0
                hi = 1
            } else {
                self.scale = .log
                lo = pow(10, floor(log10(positive.min()!) + 1e-9))
                let top = pow(10, ceil(log10(positive.max()!) - 1e-9))
                hi = top > lo ? top : lo * 10
            }
        }
    }

    /// The y position of `v` (clamped to the axis).
    func y(_ v: Double) -> Double {
        let t: Double
        switch scale {
        case .linearZero: t = (min(max(v, lo), hi) - lo) / (hi - lo)
        case .log: t = (log10(min(max(v, lo), hi)) - log10(lo)) / (log10(hi) - log10(lo))
        }
        return top + height * (1 - t)
    }

    /// Labelled ticks: five nice steps from zero (linear), or every decade (log).
    var ticks: [Double] {
        switch scale {
        case .linearZero:
            let step = ValueAxis.niceStep(hi / 5)
            return stride(from: 0.0, through: hi * 1.0001, by: step).map { $0 }
        case .log:
            var t: [Double] = [], d = lo
            while d <= hi * 1.0001 { t.append(d); d *= 10 }
            return t
        }
    }

    /// The smallest 1, 2 or 5 × 10^k at or above `v`.
    static func niceStep(_ v: Double) -> Double {
        let p = pow(10, floor(log10(v)))
        for m in [1.0, 2, 5, 10] where m * p >= v * 0.9999 { return m * p }
        return 10 * p
    }

    /// A round upper bound at or above `v`: the next multiple of a nice step (a fifth of it).
    static func niceCeil(_ v: Double) -> Double {
        let step = niceStep(v / 5)
        return (v / step).rounded(.up) * step
    }
}

/// SVG text building for one chart: a frame, axes with `data-value` ticks, and marks.
struct SVGChart {
    let id: String, title: String
    let width = 760.0, height: Double
    let plotLeft = 78.0, plotRight = 620.0, plotTop = 40.0
    let plotBottom: Double
    private(set) var body = ""

    /// A chart `id` titled `title`; the plot spans `plotHeight` px.
    init(id: String, title: String, plotHeight: Double = 260) {
        self.id = id
        self.title = title
        plotBottom = plotTop + plotHeight
        height = plotBottom + 52
    }

    /// Appends raw SVG.
    mutating func add(_ s: String) { body += s }

    /// The latency axis across the plot.
    func latencyAxis(_ latencies: [Double]) -> LatencyAxis {
        LatencyAxis(latencies: latencies, left: plotLeft, width: plotRight - plotLeft)
    }

    /// The value axis over the plot's height.
    func valueAxis(_ scale: ValueAxis.Scale, values: [Double]) -> ValueAxis {
        ValueAxis(scale: scale, values: values, top: plotTop, height: plotBottom - plotTop)
    }

    /// Draws the x axis: line, break, ticks with `data-value`, minor ticks, label.
    mutating func drawX(_ x: LatencyAxis) {
        var s = "<g class=\"x-axis\" data-scale=\"log-latency\" data-zero=\"\(x.hasZero)\">\n"
        s += "<line class=\"axis-line\" x1=\"\(f(x.logLeft))\" y1=\"\(f(plotBottom))\" x2=\"\(f(x.right))\" y2=\"\(f(plotBottom))\" stroke=\"#333\"/>\n"
        if x.hasZero {
            let z = x.x(0)
            s += "<line class=\"axis-line zero\" x1=\"\(f(plotLeft))\" y1=\"\(f(plotBottom))\" x2=\"\(f(z + 12))\" y2=\"\(f(plotBottom))\" stroke=\"#333\"/>\n"
            let b = x.logLeft - 12
            s += "<path class=\"axis-break\" d=\"M\(f(b - 5)),\(f(plotBottom + 6)) L\(f(b + 1)),\(f(plotBottom - 6)) M\(f(b + 3)),\(f(plotBottom + 6)) L\(f(b + 9)),\(f(plotBottom - 6))\" stroke=\"#333\" fill=\"none\"/>\n"
        }
        for t in x.minorTicks {
            s += "<line class=\"minor-tick\" x1=\"\(f(x.x(t)))\" y1=\"\(f(plotBottom))\" x2=\"\(f(x.x(t)))\" y2=\"\(f(plotBottom + 4))\" stroke=\"#666\"/>\n"
        }
        for t in x.ticks {
            let px = x.x(t)
            let label = t == 0 ? "0" : NumberFormat.json(t)
            s += "<g class=\"tick\(t == 0 ? " zero" : "")\" data-value=\"\(NumberFormat.json(t))\" data-x=\"\(f(px))\">"
            s += "<line x1=\"\(f(px))\" y1=\"\(f(plotTop))\" x2=\"\(f(px))\" y2=\"\(f(plotBottom + 6))\" stroke=\"\(t == 0 ? "#bbb" : "#ddd")\"/>"
            s += "<text x=\"\(f(px))\" y=\"\(f(plotBottom + 19))\" font-size=\"11\" text-anchor=\"middle\">\(label)</text>"
            if t == 0 { s += "<text x=\"\(f(px))\" y=\"\(f(plotBottom + 31))\" font-size=\"10\" text-anchor=\"middle\">per-sample</text>" }
            s += "</g>\n"
        }
        s += "<text x=\"\(f((plotLeft + plotRight) / 2))\" y=\"\(f(plotBottom + 44))\" font-size=\"12\" text-anchor=\"middle\">batch latency [s], log scale (per-sample delivery drawn apart at 0)</text>\n"
        body += s + "</g>\n"
    }

    /// Draws the y axis with `data-value` ticks and the unit label.
    mutating func drawY(_ y: ValueAxis, label: String) {
        var s = "<g class=\"y-axis\" data-scale=\"\(y.scale.rawValue)\">\n"
        s += "<line class=\"axis-line\" x1=\"\(f(plotLeft))\" y1=\"\(f(plotTop))\" x2=\"\(f(plotLeft))\" y2=\"\(f(plotBottom))\" stroke=\"#333\"/>\n"
        for t in y.ticks {
            let py = y.y(t)
            s += "<g class=\"tick\" data-value=\"\(NumberFormat.json(t))\" data-y=\"\(f(py))\">"
            s += "<line x1=\"\(f(plotLeft - 5))\" y1=\"\(f(py))\" x2=\"\(f(plotRight))\" y2=\"\(f(py))\" stroke=\"#e2e2e2\"/>"
            s += "<text x=\"\(f(plotLeft - 8))\" y=\"\(f(py + 4))\" font-size=\"11\" text-anchor=\"end\">\(NumberFormat.compact(t))</text></g>\n"
        }
        s += "<text transform=\"translate(16,\(f((plotTop + plotBottom) / 2))) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">\(NumberFormat.xml(label))</text>\n"
        body += s + "</g>\n"
    }

    /// The finished `<svg>` element.
    func svg(description: String) -> String {
        "<svg id=\"\(id)\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(NumberFormat.xml(title))\" "
            + "data-plot-left=\"\(f(plotLeft))\" data-plot-right=\"\(f(plotRight))\" data-plot-top=\"\(f(plotTop))\" data-plot-bottom=\"\(f(plotBottom))\">\n"
            + "<title>\(NumberFormat.xml(title))</title><desc>\(NumberFormat.xml(description))</desc>\n"
            + "<rect x=\"0\" y=\"0\" width=\"\(Int(width))\" height=\"\(Int(height))\" fill=\"#ffffff\"/>\n"
            + "<text x=\"\(f(plotLeft))\" y=\"22\" font-size=\"15\" font-weight=\"bold\">\(NumberFormat.xml(title))</text>\n"
            + body + "</svg>\n"
    }

    /// Coordinates with two decimals (precise enough for the test to recompute positions).
    func f(_ v: Double) -> String { NumberFormat.fixed(v, 2) }
}
