import Foundation
import Testing
import MotionCore
@testable import WakeCost

func sampleReport(board: BoardProfile = .rpi4B, sensors: SensorSet = .accel) -> WakeReport {
    WakeReport(board: board, predictions: WakeCostModel.sweep(rates: [25, 50, 100, 200], latencies: [0, 0.1, 1, 5, 10],
                                                             buffering: .hardware, sensors: sensors, board: board))
}

@Test func jsonHasTheDocumentedKeysAndValues() throws {
    let report = sampleReport()
    let text = report.json(sensors: .accel)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let configurations = try #require(object["configurations"] as? [[String: Any]])
    #expect(configurations.count == 20)
    let required = ["rate_hz", "latency_s", "device_deliveries_per_hour", "scheduler_wakeups_per_hour", "process_wakeups_per_hour",
                    "cpu_active_s_per_hour", "energy_j_per_hour", "battery_life_h", "worst_latency_s", "fifo"]
    for c in configurations { for k in required { #expect(c[k] != nil, "missing \(k)") } }
    // 200 Hz, 10 s: 720000 samples/h in 360 bursts; LSM6DS3 (1365 samples) overflows (2000 > 1365).
    let last = configurations[19]
    #expect(last["rate_hz"] as? Double == 200 && last["latency_s"] as? Double == 10)
    #expect(last["device_deliveries_per_hour"] as? Int == 360)
    #expect(last["process_wakeups_per_hour"] as? Int == 360)
    let fifo = try #require(last["fifo"] as? [[String: Any]])
    #expect(fifo.map { $0["chip"] as? String } == ["LSM6DS3", "BMI323", "ADXL372", "HID-hub"])
    #expect(fifo[0]["capacity_samples"] as? Int == 1365 && fifo[0]["fits"] as? Bool == false)
    #expect(abs((fifo[0]["lost_samples_per_hour"] as? Double ?? 0) - (200 - 136.5) * 3600) < 1e-6)
    let first = configurations[0]
    #expect(first["device_deliveries_per_hour"] as? Int == 90000 && first["scheduler_wakeups_per_hour"] as? Int == 90000)
    #expect((first["fifo"] as? [[String: Any]])?.allSatisfy { $0["fits"] as? Bool == true } == true)
    let board = try #require(object["board"] as? [String: Any])
    #expect(board["name"] as? String == "rpi-4b" && abs((board["idle_power_w"] as? Double ?? 0) - BoardProfile.rpi4B.idlePowerW) < 1e-9)
}

@Test func csvHasOneRowPerConfigurationAndTheChipColumns() {
    let lines = sampleReport().csv().split(separator: "\n")
    #expect(lines.count == 21)
    let header = lines[0].split(separator: ",")
    #expect(header.contains("LSM6DS3_fits") && header.contains("HID-hub_lost_samples_per_hour") && header.first == "rate_hz")
    #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == header.count })
}

@Test func tableIsAlignedWithUnitsInTheHeaders() {
    let lines = sampleReport().table().split(separator: "\n").map(String.init)
    #expect(lines.count == 22)
    #expect(lines[0].contains("rate [Hz]") && lines[0].contains("energy [J/h]") && lines[0].contains("life [h]"))
    // Every numeric column ends at the same character offset on every row (right-aligned).
    let fifoColumn = lines[0].range(of: "FIFO")!.lowerBound.utf16Offset(in: lines[0])
    for l in lines.dropFirst(2) { #expect(l.utf16.count > fifoColumn && l.dropFirst(fifoColumn - 2).hasPrefix("  ")) }
}

@Test func htmlIsSelfContainedWithOneLinePerRateAndTheOverflowRegion() {
    let html = sampleReport().html(title: "t")
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(!html.contains("<script") && !html.contains("src="))
    #expect(html.components(separatedBy: "<svg ").count - 1 == 2)
    #expect(html.components(separatedBy: "class=\"series\"").count - 1 == 8)
    #expect(html.components(separatedBy: "class=\"overflow\"").count - 1 == 2)
    #expect(!html.contains("nan") && !html.contains("inf"))
}
