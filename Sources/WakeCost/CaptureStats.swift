import Foundation
import MotionCore

/// What a real capture measured (filled by the IIO reader or the QEMU harness), the input of
/// measured mode and calibration. JSON schema in docs/wake-cost.md:
/// `{"samples": 1000, "userspace_returns": 10, "voluntary_ctxt_switches": 47,
///   "cpu_time_s": 0.02, "duration_s": 10, "device_deliveries": 10}`
/// (`device_deliveries` optional: the emulator's burst count, or null when unknown).
public struct CaptureStats: Hashable, Sendable {
    /// Samples read.
    public var samples: Int
    /// Returns from poll/read (refills) into userspace.
    public var userspaceReturns: Int
    /// Voluntary context switches of the reading task (`voluntary_ctxt_switches` in /proc/PID/status).
    public var voluntaryContextSwitches: Int
    /// CPU time of the reading task (utime + stime, s).
    public var cpuTimeS: Double
    /// Wall time covered (s).
    public var durationS: Double
    /// Device deliveries (interrupts / bursts), when known.
    public var deviceDeliveries: Int?
    /// The configuration the capture ran at, when the file says (the IIO reader's
    /// `capture --json` output does: its first device's rate, latency and FIFO timeout).
    public var configuration: WakeConfiguration?

    /// Creates capture statistics.
    public init(samples: Int, userspaceReturns: Int, voluntaryContextSwitches: Int, cpuTimeS: Double, durationS: Double,
                deviceDeliveries: Int? = nil, configuration: WakeConfiguration? = nil) {
        self.configuration = configuration
        self.samples = samples
        self.userspaceReturns = userspaceReturns
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.cpuTimeS = cpuTimeS
        self.durationS = durationS
        self.deviceDeliveries = deviceDeliveries
    }

    /// Samples per second over the capture.
    public var rateHz: Double { Double(samples) / durationS }

    /// Keys a capture-stats file may contain.
    public static let jsonKeys: Set<String> = ["samples", "userspace_returns", "voluntary_ctxt_switches", "cpu_time_s", "duration_s", "device_deliveries"]

    /// Checks the values: counts not negative, samples and duration above zero, CPU time finite
    /// and not negative.
    public func validate(file: String) throws(WakeCostError) {
        guard samples > 0 else { throw WakeCostError(file: file, key: "samples", problem: "must be greater than 0, got \(samples)") }
        guard userspaceReturns >= 0 else { throw WakeCostError(file: file, key: "userspace_returns", problem: "must not be negative, got \(userspaceReturns)") }
        guard voluntaryContextSwitches >= 0 else { throw WakeCostError(file: file, key: "voluntary_ctxt_switches", problem: "must not be negative, got \(voluntaryContextSwitches)") }
        guard cpuTimeS.isFinite, cpuTimeS >= 0 else { throw WakeCostError(file: file, key: "cpu_time_s", problem: "must be a finite number >= 0, got \(cpuTimeS)") }
        guard durationS.isFinite, durationS > 0 else { throw WakeCostError(file: file, key: "duration_s", problem: "must be a finite number > 0, got \(durationS)") }
        if let d = deviceDeliveries, d < 0 { throw WakeCostError(file: file, key: "device_deliveries", problem: "must not be negative, got \(d)") }
    }

    /// Keys that mark the IIO reader's `motionbatch capture --json` output (docs/iio-reader.md).
    public static let captureCommandKeys: Set<String> = ["voluntary_context_switches", "cpu_s", "elapsed_s"]

    /// Parses and validates capture statistics from the bytes of a JSON file: either this
    /// schema (strict: unknown keys are errors) or the IIO reader's `capture --json` output
    /// (recognised by its `voluntary_context_switches`, `cpu_s` and `elapsed_s` keys; its other
    /// keys are ignored, and its first device's `rate_hz`, `latency_s`, `batch_samples` and
    /// `hwfifo_timeout_s` give ``configuration``).
    /// - Throws: ``WakeCostError`` naming the file and key.
    public static func parseJSON(_ data: [UInt8], file: String) throws(WakeCostError) -> CaptureStats {
        let o = try JSONObject.parse(data, file: file)
        if captureCommandKeys.isSubset(of: Set(o.keys)) { return try parseCaptureCommandJSON(o, file: file) }
        try o.rejectUnknownKeys(jsonKeys, file: file)
        func count(_ key: String) throws(WakeCostError) -> Int { try o.count(key, file: file) }
        let deliveries = try o.optionalCount("device_deliveries", file: file)
        let stats = CaptureStats(
            samples: try count("samples"), userspaceReturns: try count("userspace_returns"),
            voluntaryContextSwitches: try count("voluntary_ctxt_switches"),
            cpuTimeS: try o.number("cpu_time_s", file: file), durationS: try o.number("duration_s", file: file),
            deviceDeliveries: deliveries)
        try stats.validate(file: file)
        return stats
    }

    /// The IIO reader's `capture --json` dialect.
    static func parseCaptureCommandJSON(_ o: JSONObject, file: String) throws(WakeCostError) -> CaptureStats {
        func count(_ key: String) throws(WakeCostError) -> Int { try o.count(key, file: file) }
        var configuration: WakeConfiguration?
        if let devices = o["devices"] as? [[String: Any]], let d = devices.first,
           let rate = (d["rate_hz"] as? NSNumber)?.doubleValue, rate.isFinite, rate > 0,
           let latency = (d["latency_s"] as? NSNumber)?.doubleValue, latency.isFinite, latency >= 0 {
            let fifo = (d["hwfifo_timeout_s"] as? NSNumber)?.doubleValue ?? 0
            let batch = (d["batch_samples"] as? NSNumber)?.intValue ?? 1
            let policy: DeliveryPolicy = latency > 0 ? .latency(seconds: latency) : .samples(max(1, batch))
            // Without a FIFO the reader either polled the buffer (woken by every sample) or slept
            // until each batch was due (`timed_wait`).
            let timed = (o["timed_wait"] as? Bool) ?? false
            configuration = WakeConfiguration(rateHz: rate, policy: policy, buffering: fifo > 0 ? .hardware : (timed ? .timed : .software))
        }
        let switches = try count("voluntary_context_switches")
        guard switches >= 0 else { throw WakeCostError(file: file, key: "voluntary_context_switches", problem: "must not be negative, got \(switches)") }
        let cpu = try o.number("cpu_s", file: file)
        guard cpu >= 0 else { throw WakeCostError(file: file, key: "cpu_s", problem: "must not be negative, got \(cpu)") }
        let elapsed = try o.number("elapsed_s", file: file)
        guard elapsed > 0 else { throw WakeCostError(file: file, key: "elapsed_s", problem: "must be greater than 0, got \(elapsed)") }
        let stats = CaptureStats(
            samples: try count("samples"), userspaceReturns: try count("userspace_returns"),
            voluntaryContextSwitches: switches, cpuTimeS: cpu, durationS: elapsed,
            deviceDeliveries: nil, configuration: configuration)
        try stats.validate(file: file)
        return stats
    }
}
