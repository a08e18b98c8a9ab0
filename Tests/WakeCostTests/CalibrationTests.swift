import Foundation
import Testing
import MotionCore
@testable import WakeCost

/// A capture whose CPU time follows the model exactly for the given costs.
func syntheticCapture(samples: Int, policy: DeliveryPolicy, buffering: Buffering = .hardware, perWake: Double, perSample: Double) -> CaptureStats {
    let board = BoardProfile(name: "t", idlePowerW: 1, activePowerW: 2, deviceDeliveryS: 1e-4, schedulerWakeupS: 0,
                             userspaceReturnS: perWake, perSampleS: perSample, batteryMAh: 1, batteryV: 1)
    let counts = WakeCounts.predicted(samples: samples, configuration: WakeConfiguration(rateHz: 100, policy: policy, buffering: buffering))
    return CaptureStats(samples: samples, userspaceReturns: counts.userspaceReturns, voluntaryContextSwitches: counts.schedulerWakeups,
                        cpuTimeS: counts.processCPUSeconds(on: board), durationS: Double(samples) / 100, deviceDeliveries: counts.deviceDeliveries)
}

// Calibration recovers the per-wake and per-sample costs that generated two captures.
@Test(arguments: [(3e-5, 2e-6, 100), (4.4e-4, 1.2e-5, 10), (1e-6, 0.0, 50), (0.0, 5e-6, 1000)])
func calibrationRecoversTheCostsThatMadeTheCaptures(perWake: Double, perSample: Double, batch: Int) throws {
    let p = syntheticCapture(samples: 1000, policy: .perSample, perWake: perWake, perSample: perSample)
    let q = syntheticCapture(samples: 1200, policy: .samples(batch), perWake: perWake, perSample: perSample)
    let c = try Calibration.derive(perSample: p, batched: q)
    #expect(abs(c.perWakeS - perWake) <= 1e-12 + 1e-9 * perWake)
    #expect(abs(c.perSampleS - perSample) <= 1e-12 + 1e-9 * perSample)
    #expect(c.warnings.isEmpty)
    let applied = c.applied(to: .rpi4B)
    #expect(applied.userspaceReturnS == c.perWakeS && applied.perSampleS == c.perSampleS && applied.idlePowerW == BoardProfile.rpi4B.idlePowerW)
}

@Test func softwareWatermarkCaptureWarnsThatSchedulerWakeupsAreFolded() throws {
    let p = syntheticCapture(samples: 1000, policy: .perSample, perWake: 3e-5, perSample: 2e-6)
    let q = syntheticCapture(samples: 1000, policy: .samples(100), buffering: .software, perWake: 3e-5, perSample: 2e-6)
    let c = try Calibration.derive(perSample: p, batched: q)
    #expect(c.warnings.contains { $0.contains("folded into per_sample_s") })
}

@Test func capturesWithTheSameReturnRatioCannotBeSeparated() {
    let p = syntheticCapture(samples: 1000, policy: .perSample, perWake: 3e-5, perSample: 2e-6)
    #expect { try Calibration.derive(perSample: p, batched: p) } throws: { ($0 as? WakeCostError)?.problem.contains("same userspace returns per sample") == true }
}

@Test func negativeDerivedCostIsAnError() {
    // The batched capture uses more CPU than the per-sample one: the per-wake cost comes out negative.
    let p = CaptureStats(samples: 1000, userspaceReturns: 1000, voluntaryContextSwitches: 1000, cpuTimeS: 0.01, durationS: 10)
    let q = CaptureStats(samples: 1000, userspaceReturns: 10, voluntaryContextSwitches: 10, cpuTimeS: 0.05, durationS: 10)
    #expect { try Calibration.derive(perSample: p, batched: q) } throws: { ($0 as? WakeCostError)?.problem.contains("negative") == true }
}

@Test func measuredNotesCapturesCalibrateToTheirTickRatio() throws {
    // shared/notes/wakeups-measured.md, QEMU, ~1000 samples at 100 Hz, CPU in 10 ms ticks
    // (emulated, relative only). Per-sample: reader buffer 1, no hardware FIFO: 1063 switches,
    // 56 ticks. Batched: buffer 100 with 1 s hardware-FIFO bursts: 10 returns, 308 switches, 2 ticks.
    let p = CaptureStats(samples: 1000, userspaceReturns: 1000, voluntaryContextSwitches: 1063, cpuTimeS: 0.56, durationS: 10)
    let q = CaptureStats(samples: 1000, userspaceReturns: 10, voluntaryContextSwitches: 308, cpuTimeS: 0.02, durationS: 10, deviceDeliveries: 10)
    let c = try Calibration.derive(perSample: p, batched: q)
    // 0.56 = 1000a + 1000b, 0.02 = 10a + 1000b  =>  a = 0.54/990, b = (0.56 - 1000a)/1000.
    #expect(abs(c.perWakeS - 0.54 / 990) < 1e-15)
    #expect(abs(c.perSampleS - (0.56 - 1000 * 0.54 / 990) / 1000) < 1e-15)
    // 308 switches for 10 returns: the blocking watermark's spurious wake-ups are flagged.
    #expect(c.warnings.count == 1 && c.warnings[0].contains("308 voluntary context switches"))
}

@Test func captureStatsJSONSchema() throws {
    let ok = #"{"samples": 1000, "userspace_returns": 10, "voluntary_ctxt_switches": 47, "cpu_time_s": 0.02, "duration_s": 10, "device_deliveries": 10}"#
    let c = try CaptureStats.parseJSON(Array(ok.utf8), file: "c.json")
    #expect(c == CaptureStats(samples: 1000, userspaceReturns: 10, voluntaryContextSwitches: 47, cpuTimeS: 0.02, durationS: 10, deviceDeliveries: 10))
    let noDeliveries = #"{"samples": 1000, "userspace_returns": 10, "voluntary_ctxt_switches": 47, "cpu_time_s": 0.02, "duration_s": 10, "device_deliveries": null}"#
    #expect(try CaptureStats.parseJSON(Array(noDeliveries.utf8), file: "c.json").deviceDeliveries == nil)
    for (bad, key) in [
        (#"{"samples": 1000.5, "userspace_returns": 10, "voluntary_ctxt_switches": 47, "cpu_time_s": 0.02, "duration_s": 10}"#, "samples"),
        (#"{"samples": 1000, "userspace_returns": 10, "voluntary_ctxt_switches": 47, "cpu_time_s": 0.02, "duration_s": 0}"#, "duration_s"),
        (#"{"samples": 1000, "userspace_returns": -1, "voluntary_ctxt_switches": 47, "cpu_time_s": 0.02, "duration_s": 1}"#, "userspace_returns"),
        (#"{"samples": 1000, "userspace_returns": 1, "voluntary_ctxt_switches": 47, "cpu_time_s": 0.02, "duration_s": 1, "extra": 1}"#, "extra"),
        (#"{"samples": 1000, "userspace_returns": 1, "cpu_time_s": 0.02, "duration_s": 1}"#, "voluntary_ctxt_switches"),
    ] {
        #expect { try CaptureStats.parseJSON(Array(bad.utf8), file: "c.json") } throws: { ($0 as? WakeCostError)?.key == key && ($0 as? WakeCostError)?.file == "c.json" }
    }
}

@Test func measuredComparisonShowsTheDifference() {
    let capture = CaptureStats(samples: 1000, userspaceReturns: 10, voluntaryContextSwitches: 47, cpuTimeS: 0.002, durationS: 10, deviceDeliveries: 10)
    let cmp = MeasuredComparison.compare(capture, configuration: WakeConfiguration(rateHz: 100, latencyS: 1), board: .rpi4B)
    let byName = Dictionary(uniqueKeysWithValues: cmp.rows.map { ($0.quantity, $0) })
    #expect(byName["device_deliveries"]?.predicted == 10 && byName["device_deliveries"]?.difference == 0)
    #expect(byName["scheduler_wakeups"]?.predicted == 10 && byName["scheduler_wakeups"]?.difference == 37)
    #expect(byName["scheduler_wakeups"]?.differencePercent == 370)
    #expect(byName["userspace_returns"]?.difference == 0)
    let cpu = 10 * BoardProfile.rpi4B.userspaceReturnS + 1000 * BoardProfile.rpi4B.perSampleS
    #expect(abs((byName["cpu_time_s"]?.predicted ?? 0) - cpu) < 1e-15)
}

// The IIO reader's `capture --json` output is read directly, with its configuration.
@Test func captureCommandJSONIsReadWithItsConfiguration() throws {
    let text = #"""
    {"uri": "local:", "output": null, "stop_reason": "duration", "samples": 1000, "lost_samples": 0, "batches": 10,
     "userspace_returns": 10, "refills": 10, "voluntary_context_switches": 47, "involuntary_context_switches": 3,
     "cpu_user_s": 0.01, "cpu_system_s": 0.01, "cpu_s": 0.02, "elapsed_s": 10.0,
     "devices": [{"id": "iio:device0", "name": "accel_3d", "requested_rate_hz": 100, "rate_hz": 100, "batch_samples": 100,
                  "latency_s": 1, "wait_strategy": "poll", "hwfifo_timeout_s": 1}]}
    """#
    let c = try CaptureStats.parseJSON(Array(text.utf8), file: "cap.json")
    #expect(c.samples == 1000 && c.userspaceReturns == 10 && c.voluntaryContextSwitches == 47 && c.cpuTimeS == 0.02 && c.durationS == 10)
    #expect(c.deviceDeliveries == nil)
    #expect(c.configuration == WakeConfiguration(rateHz: 100, latencyS: 1, buffering: .hardware))
    let software = text.replacingOccurrences(of: "\"hwfifo_timeout_s\": 1", with: "\"hwfifo_timeout_s\": 0")
    #expect(try CaptureStats.parseJSON(Array(software.utf8), file: "cap.json").configuration?.buffering == .software)
    let timed = software.replacingOccurrences(of: "\"batches\": 10,", with: "\"batches\": 10, \"timed_wait\": true,")
    #expect(timed != software)
    #expect(try CaptureStats.parseJSON(Array(timed.utf8), file: "cap.json").configuration?.buffering == .timed)
    let broken = text.replacingOccurrences(of: "\"cpu_s\": 0.02", with: "\"cpu_s\": -1")
    #expect { try CaptureStats.parseJSON(Array(broken.utf8), file: "cap.json") } throws: { ($0 as? WakeCostError)?.key == "cpu_s" }
}
