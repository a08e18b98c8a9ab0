import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI

// `motionbatch wakes RECORDING --html` rendered by headless Chromium and read back from the
// SVG: the axes are log (latency, per-sample apart) and zero-based (battery, visibility), every
// chip and rate at which the JSON says a FIFO overflows has its band starting at that chip's
// full-after latency, the recommended point is drawn at the JSON's recommended latency and value
// on every chart, and the headline's numbers are the JSON's. The screenshot is kept in
// .build/wakes-report-screenshot.png (docs/wake-cost-report.png is a copy of it).
@Suite(.enabled(if: HeadlessChromium.path != nil, Comment(rawValue: HeadlessChromium.missingReason)), .serialized)
struct WakesReportBrowserTests {
    @Test func reportForARecordingMatchesItsJSON() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "wakes-browser")
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("report.html")
        let run = runCLI(["wakes", haptWalk, "--board", "rpi-zero-2w", "--max-delay", "5", "--html", page.path, "--json"])
        #expect(run.code == 0, "\(run.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let configurations = try #require(json["configurations"] as? [[String: Any]])
        let chosen = try #require((json["recommendation"] as? [String: Any])?["chosen"] as? [String: Any])
        let rate = try #require(chosen["rate_hz"] as? Double), latency = try #require(chosen["latency_s"] as? Double)
        let recommended = try #require(configurations.first { $0["recommended"] as? Bool == true })
        #expect(recommended["rate_hz"] as? Double == rate && recommended["latency_s"] as? Double == latency)

        let dom = try HeadlessChromium.dom(of: page)

        // Axes: log latency with per-sample apart on every chart; battery and visibility from zero.
        for id in ["chart-battery", "chart-energy", "chart-wakeups", "chart-fifo", "chart-visibility"] {
            let chart = try #require(ReportChart(id: id, in: dom), "\(id) missing")
            // The decade ticks (the swept latencies between them are labelled too).
            let decades = chart.xTicks.filter { $0.value > 0 && abs(log10($0.value) - log10($0.value).rounded()) < 1e-9 }
            #expect(decades.count >= 2)
            let widths = zip(decades, decades.dropFirst()).map { $1.x - $0.x }
            #expect(widths.allSatisfy { abs($0 - widths[0]) < 0.02 }, "\(id): decades not equally wide")
            #expect(zip(decades, decades.dropFirst()).allSatisfy { abs($1.value / $0.value - 10) < 1e-9 })
            let zero = try #require(chart.xTicks.first { $0.value == 0 }, "\(id): no per-sample tick")
            #expect(zero.x < decades[0].x - 40)
        }
        for id in ["chart-battery", "chart-visibility"] {
            let chart = try #require(ReportChart(id: id, in: dom))
            #expect(chart.yScale == "linear-zero")
            let bottom = try #require(chart.svg.number("data-plot-bottom"))
            #expect(chart.yTicks.first?.value == 0 && abs((chart.yTicks.first?.y ?? 0) - bottom) < 0.01, "\(id): axis does not start at zero")
        }
        for id in ["chart-energy", "chart-wakeups"] { #expect(ReportChart(id: id, in: dom)?.yScale == "log") }

        // The recommended point, where the JSON says, on each chart.
        let values: [(String, Double)] = [("chart-battery", try #require(recommended["battery_life_h"] as? Double)),
                                          ("chart-energy", try #require(recommended["energy_j_per_hour"] as? Double)),
                                          ("chart-wakeups", Double(try #require(recommended["scheduler_wakeups_per_hour"] as? Int))),
                                          ("chart-visibility", try #require(chosen["delay_s"] as? Double))]
        for (id, value) in values {
            let chart = try #require(ReportChart(id: id, in: dom))
            let mark = try #require(chart.all("circle", class: "recommended").first, "\(id): recommended point missing")
            #expect(abs(mark.number("cx")! - (try #require(chart.x(latency: latency)))) < 0.02, "\(id): recommended x")
            #expect(abs(mark.number("cy")! - (try #require(chart.y(value: value)))) < 0.02, "\(id): recommended y")
        }

        // One band per chip and rate where the JSON has that chip overflow, starting at full_after_s.
        let fifoChart = try #require(ReportChart(id: "chart-fifo", in: dom))
        let bands = fifoChart.all("rect", class: "overflow-band")
        let lowest = try #require(fifoChart.xTicks.filter { $0.value > 0 }.first?.value)
        var expectedBands = 0
        for c in configurations {
            for v in c["fifo"] as? [[String: Any]] ?? [] where v["fits"] as? Bool == false {
                let chip = v["chip"] as! String, r = c["rate_hz"] as! Double, full = v["full_after_s"] as! Double
                let band = try #require(bands.first { $0.attributes["data-chip"] == chip && $0.number("data-rate") == r }, "no band for \(chip) at \(r) Hz")
                let start = try #require(fifoChart.x(latency: max(full, lowest)))
                #expect(abs(band.number("x")! - start) < 0.02, "\(chip) at \(r) Hz: band starts at the wrong latency")
            }
        }
        for b in bands {
            let chip = b.attributes["data-chip"]!, r = b.number("data-rate")!
            let overflows = configurations.contains { c in c["rate_hz"] as? Double == r && (c["fifo"] as? [[String: Any]] ?? []).contains { $0["chip"] as? String == chip && $0["fits"] as? Bool == false } }
            if overflows { expectedBands += 1 }
        }
        #expect(expectedBands == bands.count, "a band for a chip and rate that never overflows in the sweep")

        // The headline's numbers are the JSON's (to the decimals shown).
        let headline = try #require(json["headline"] as? [String: Any])
        let cells = DOMElement.all(in: dom).filter { $0.attributes["data-key"] != nil && $0.attributes["data-decimals"] != nil }
        #expect(cells.count >= 20)
        let shown = try Dictionary(uniqueKeysWithValues: dom.components(separatedBy: "data-key=\"").dropFirst().map { part -> (String, Double) in
            let key = String(part.prefix { $0 != "\"" })
            let text = part.split(separator: ">", maxSplits: 1)[1].prefix { $0 != "<" }
            return (key, try #require(Double(text) ?? (text == "n/a" ? .nan : nil), "\(key): \(text)"))
        })
        for c in cells {
            let key = c.attributes["data-key"]!, decimals = Int(c.attributes["data-decimals"]!)!
            var value: Any? = headline
            for part in key.split(separator: ".") { value = (value as? [String: Any])?[String(part)] }
            let number = try #require((value as? Double) ?? (value as? Int).map(Double.init), "\(key) not in the JSON headline")
            #expect(abs(shown[key]! - number) <= 0.5 * pow(10, -Double(decimals)) + 1e-9, "\(key): shown \(shown[key]!) vs JSON \(number)")
        }

        let image = try HeadlessChromium.screenshot(of: page, width: 1150, height: 3600, to: dir.appendingPathComponent("shot.png"))
        #expect(image.width == 1150)
        let keep = TestPaths.packageRoot.appendingPathComponent(".build/wakes-report-screenshot.png")
        try? FileManager.default.removeItem(at: keep)
        try? FileManager.default.copyItem(at: dir.appendingPathComponent("shot.png"), to: keep)
    }
}
