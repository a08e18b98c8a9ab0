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
        try o.rejectUnknownKeys(jsonKeys)
        let deliveries = try o.optionalCount("device_deliveries")
        let stats = CaptureStats(
            samples: try o.count("samples"), userspaceReturns: try o.count("userspace_returns"),
            voluntaryContextSwitches: try o.count("voluntary_ctxt_switches"),
            cpuTimeS: try o.number("cpu_time_s", rule: InputLimits.duration), durationS: try o.number("duration_s", rule: InputLimits.positiveDuration),
            deviceDeliveries: deliveries)
        do { try stats.validate(file: file) } catch {
            var e = error
            e.position = e.key.flatMap { o[$0]?.position }
            throw e
        }
        return stats
    }

    /// The IIO reader's `capture --json` dialect.
    static func parseCaptureCommandJSON(_ o: JSONObject, file: String) throws(WakeCostError) -> CaptureStats {
        var configuration: WakeConfiguration?
        if let devices = o["devices"], case .array(let list) = devices.value, let d = list.first,
           case .number(let rate)? = d["rate_hz"]?.value, InputLimits.rate.contains(rate),
           case .number(let latency)? = d["latency_s"]?.value, InputLimits.duration.contains(latency) {
            var fifo = 0.0
            if case .number(let f)? = d["hwfifo_timeout_s"]?.value { fifo = f }
            var batch = 1
            if case .number(let b)? = d["batch_samples"]?.value, InputLimits.positiveCount.contains(b) { batch = Int(b) }
            let policy: DeliveryPolicy = latency > 0 ? .latency(seconds: latency) : .samples(max(1, batch))
            // Without a FIFO the reader either polled the buffer (woken by every sample) or slept
            // until each batch was due (`timed_wait`).
            var timed = false
            if case .bool(let t)? = o["timed_wait"]?.value { timed = t }
            configuration = WakeConfiguration(rateHz: rate, policy: policy, buffering: fifo > 0 ? .hardware : (timed ? .timed : .software))
        }
        let switches = try o.count("voluntary_context_switches")
        let cpu = try o.number("cpu_s", rule: InputLimits.duration)
        let elapsed = try o.number("elapsed_s", rule: InputLimits.positiveDuration)
        let stats = CaptureStats(
            samples: try o.count("samples"), userspaceReturns: try o.count("userspace_returns"),
            voluntaryContextSwitches: switches, cpuTimeS: cpu, durationS: elapsed,
            deviceDeliveries: nil, configuration: configuration)
        do { try stats.validate(file: file) } catch {
            var e = error
            e.position = e.key.flatMap { o[$0]?.position }
            throw e
        }
        return stats
    }
}
