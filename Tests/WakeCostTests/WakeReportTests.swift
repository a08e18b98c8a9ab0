import Foundation
import Testing
import MotionCore
@testable import WakeCost

/// The sweep the report tests share: four rates × five latencies on `board`, the given chips.
func sampleReport(board: BoardProfile = .rpi4B, chips: [FIFOChip] = FIFOChip.builtIn, sensors: SensorSet = .accel,
                  constraints: RecommendationConstraints = RecommendationConstraints()) -> WakeReport {
    WakeReport(board: board, predictions: WakeCostModel.sweep(rates: [25, 50, 100, 200], latencies: [0, 0.1, 1, 5, 10],
                                                             buffering: .hardware, sensors: sensors, board: board, chips: chips),
               chips: chips, constraints: constraints)
}

@Test func jsonHasTheDocumentedKeysAndValues() throws {
    let report = sampleReport(chips: [.lsm6ds3, .bmi323, .adxl372, .hidSensorHub])
    let text = report.json()
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["schema"] as? Int == 2)
    let configurations = try #require(object["configurations"] as? [[String: Any]])
    #expect(configurations.count == 20)
    let required = ["rate_hz", "latency_s", "device_deliveries_per_hour", "scheduler_wakeups_per_hour", "process_wakeups_per_hour",
                    "cpu_active_s_per_hour", "energy_j_per_hour", "battery_life_h", "worst_latency_s", "fifo", "recommended"]
    for c in configurations { for k in required { #expect(c[k] != nil, "missing \(k)") } }
    // 200 Hz, 10 s: 720000 samples/h in 360 bursts; the LSM6DS3 (682 scans with its timestamp
    // data sets) overflows: 2000 > 682.
    let last = configurations[19]
    #expect(last["rate_hz"] as? Double == 200 && last["latency_s"] as? Double == 10)
    #expect(last["device_deliveries_per_hour"] as? Int == 360)
    #expect(last["process_wakeups_per_hour"] as? Int == 360)
    let fifo = try #require(last["fifo"] as? [[String: Any]])
    #expect(fifo.map { $0["chip"] as? String } == ["LSM6DS3", "BMI323", "ADXL372", "HID-hub"])
    #expect(fifo[0]["capacity_samples"] as? Int == 682 && fifo[0]["fits"] as? Bool == false)
    #expect(abs((fifo[0]["lost_samples_per_hour"] as? Double ?? 0) - (200 - 68.2) * 3600) < 1e-6)
    #expect(abs((fifo[0]["full_after_s"] as? Double ?? 0) - 682.0 / 200) < 1e-12)
    let first = configurations[0]
    #expect(first["device_deliveries_per_hour"] as? Int == 90000 && first["scheduler_wakeups_per_hour"] as? Int == 90000)
    #expect((first["fifo"] as? [[String: Any]])?.allSatisfy { $0["fits"] as? Bool == true } == true)
    let board = try #require(object["board"] as? [String: Any])
    #expect(board["name"] as? String == "rpi-4b" && abs((board["idle_power_w"] as? Double ?? 0) - BoardProfile.rpi4B.idlePowerW) < 1e-9)
    let chips = try #require(object["chips"] as? [[String: Any]])
    #expect(chips.count == 4 && chips.allSatisfy { ($0["source"] as? String)?.isEmpty == false })
    // Exactly one configuration is marked recommended, and it is the recommendation's choice.
    let marked = configurations.filter { $0["recommended"] as? Bool == true }
    let chosen = try #require((object["recommendation"] as? [String: Any])?["chosen"] as? [String: Any])
    #expect(marked.count == 1 && marked[0]["rate_hz"] as? Double == chosen["rate_hz"] as? Double && marked[0]["latency_s"] as? Double == chosen["latency_s"] as? Double)
    let headline = try #require(object["headline"] as? [String: Any])
    let batched = try #require(headline["batched"] as? [String: Any])
    #expect(batched["energy_j_per_hour"] as? Double == chosen["energy_j_per_hour"] as? Double)
    #expect((batched["activity_visibility_s"] as? [String: Any])?["max"] is NSNull)
}

@Test func csvHasOneRowPerConfigurationAndTheChipColumns() {
    let lines = sampleReport().csv().split(separator: "\n")
    #expect(lines.count == 21)
    let header = lines[0].split(separator: ",")
    #expect(header.contains("LSM6DS3_fits") && header.contains("HID-hub_lost_samples_per_hour") && header.contains("recommended") && header.first == "rate_hz")
    #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == header.count })
    #expect(lines.dropFirst().filter { $0.split(separator: ",")[13] == "true" }.count == 1)
}

// The compact table and the whole terminal report fit 100 columns, keep units in the headers,
// right-align numbers and mark exactly one recommended row.
@Test(arguments: BoardProfile.builtIn)
func terminalReportFitsOneHundredColumns(board: BoardProfile) {
    let report = sampleReport(board: board)
    let text = report.text()
    for line in text.split(separator: "\n") { #expect(line.count <= 100, "\(line.count) columns: \(line)") }
    let table = report.table().split(separator: "\n").map(String.init)
    #expect(table.count == 23)
    #expect(table[0].contains("rate") && table[1].contains("[Hz]") && table[1].contains("[J/h]") && table[1].contains("[h]"))
    #expect(table.dropFirst(3).filter { $0.hasPrefix("*") }.count == 1)
    // The energy column ends at the same offset on every row.
    let end = table[1].range(of: "[J/h]")!.upperBound.utf16Offset(in: table[1])
    for l in table.dropFirst(3) { #expect(Array(l.utf16)[end - 1] != 32 && Array(l.utf16)[end] == 32, "\(l)") }
    #expect(text.contains("Headline") && text.contains("Recommendation"))
}

@Test func htmlIsSelfContainedWithTheChartsAndWorkingLinks() throws {
    let html = sampleReport().html(title: "t")
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("href=\"http") && !html.contains("url("))
    for id in ["chart-battery", "chart-energy", "chart-wakeups", "chart-fifo"] { #expect(html.contains("<svg id=\"\(id)\"")) }
    #expect(!html.contains("<svg id=\"chart-visibility\""), "no visibility chart without a recording")
    #expect(html.components(separatedBy: "class=\"series\"").count - 1 == 4 * 3)
    #expect(html.components(separatedBy: "class=\"recommended\"").count - 1 == 3)
    #expect(!html.contains("nan") && !html.contains("inf"))
    // Every in-page link has its target.
    let hrefs = html.components(separatedBy: "href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    #expect(hrefs.count >= 8)
    for h in hrefs { #expect(html.contains("id=\"\(h)\""), "dangling link #\(h)") }
}

// Every overflowing (chip, rate) within the axis has its band, starting where capacity / rate
// maps on the log axis; chips that fit throughout have none.
@Test func fifoChartHasABandPerOverflowingChipAndRate() {
    let report = sampleReport()
    let html = report.fifoChart()
    let axis = LatencyAxis(latencies: report.latencies, left: 78, width: 620 - 78)
    for chip in report.chips {
        for rate in report.rates {
            let full = Double(chip.capacity(.accel)) / rate
            let marker = "class=\"overflow-band\" data-chip=\"\(chip.name)\" data-rate=\"\(NumberFormat.json(rate))\""
            #expect(html.contains(marker) == (full < axis.hi), "\(chip.name) \(rate) Hz")
            if full < axis.hi {
                let tail = html.components(separatedBy: marker)[1]
                let x = Double(tail.components(separatedBy: "x=\"")[1].prefix { $0 != "\"" })!
                #expect(abs(x - axis.x(max(full, axis.lo))) < 0.01)
            }
        }
    }
}
