import Foundation

/// One chart of an HTML report read back from the browser's DOM: its elements and the scales
/// its axes' ticks imply, so tests can check where a value is drawn from the SVG itself.
public struct ReportChart {
    /// The chart's elements (start tags inside its `<svg>`).
    public let elements: [DOMElement]
    /// The `<svg>` element.
    public let svg: DOMElement

    /// The chart `<svg id="id">` of `dom`, nil when absent.
    public init?(id: String, in dom: String) {
        guard let start = dom.range(of: "<svg id=\"\(id)\"") else { return nil }
        let rest = dom[start.lowerBound...]
        guard let end = rest.range(of: "</svg>") else { return nil }
        let els = DOMElement.all(in: String(rest[..<end.upperBound]))
        guard let svg = els.first else { return nil }
        self.svg = svg
        elements = els
    }

    /// Elements with `tag` and class `cls`.
    public func all(_ tag: String, class cls: String) -> [DOMElement] { elements.filter { $0.tag == tag && $0.hasClass(cls) } }

    /// The x-axis ticks as (value, x px), in order; the per-sample tick has value 0.
    public var xTicks: [(value: Double, x: Double)] { axisTicks("x-axis", "data-x") }
    /// The y-axis ticks as (value, y px), in order.
    public var yTicks: [(value: Double, y: Double)] { axisTicks("y-axis", "data-y").map { ($0.0, $0.1) } }
    /// The y axis's declared scale (`linear-zero` or `log`).
    public var yScale: String? { elements.first { $0.tag == "g" && $0.hasClass("y-axis") }?.attributes["data-scale"] }

    private func axisTicks(_ axis: String, _ position: String) -> [(Double, Double)] {
        // Ticks follow their axis group's start tag up to the next axis group.
        guard let start = elements.firstIndex(where: { $0.tag == "g" && $0.hasClass(axis) }) else { return [] }
        var out: [(Double, Double)] = []
        for e in elements[(start + 1)...] {
            if e.tag == "g", e.hasClass("x-axis") || e.hasClass("y-axis") { break }
            if e.tag == "g", e.hasClass("tick"), let v = e.number("data-value"), let p = e.number(position) { out.append((v, p)) }
        }
        return out
    }

    /// The x position of `latency` implied by the ticks: the per-sample tick for 0, else log
    /// interpolation between the two nearest decade ticks (nil outside them).
    public func x(latency: Double) -> Double? {
        if latency == 0 { return xTicks.first { $0.value == 0 }?.x }
        let decades = xTicks.filter { $0.value > 0 }
        guard let lo = decades.last(where: { $0.value <= latency * (1 + 1e-9) }),
              let hi = decades.first(where: { $0.value >= latency * (1 - 1e-9) }) else { return nil }
        if lo.value == hi.value { return lo.x }
        return lo.x + (log10(latency) - log10(lo.value)) / (log10(hi.value) - log10(lo.value)) * (hi.x - lo.x)
    }

    /// The y position of `value` implied by the ticks (linear or log interpolation, by `yScale`).
    public func y(value: Double) -> Double? {
        let t = yTicks
        guard let lo = t.last(where: { $0.value <= value * (1 + 1e-12) }) ?? t.first, let hi = t.first(where: { $0.value >= value * (1 - 1e-12) }) ?? t.last else { return nil }
        if lo.value == hi.value { return lo.y }
        if yScale == "log" { return lo.y + (log10(value) - log10(lo.value)) / (log10(hi.value) - log10(lo.value)) * (hi.y - lo.y) }
        return lo.y + (value - lo.value) / (hi.value - lo.value) * (hi.y - lo.y)
    }
}
